"""xlogy(self, other) = self * log(other), 0 where self is 0: the op that
F.kl_div records in xlogy(target, target) - target * input (an edge only
when the target requires grad)."""
import numpy as np

from .. import kernels
from ..core.node import OpNode, quiet


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
        return np.where(np.isnan(b), np.nan, np.where(a == 0, 0, a * kernels.log(np.asarray(b, a.dtype))))

    @quiet
    def backward(self, grad, a, b):
        return (grad * np.where(np.isnan(b), np.nan, np.where(a != 0, kernels.log(np.asarray(b, grad.dtype)), 0)),
                grad * a / b)
