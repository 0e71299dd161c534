# torch.distributions.Bernoulli (probs or logits, log_prob through
# binary_cross_entropy_with_logits) and Uniform (log_prob, cdf, icdf, rsample).
import math
import torch
from torch.distributions import Bernoulli, Uniform


def grad(out, inputs):
    """The parameters' gradients; the graph kept, as a lazy probs/logits is shared by later calls."""
    return torch.autograd.grad(out, inputs, retain_graph=True)


p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
b = Bernoulli(probs=p)
print(b, b.batch_shape, b.event_shape, b.has_rsample, b.has_enumerate_support)
print(b.mean, b.variance, b.stddev)
lp = b.log_prob(torch.tensor([1.0, 0.0, 1.0]))
print(lp, lp.grad_fn.name(), lp.tolist(), grad(lp.sum(), p))
h = b.entropy()
print(h, h.grad_fn.name(), h.tolist(), grad(h.sum(), p))
print(b, b.logits, b.logits.grad_fn.name())
lg = torch.tensor([-3.0, 0.0, 2.5], requires_grad=True)
bl = Bernoulli(logits=lg)
print(bl, bl.probs, bl.probs.grad_fn.name(), bl)
lp = bl.log_prob(torch.tensor([0.0, 1.0, 1.0]))
print(lp, lp.tolist(), grad(lp.sum(), lg))
h = bl.entropy()
print(h.tolist(), grad(h.sum(), lg))
print(Bernoulli(logits=torch.tensor([-100.0, 100.0])).log_prob(torch.tensor([1.0, 0.0])))
print(Bernoulli(torch.tensor([0.0, 1.0])).entropy(), Bernoulli(torch.tensor([0.0, 1.0])).log_prob(torch.tensor([0.0, 1.0])))
print(b.enumerate_support(), b.enumerate_support(expand=False).shape)
torch.manual_seed(2)
print(b.sample(), b.sample((2, 3)), b.sample((0,)).shape, Bernoulli(0.3).sample((20,)))
print(Bernoulli(0.3), Bernoulli(0.3).sample().shape, Bernoulli(torch.tensor([0.5], dtype=torch.float64)).sample((2,)))
print(Bernoulli(torch.tensor([[0.1], [0.8]])).log_prob(torch.tensor([1.0, 0.0, 1.0])))
print(b.expand((2, 3)), b.expand((2, 3)).log_prob(torch.ones(2, 3)).shape)
for bad in (lambda: Bernoulli(torch.tensor([0.5, 1.5])), lambda: Bernoulli(-0.1),
            lambda: Bernoulli(probs=torch.tensor(0.5), logits=torch.tensor(0.0)), lambda: Bernoulli(),
            lambda: Bernoulli(0.5).log_prob(torch.tensor([0.5])), lambda: Bernoulli(torch.tensor([math.nan])),
            lambda: Bernoulli(logits=torch.tensor([math.nan]))):
    try:
        bad()
    except ValueError as err:
        print("ValueError:", err)
print(Bernoulli(torch.tensor([1.5]), validate_args=False).log_prob(torch.tensor([1.0])))

low = torch.tensor([0.0, -1.0], requires_grad=True)
high = torch.tensor([2.0, 3.0], requires_grad=True)
u = Uniform(low, high)
print(u, u.batch_shape, u.support, u.mean, u.stddev, u.variance)
v = torch.tensor([0.5, 2.9])
for name in ("log_prob", "cdf", "icdf"):
    out = getattr(u, name)(torch.tensor([0.25, 0.75]) if name == "icdf" else v)
    print(name, out, out.grad_fn.name(), out.tolist(), grad(out.sum(), (low, high)))
h = u.entropy()
print(h, h.grad_fn.name(), grad(h.sum(), (low, high)))
torch.manual_seed(3)
s = u.sample((3,))
r = u.rsample()
print(s, s.grad_fn, r, r.grad_fn.name(), grad(r.sum(), (low, high)))
print(Uniform(0.0, 1.0).sample((2, 3)), Uniform(0.0, 1.0).sample((0,)).shape, Uniform(-1.0, 1.0).sample())
print(Uniform(torch.zeros(3, dtype=torch.float64), 1.0).rsample((2,)))
print(Uniform(torch.zeros(2, 1), torch.tensor([1.0, 2.0, 3.0])).batch_shape)
print(Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor([-0.5, 0.5, 1.0])))
print(Uniform(0.0, 1.0).cdf(torch.tensor([0.0, 1.0])), Uniform(2.0, 4.0).expand((3,)))
for bad in (lambda: Uniform(1.0, 0.0), lambda: Uniform(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 2.0])),
            lambda: Uniform(0.0, 1.0).log_prob(torch.tensor([1.5])), lambda: Uniform(0.0, math.nan)):
    try:
        bad()
    except ValueError as err:
        print("ValueError:", err)
