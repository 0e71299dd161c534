# Multinomial.log_prob (log n! - sum log x_i! + sum x_i log p_i, with lgamma),
# its gradient w.r.t. probs and logits, and the ops it needs: lgamma, digamma
# and polygamma at ordinary points, negatives and poles, with their gradients.
import math
import torch
from torch.distributions import Multinomial

x = torch.tensor([0.0, -0.0, -1.0, -2.5, 1.0, 2.0, 0.5, 3.7, 12.5, -0.3, 1e-30, math.inf, -math.inf, math.nan],
                 dtype=torch.float64)
print(torch.lgamma(x), x.lgamma().dtype)
print(torch.digamma(x))
print(torch.polygamma(1, x))
print(x.polygamma(2))
print(torch.lgamma(torch.tensor([0.0, -3.0, 0.25, 4.0, 100.5])), torch.digamma(torch.tensor([0.0, -3.0, 0.25, 4.0])))
print(torch.lgamma(torch.tensor([3, 4])), torch.digamma(torch.tensor([1, 2])))

z = torch.tensor([0.3, 2.5, -1.5, 7.0], dtype=torch.float64, requires_grad=True)
y = z.lgamma()
print(y.grad_fn.name(), z.digamma().grad_fn.name(), torch.polygamma(3, z).grad_fn.name())
print(torch.polygamma(3, z).grad_fn._saved_n)
(g,) = torch.autograd.grad(y.sum(), z, create_graph=True)
print(g, g.grad_fn.name())
(gg,) = torch.autograd.grad(g.sum(), z, create_graph=True)
print(gg, gg.grad_fn.name())
(ggg,) = torch.autograd.grad(gg.sum(), z)
print(ggg)
try:
    torch.polygamma(-1, z)
except RuntimeError as err:
    print("RuntimeError:", err)

p = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.0, 0.9]], dtype=torch.float64, requires_grad=True)
d = Multinomial(5, probs=p, validate_args=True)
print(d.support, d.batch_shape, d.event_shape)
v = torch.tensor([[1.0, 2.0, 2.0], [0.0, 0.0, 5.0]], dtype=torch.float64)
lp = d.log_prob(v)
print(lp, lp.grad_fn.name())
print(torch.autograd.grad(lp.sum(), p))
print(d.log_prob(torch.tensor([3.0, 1.0, 1.0], dtype=torch.float64)))
print(d.log_prob(torch.tensor([[[0.0, 0.0, 5.0]], [[5.0, 0.0, 0.0]]], dtype=torch.float64)))

logits = torch.tensor([0.5, -1.0, -math.inf], requires_grad=True)
m = Multinomial(4, logits=logits)
lp = m.log_prob(torch.tensor([2.0, 2.0, 0.0]))
print(lp, torch.autograd.grad(lp, logits))
print(m.log_prob(torch.tensor([1.0, 1.0, 2.0])))
print(Multinomial(10, probs=torch.tensor([0.25, 0.75])).log_prob(torch.tensor([[3.0, 7.0], [10.0, 0.0], [0.0, 10.0]])))

for bad in (torch.tensor([1.0, -1.0, 5.0]), torch.tensor([2.0, 2.0, 2.0]), torch.tensor([1.0, 4.0]), [1.0, 2.0, 2.0]):
    try:
        d.log_prob(bad)
    except ValueError as err:
        print("ValueError:", err)
print(Multinomial(5, probs=p, validate_args=False).log_prob(torch.tensor([1.0, -1.0, 5.0], dtype=torch.float64)))

# entropy: n H(p) - log n! + the Binomial marginals' expected log k!
h = Multinomial(5, probs=p).entropy()
print(h, h.grad_fn.name(), torch.autograd.grad(h.sum(), p))
h = Multinomial(3, logits=logits.detach()[:2].clone().requires_grad_()).entropy()
print(h)
print(Multinomial(0, probs=torch.tensor([0.5, 0.5])).entropy(), Multinomial(1, probs=torch.tensor([0.25, 0.75])).entropy())
print(Multinomial(4, logits=torch.tensor([0.0, -math.inf])).entropy())
print(Multinomial(12, probs=torch.tensor([[0.25, 0.75], [0.5, 0.5]])).entropy())
