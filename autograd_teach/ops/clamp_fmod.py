"""clamp with tensor bounds, clamp_min, clamp_max, fmod, fmax, fmin: the siblings of clamp, remainder
and maximum (core/ops/pointwise.py, ops/selection.py) that a learner meets next.

Where one side's value was chosen, its gradient passes; elsewhere it is 0.
fmax and fmin differ from maximum and minimum only at NaN: they pick the
other number (and give it the gradient), and a tie goes to self whole.
"""
import numpy as np

from ..core.node import OpNode, check_broadcast, quiet
from ..core.ops.pointwise import ClampBackward1
from ..core.ops.selection import where  # noqa: F401  (the rules call it)
from .selection import keep_first_maximum, keep_first_minimum


class ClampBackward0(OpNode):
    """out = self.clamp(min, max)   (min and max tensors, or None)

    self: clamp_tensors_backward(grad, self, min, max)
    min: clamp_min_backward(grad, self, min, max)
    max: clamp_max_backward(grad, self, min, max)

    out is self.maximum(min).minimum(max): where min > max, it is max, and
    max gets the gradient (PyTorch's clamp_backward_min_max).
    """
    inputs = ("self", "min", "max")
    saved = ("self", "min", "max")
    promote_params = True     # an int tensor clamped by float tensors is float

    def forward(self, a, min, max):
        shapes = [x.shape for x in (a, min, max) if x is not None]
        check_broadcast(*shapes[:2])
        check_broadcast(np.broadcast_shapes(*shapes[:2]), shapes[-1])
        out = a if min is None else keep_first_maximum(a, min)
        return out if max is None else keep_first_minimum(out, max)

    def backward(self, grad, a, min, max):
        zero = np.zeros((), grad.dtype)
        inside = clamp_inside(a, min, max)
        return (grad if inside is None else np.where(inside, grad, zero),
                None if min is None else np.where(min_chosen(a, min, max), grad, zero),
                None if max is None else np.where(max_chosen(a, min, max), grad, zero))


# The masks of PyTorch's clamp_backward and clamp_backward_min_max, on arrays or
# Tensors. PyTorch combines two of them in place (logical_and_), so where the
# first is smaller than the broadcast of all three, its backward raises.
def clamp_inside(self, min, max):
    """Where self was kept: min <= self <= max (None: everywhere)."""
    if min is None or max is None:
        return None if min is None and max is None else self >= min if max is None else self <= max
    return _in_place(self >= min, self <= max, "and")


def min_chosen(self, min, max):
    return self < min if max is None else _in_place(self < min, min < max, "and")


def max_chosen(self, min, max):
    return self > max if min is None else _in_place(self > max, max < min, "or")


def _in_place(first, second, how):
    """first.logical_and_(second) (or logical_or_): the result keeps first's shape."""
    if np.broadcast_shapes(first.shape, second.shape) != tuple(first.shape):
        raise RuntimeError(f"output with shape [{', '.join(map(str, first.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, np.broadcast_shapes(first.shape, second.shape)))}]")
    return first & second if how == "and" else first | second


def clamp_tensors_backward(grad, self, min, max):
    """self's gradient: where it was kept."""
    inside = clamp_inside(self, min, max)
    return grad if inside is None else where(inside, grad, 0.0)


def clamp_min_backward(grad, self, min, max):
    """min's gradient: where it was chosen (self < min), unless max was (min >= max)."""
    return where(min_chosen(self, min, max), grad, 0.0)


def clamp_max_backward(grad, self, min, max):
    """max's gradient: where it was chosen (self > max, or min > max)."""
    return where(max_chosen(self, min, max), grad, 0.0)


def clamp(self, min, max, name="clamp"):
    """Tensor bounds take clamp.Tensor (ClampBackward0); a 0-d one that needs no
    gradient may stand for a number, as PyTorch's argument parser allows."""
    bounds = (min, max)
    if all(b is None or hasattr(b, "_data") for b in bounds):
        return ClampBackward0.apply(self, min, max)
    if any(hasattr(b, "_data") and (b.dim() or b.requires_grad) for b in bounds):
        given = ", ".join(f"{k}={type(b).__name__}" for k, b in (("max", max), ("min", min)) if b is not None)
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({given}, ), but expected "
                        "one of:\n * (Tensor min = None, Tensor max = None)\n * (Number min = None, Number max = None)")
    min, max = (b.item() if hasattr(b, "_data") else b for b in bounds)
    return ClampBackward1.apply(self, min, max)


class ClampMinBackward0(OpNode):
    """out = self.clamp_min(min)   (min a number)

    self: where(self >= min, grad, 0.0)
    """
    saved = ("self",)
    attrs = ("min",)
    promote_params = True     # an int tensor clamped to 2.5 is float, as in PyTorch

    def forward(self, a, min):
        self.min = min
        return np.where(a < min, min, a)     # -0.0 stays -0.0, as ATen's (np.maximum's sign of a tied zero varies)

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
        return np.where(a > max, max, a)

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
        return keep_first_maximum(a, m)

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
        return keep_first_minimum(a, m)

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
