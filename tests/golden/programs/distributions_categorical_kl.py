# Categorical's log_prob, entropy, probs/logits, and kl_divergence with its
# registry (Normal, Bernoulli, Uniform, Categorical; NotImplementedError else).
import math
import torch
from torch.distributions import Bernoulli, Categorical, Normal, Uniform, kl_divergence, register_kl


def grad(out, inputs):
    """The parameters' gradients; the graph kept, as a lazy probs/logits is shared by later calls."""
    return torch.autograd.grad(out, inputs, retain_graph=True)


w = torch.tensor([1.0, 2.0, 5.0], requires_grad=True)
c = Categorical(probs=w)
print(c, c.batch_shape, c.event_shape, c.probs, c.logits, c)
lp = c.log_prob(torch.tensor([0, 2, 2]))
print(lp, lp.grad_fn.name(), lp.tolist(), grad(lp.sum(), w))
h = c.entropy()
print(h, h.grad_fn.name(), h.item(), grad(h, w))
z = torch.tensor([[0.5, -1.0, 2.0], [0.0, 0.0, 0.0]], requires_grad=True)
cl = Categorical(logits=z)
print(cl, cl.batch_shape, cl.logits, cl.probs)
lp = cl.log_prob(torch.tensor([2, 1]))
print(lp.tolist(), grad(lp.sum(), z))
h = cl.entropy()
print(h.tolist(), grad(h.sum(), z))
print(cl.log_prob(torch.tensor([[0], [1], [2]])), cl.mean, cl.variance, cl.mode, cl.enumerate_support())
print(Categorical(torch.tensor([0.0, 1.0])).entropy(), Categorical(logits=torch.tensor([-math.inf, 0.0])).entropy())
torch.manual_seed(4)
print(c.sample(), c.sample((2, 3)), cl.sample((4,)), cl.expand((3, 2)).sample().shape)
for bad in (lambda: Categorical(torch.tensor([1.0, -1.0])), lambda: Categorical(torch.tensor(1.0)),
            lambda: Categorical(logits=torch.tensor(1.0)), lambda: Categorical(torch.tensor([0.5, 0.5]), torch.tensor([0.0, 0.0])),
            lambda: c.log_prob(torch.tensor([3])), lambda: Categorical(logits=torch.tensor([0.0, math.nan]))):
    try:
        bad()
    except ValueError as err:
        print("ValueError:", err)
try:
    c.sample((0,))
except RuntimeError as err:
    print("RuntimeError:", err)

# KL: values, grad_fn, gradients wrt every parameter
loc = torch.tensor([0.0, 1.0], requires_grad=True)
scale = torch.tensor([1.0, 2.0], requires_grad=True)
k = kl_divergence(Normal(loc, scale), Normal(0.5, torch.tensor([1.5, 0.5])))
print(k, k.grad_fn.name(), k.tolist(), grad(k.sum(), (loc, scale)))
p = torch.tensor([0.1, 0.5, 0.0, 1.0, 0.7], requires_grad=True)
k = kl_divergence(Bernoulli(p), Bernoulli(torch.tensor([0.3, 0.0, 0.5, 0.5, 1.0])))
print(k, k.grad_fn.name(), grad(k[[0, 1]].sum(), p))
lo = torch.tensor([0.0, -1.0], requires_grad=True)
k = kl_divergence(Uniform(lo, 1.0), Uniform(torch.tensor([-1.0, 0.0]), 2.0))
print(k, k.grad_fn.name(), grad(k[0], lo))
k = kl_divergence(c, Categorical(torch.tensor([0.2, 0.3, 0.5])))
print(k, k.grad_fn.name(), k.item(), grad(k, w))
print(kl_divergence(cl, Categorical(torch.tensor([0.0, 0.5, 0.5]))), kl_divergence(Categorical(torch.tensor([0.0, 1.0])), Categorical(torch.tensor([0.5, 0.5]))))
print(kl_divergence(Normal(0.0, 1.0), Uniform(0.0, 1.0)), kl_divergence(Uniform(0.0, 1.0), Normal(torch.tensor([0.0, 1.0]), 1.0)))
print(kl_divergence(Normal(0.0, 1.0), Normal(0.0, 1.0)), kl_divergence(Bernoulli(logits=torch.tensor(2.0)), Bernoulli(0.5)))
for p_, q_ in ((c, Normal(0.0, 1.0)), (Normal(0.0, 1.0), Bernoulli(0.5)), (Bernoulli(0.5), c)):
    try:
        kl_divergence(p_, q_)
    except NotImplementedError as err:
        print("NotImplementedError:", err)


class MyNormal(Normal):
    pass


print(kl_divergence(MyNormal(0.0, 1.0), Normal(1.0, 1.0)))


@register_kl(MyNormal, Normal)
def _kl_mine(p, q):
    return torch.tensor(-1.0)


print(kl_divergence(MyNormal(0.0, 1.0), Normal(1.0, 1.0)), kl_divergence(Normal(0.0, 1.0), MyNormal(1.0, 1.0)))
