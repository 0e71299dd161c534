# torch.distributions.Normal: log_prob, entropy, cdf, icdf, rsample
# (gradients reach loc and scale), seeded samples, shapes, validation.
import math
import torch
from torch.distributions import Normal

loc = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
d = Normal(loc, scale)
print(d, d.batch_shape, d.event_shape, d.has_rsample)
print(d.mean, d.stddev, d.variance)
x = torch.tensor([0.3, 0.9, 1.0])
for name in ("log_prob", "cdf"):
    out = getattr(d, name)(x)
    print(name, out, out.grad_fn.name(), [f.name() if f else None for f, _ in out.grad_fn.next_functions])
    print(torch.autograd.grad(out.sum(), (loc, scale)))
q = torch.tensor([0.1, 0.5, 0.975])
out = d.icdf(q)
print("icdf", out, torch.autograd.grad(out.sum(), (loc, scale)))
h = d.entropy()
print("entropy", h, h.grad_fn.name(), torch.autograd.grad(h.sum(), scale))
print("perplexity", d.perplexity())

# seeded draws: sample under no_grad, rsample keeps a graph
torch.manual_seed(1)
s = d.sample()
print(s, s.requires_grad, s.grad_fn)
r = d.rsample((2,))
print(r, r.grad_fn.name(), torch.autograd.grad(r.sum(), (loc, scale)))
print(d.sample((2, 3)).shape, d.rsample(torch.Size([4])).shape, d.sample((0,)).shape, d.rsample((0,)).shape)
print(torch.empty(0, 2).normal_().shape, torch.empty(0, 3).uniform_().shape)
print(d.sample((6,)))                                       # 18 numbers: the 16-wide kernel
print(Normal(torch.zeros(20, dtype=torch.float64), 2.0).sample())
print(Normal(1.0, 2.0).rsample((17,)))
s0 = Normal(0.0, 1.0)
print(s0, s0.batch_shape, s0.sample().shape, s0.sample().dtype, s0.log_prob(torch.tensor(0.5)))
print(Normal(torch.tensor(0.0, dtype=torch.float64), 1.0).sample((2,)).dtype)

# broadcasting parameters, a broadcast value, float64
b = Normal(torch.zeros(2, 1), torch.tensor([1.0, 2.0, 4.0]))
print(b.batch_shape, b.log_prob(torch.tensor(1.0)), b.rsample((2,)).shape)
loc64 = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
n64 = Normal(loc64, torch.tensor([2.0], dtype=torch.float64))
lp = n64.log_prob(torch.tensor([[1.0], [2.0]], dtype=torch.float64))
print(lp, torch.autograd.grad(lp.sum(), loc64))
e = n64.expand((2, 1))
print(e, e.batch_shape, e.log_prob(torch.zeros(2, 1, dtype=torch.float64)))

# NaN parameters: validated, refused; unvalidated, NaN flows through
try:
    Normal(torch.tensor([0.0, math.nan]), 1.0)
except ValueError as err:
    print("ValueError:", err)
nn_ = Normal(torch.tensor([0.0, math.nan]), 1.0, validate_args=False)
print(nn_.log_prob(torch.tensor([0.0, 0.0])), nn_.entropy())

for bad in (lambda: Normal(0.0, 0.0), lambda: Normal(torch.tensor([1.0, 2.0]), torch.tensor([1.0, -1.0])),
            lambda: Normal(0.0, 1.0).log_prob(torch.tensor([math.nan])),
            lambda: Normal(0.0, 1.0).log_prob(0.5), lambda: Normal(torch.zeros(2), 1.0).log_prob(torch.zeros(3)),
            lambda: Normal("a", 1.0)):
    try:
        bad()
    except ValueError as err:
        print("ValueError:", err)
print(Normal(0.0, 0.0, validate_args=False).log_prob(torch.tensor(1.0)))
print(Normal(0.0, 1.0).cdf(torch.tensor([-math.inf, 0.0, math.inf])), Normal(0.0, 1.0).icdf(torch.tensor([0.0, 1.0])))
# every bit of float32 results
z = torch.linspace(-3.0, 3.0, 13)
m = Normal(torch.tensor(0.3), torch.tensor(1.7))
print(m.log_prob(z).tolist())
print(m.cdf(z).tolist())
print(m.entropy().item(), Normal(0.0, 1.0).icdf(torch.tensor([0.05, 0.25, 0.5, 0.8])).tolist())
