"""torch.bernoulli(p): a 0/1 sample per element, 1 with probability p.
Sampling is not differentiable: PyTorch records BernoulliBackward0, whose
gradient is zero (a straight-through estimator is the learner's to write)."""
import numpy as np

from ..compat import dtypes, random
from ..core.node import OpNode
from ..core.ops.selection import zeros_like  # noqa: F401  (the rule calls it)


class BernoulliBackward0(OpNode):
    """out = torch.bernoulli(self)   (self: the probabilities)

    self: zeros_like(grad)
    """
    attrs = ()

    def forward(self, p, generator=None):
        if p.dtype.kind != "f":
            raise NotImplementedError("\"bernoulli_tensor_cpu_self_\" not implemented for '" + _name(p) + "'")
        if not np.all((p >= 0) & (p <= 1)):          # nan too
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                               "message be improved?  If so, please report an enhancement request to PyTorch.)")
        return random.bernoulli_tensor(np.ascontiguousarray(p), generator).astype(p.dtype).reshape(p.shape)  # 0-d stays 0-d

    def backward(self, grad):
        return np.zeros_like(grad)


class BernoulliBackward1(OpNode):
    """out = self.bernoulli_(p)   (p a number: each element 1 with probability p; self gives the shape)

    self: zeros_like(grad)
    """
    attrs = ()

    def forward(self, a, p, generator=None):
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        return random.bernoulli(a.shape, p, generator).astype(a.dtype)

    def backward(self, grad):
        return np.zeros_like(grad)


def _name(a):
    return dtypes.from_numpy(a.dtype).legacy_name


def bernoulli(input, p=None, *, generator=None):
    """torch.bernoulli(input): input holds the probabilities; with a number
    p, every element is 1 with probability p (input gives only the shape)."""
    if p is not None:
        return BernoulliBackward1.apply(input.detach(), p, generator)
    return BernoulliBackward0.apply(input, generator)
