"""Two pointwise ops that PyTorch's composite functions record:
F.normalize divides by norm.clamp_min(eps) (ClampMinBackward0), and
F.kl_div computes xlogy(target, target) - target * input (XlogyBackward0,
an edge only when the target requires grad)."""
import numpy as np

from ..node import OpNode, quiet
from .float32 import log
from .selection import where, zeros_like  # noqa: F401  (the rules call them)


class ClampMinBackward0(OpNode):
    """out = self.clamp_min(min)

    self: where(self >= min, grad, zeros_like(grad))

    The gradient passes where self was kept (self >= min), 0 where min replaced it.
    """
    saved = ("self",)
    attrs = ("min",)

    def forward(self, a, min):
        self.min = min
        return np.maximum(a, a.dtype.type(min))

    def backward(self, grad, a):
        return np.where(a >= self.min, grad, 0)


def xlogy(self, other):
    """self * log(other), 0 where self == 0 (unless other is nan): one op."""
    return XlogyBackward0.apply(self, other)


class XlogyBackward0(OpNode):
    """out = xlogy(self, other)   (self * other.log(), 0 where self == 0)

    self: grad * xlogy((self != 0).to(grad.dtype), other)
    other: grad * self / other
    """
    inputs = ("self", "other")
    saved = ("self", "other")
    elementwise = True
    to_float = True

    @quiet
    def forward(self, a, b):
        return np.where(np.isnan(b), np.nan, np.where(a == 0, 0, a * log(np.asarray(b, a.dtype))))

    @quiet
    def backward(self, grad, a, b):
        return (grad * np.where(np.isnan(b), np.nan, np.where(a != 0, log(np.asarray(b, grad.dtype)), 0)),
                grad * a / b)
