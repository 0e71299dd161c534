"""clamp_min, clamp_max, fmod, fmax, fmin: the siblings of clamp, remainder
and maximum (pointwise.py, select_ops.py) that a learner meets next.

Where one side's value was chosen, its gradient passes; elsewhere it is 0.
fmax and fmin differ from maximum and minimum only at NaN: they pick the
other number (and give it the gradient), and a tie goes to self whole.
"""
import numpy as np

from ..core.node import OpNode, quiet
from ..core.ops.selection import where  # noqa: F401  (the rules call it)


class ClampMinBackward0(OpNode):
    """out = self.clamp_min(min)   (min a number)

    self: where(self >= min, grad, 0.0)
    """
    saved = ("self",)
    attrs = ("min",)
    promote_params = True     # an int tensor clamped to 2.5 is float, as in PyTorch

    def forward(self, a, min):
        self.min = min
        return np.maximum(a, min)

    def backward(self, grad, a):
        return np.where(a >= self.min, grad, np.zeros((), grad.dtype))


class ClampMaxBackward0(OpNode):
    """out = self.clamp_max(max)   (max a number)

    self: where(self <= max, grad, 0.0)
    """
    saved = ("self",)
    attrs = ("max",)
    promote_params = True

    def forward(self, a, max):
        self.max = max
        return np.minimum(a, max)

    def backward(self, grad, a):
        return np.where(a <= self.max, grad, np.zeros((), grad.dtype))


class ClampMinBackward1(OpNode):
    """out = self.clamp_min(min)   (min a tensor)

    self: where(self >= min, grad, 0.0)
    min: where(self < min, grad, 0.0)
    """
    inputs = ("self", "min")
    saved = ("self", "min")
    elementwise = True

    def forward(self, a, m):
        return np.maximum(a, m)

    def backward(self, grad, a, m):
        zero = np.zeros((), grad.dtype)
        return np.where(a >= m, grad, zero), np.where(a < m, grad, zero)


class ClampMaxBackward1(OpNode):
    """out = self.clamp_max(max)   (max a tensor)

    self: where(self <= max, grad, 0.0)
    max: where(self > max, grad, 0.0)
    """
    inputs = ("self", "max")
    saved = ("self", "max")
    elementwise = True

    def forward(self, a, m):
        return np.minimum(a, m)

    def backward(self, grad, a, m):
        zero = np.zeros((), grad.dtype)
        return np.where(a <= m, grad, zero), np.where(a > m, grad, zero)


class FmodBackward0(OpNode):
    """out = self.fmod(other)   (other a number; the result has self's sign, C's fmod)

    self: grad
    """
    promote_params = True

    @quiet
    def forward(self, a, other):
        if a.dtype.kind in "iu" and isinstance(other, int) and other == 0:
            raise RuntimeError("ZeroDivisionError")
        return np.fmod(a, other)

    def backward(self, grad):
        return grad


class FmodBackward1(OpNode):
    """out = self.fmod(other)   (both tensors)

    self: grad
    other: -grad * (self / other).trunc()

    PyTorch writes the quotient as self.div(other, rounding_mode="trunc").
    """
    inputs = ("self", "other")
    saved = ("self", "other")
    needed_for = {"self": "other", "other": "other"}
    elementwise = True

    @quiet
    def forward(self, a, b):
        if a.dtype.kind in "iu" and (b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return np.fmod(a, b)

    @quiet
    def backward(self, grad, a, b):
        return grad, None if b is None else -grad * np.trunc(a / b)


class FmaxBackward0(OpNode):
    """out = fmax(self, other)   (NaN loses to a number)

    self: grad.masked_fill((self >= other).logical_or(other.isnan()).logical_not(), 0)
    other: grad.masked_fill((self >= other).logical_or(other.isnan()), 0)
    """
    inputs = ("self", "other")
    saved = ("self", "other")
    elementwise = True
    _pick = staticmethod(np.fmax)
    _keeps = staticmethod(np.greater_equal)

    def forward(self, a, b):
        return self._pick(a, b)

    @quiet
    def backward(self, grad, a, b):
        to_self = self._keeps(a, b) | np.isnan(b)
        zero = np.zeros((), grad.dtype)
        return np.where(to_self, grad, zero), np.where(to_self, zero, grad)


class FminBackward0(FmaxBackward0):
    """out = fmin(self, other)   (NaN loses to a number)

    self: grad.masked_fill((self <= other).logical_or(other.isnan()).logical_not(), 0)
    other: grad.masked_fill((self <= other).logical_or(other.isnan()), 0)
    """
    _pick = staticmethod(np.fmin)
    _keeps = staticmethod(np.less_equal)
