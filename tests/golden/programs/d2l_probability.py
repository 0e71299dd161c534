# zh.d2l.ai 2.6 (probability, pytorch tab), unchanged except a seed and the
# plot dropped: dice thrown with torch.distributions.multinomial, then
# torch.multinomial itself (with and without replacement, one and many rows,
# zero probabilities, float64 with replacement) and Categorical, all drawn
# from the seeded generator, and the errors.
import torch
from torch.distributions import multinomial

torch.manual_seed(0)
fair_probs = torch.ones([6]) / 6
print(multinomial.Multinomial(1, fair_probs).sample())
print(multinomial.Multinomial(10, fair_probs).sample())
counts = multinomial.Multinomial(1000, fair_probs).sample()
print(counts / 1000)
counts = multinomial.Multinomial(10, fair_probs).sample((500,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
print(counts.shape, estimates.shape, estimates[-1], estimates[:3])

loaded = torch.tensor([[0.1, 0.1, 0.8], [0.5, 0.25, 0.25]])
print(multinomial.Multinomial(4, loaded).sample((2,)))
print(multinomial.Multinomial(7, probs=torch.tensor([3.0, 1.0])).sample())   # rows need not sum to 1
print(torch.distributions.Categorical(fair_probs).sample((3, 4)))
print(torch.distributions.Categorical(loaded).sample())

p = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(p, 1), torch.multinomial(p, 3), torch.multinomial(p, 20, True))
print(torch.multinomial(torch.rand(3, 5), 4), torch.multinomial(torch.rand(3, 5), 7, replacement=True))
print(torch.multinomial(torch.rand(3, 5, dtype=torch.float64), 7, True))
print(torch.multinomial(torch.tensor([0., 0., 1.]), 2), torch.multinomial(torch.tensor([0., 2., 0., 1.]), 9, True))
print(torch.multinomial(torch.rand(1000), 100)[:20], torch.rand(2))
for bad in [lambda: torch.multinomial(p, 5), lambda: torch.multinomial(p, 0), lambda: torch.multinomial(torch.ones(2, 2, 2), 1),
            lambda: torch.multinomial(torch.tensor([1, 2]), 1), lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1),
            lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 2, True), lambda: torch.multinomial(torch.zeros(3), 2, True),
            lambda: torch.multinomial(torch.zeros(3), 1)]:
    try:
        print(bad())
    except RuntimeError as e:
        print(type(e).__name__, e)
