# The Distribution base a learner subclasses, constraints, the submodules,
# broadcast_tensors, erfinv, mode, sample_n, and Multinomial as a Distribution.
import math
import torch
import torch.distributions.kl
from torch.distributions import Distribution, constraints
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.normal import Normal
from torch.distributions.uniform import Uniform

print(Normal.arg_constraints, Bernoulli.arg_constraints, Normal.support, Bernoulli.support)
print(Uniform(0.0, 2.0).support, Uniform(0.0, 2.0).arg_constraints, constraints.positive, constraints.unit_interval)
print(constraints.positive.check(torch.tensor([-1.0, 0.0, 2.0])), constraints.real.check(torch.tensor([math.nan, 1.0])))
print(constraints.simplex.check(torch.tensor([[0.5, 0.5], [0.7, 0.7]])), constraints.real_vector)
print(isinstance(Normal(0.0, 1.0), ExponentialFamily), isinstance(Uniform(0.0, 1.0), ExponentialFamily),
      torch.distributions.kl.kl_divergence is torch.distributions.kl_divergence)
print(Bernoulli(torch.tensor([0.2, 0.5, 0.9])).mode, Normal(1.0, 2.0).mode, Uniform(0.0, 1.0).mode)
print(torch.distributions.Categorical(torch.tensor([0.1, 0.6, 0.3])).mode)
torch.manual_seed(0)
print(Normal(0.0, 1.0).sample_n(3))
m = torch.distributions.Multinomial(5, torch.tensor([1.0, 1.0, 2.0]))
print(m, m.batch_shape, m.event_shape, m.mean, m.variance, m.sample((2,)))
try:
    torch.distributions.Multinomial(5, torch.tensor([1.0, -1.0, 2.0]))
except ValueError as err:
    print("ValueError:", err)


class Coin(Distribution):
    """A learner's own distribution: no arg_constraints, no support."""

    def __init__(self, p):
        self.p = p
        super().__init__(p.shape)

    def log_prob(self, value):
        self._validate_sample(value)
        return value * self.p.log() + (1 - value) * (1 - self.p).log()


c = Coin(torch.tensor([0.25, 0.5]))
print(c.batch_shape, c.log_prob(torch.tensor([1.0, 0.0])))
for attr in ("mean", "variance", "sample", "entropy", "mode"):
    try:
        v = getattr(c, attr)
        v() if callable(v) else None
    except NotImplementedError as err:
        print(attr, "NotImplementedError:", err)
try:
    Coin(torch.tensor([0.5])).expand((2,))
except NotImplementedError as err:
    print("NotImplementedError:", err)

a, b = torch.broadcast_tensors(torch.tensor([[1.0], [2.0]], requires_grad=True), torch.tensor([3.0, 4.0, 5.0]))
print(a, b, a.grad_fn.name(), b.grad_fn)
x = torch.ones(3, requires_grad=True)
print(torch.broadcast_tensors(x)[0] is x, torch.broadcast_tensors(x, torch.tensor(2.0))[0] is x)
try:
    torch.broadcast_tensors(torch.ones(2), torch.ones(1), torch.ones(3))
except RuntimeError as err:
    print("RuntimeError:", err)
y = torch.tensor([-0.5, 0.0, 0.25, 0.999], requires_grad=True)
e = y.erfinv()
print(e, e.grad_fn.name(), torch.erfinv(torch.tensor([1.0, -1.0, 2.0])), torch.autograd.grad(e.sum(), y))
print(torch.tensor([0.5, -0.5]).erfinv_())

# unvalidated bad parameters reach the samplers, which refuse them before drawing
nan = math.nan
for bad in (lambda: Normal(torch.zeros(2), torch.tensor([nan, 1.0]), validate_args=False).sample(),
            lambda: Normal(torch.zeros(2), torch.tensor([1.0, -1.0]), validate_args=False).sample(),
            lambda: Bernoulli(torch.tensor([nan, 0.5]), validate_args=False).sample(),
            lambda: Bernoulli(logits=torch.tensor([nan, 0.5]), validate_args=False).sample(),
            lambda: torch.distributions.Categorical(torch.tensor([nan, 0.5]), validate_args=False).sample(),
            lambda: torch.distributions.Categorical(torch.tensor([nan, 0.5]), validate_args=False).sample((3,)),
            lambda: torch.normal(torch.zeros(2), -1.0), lambda: torch.normal(0.0, torch.tensor([nan])),
            lambda: torch.normal(0.0, -1.0, (2,)), lambda: torch.zeros(2).normal_(0.0, nan),
            lambda: torch.bernoulli(torch.tensor([nan]))):
    try:
        bad()
    except RuntimeError as err:
        print("RuntimeError:", err)
print(torch.randn(3))       # no draw was taken by the refusals
print(Normal(torch.tensor([nan, 0.0]), 1.0, validate_args=False).sample(), torch.normal(torch.zeros(2), 0.0))
print(Uniform(torch.tensor([0.0]), torch.tensor([1.0], dtype=torch.float64)).sample(),
      Normal(torch.tensor([0.0], dtype=torch.float64), 1.0).log_prob(torch.tensor([1.0])))
for count, probs in ((-1, torch.tensor([1.0, 1.0, 2.0])), (-2, torch.tensor([3.0]))):
    try:
        torch.distributions.Multinomial(count, probs)
    except ValueError as err:
        print("ValueError:", err)
try:                  # validate_args=False does not reach the Binomial PyTorch builds inside
    torch.distributions.Multinomial(-1, torch.tensor([1.0, 1.0]), validate_args=False)
except ValueError as err:
    print("ValueError:", err)
