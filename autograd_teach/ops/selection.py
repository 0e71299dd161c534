"""The rest of the selection family (core/ops/selection.py has where and
indexing): ops that choose between values, masked_fill, maximum, minimum, and
the remainder of a division. Where a value was chosen, its gradient passes; elsewhere it is 0."""
import numpy as np

from ..compat import dtypes
from ..core.node import OpNode, check_broadcast, quiet
from ..core.ops.selection import where  # noqa: F401  (the rules call it)


class MaskedFillBackward0(OpNode):
    """out = self.masked_fill(mask, value)

    self: grad.masked_fill(mask, 0)"""
    attrs = ("mask",)
    saved_arrays = ("mask",)
    keeps_dtype = True

    def forward(self, a, mask, value):
        self.mask = mask
        return np.where(mask, np.asarray(value, dtype=a.dtype), a)   # broadcast: out may be larger than self

    def backward(self, grad):
        return np.where(self.mask, np.zeros((), dtype=grad.dtype), grad)


def masked_fill(self, mask, value, inplace=False):
    """PyTorch's checks, then MaskedFillBackward0: a boolean mask that
    broadcasts with self (out of place, the output takes the broadcast shape),
    and a number or a 0-d tensor."""
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{dtypes.c_name(mask.dtype)}")
    if hasattr(value, "_data") and value.dim():
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.dim()} dimension(s).")
    if mask.shape != self.shape:   # PyTorch's message names mask first out of place, self first in place
        check_broadcast(*((self.shape, mask.shape) if inplace else (mask.shape, self.shape)))
    if hasattr(value, "_data"):
        return MaskedFillBackward1.apply(self, value, mask._data)
    return MaskedFillBackward0.apply(self, mask._data, value)


class MaskedFillBackward1(MaskedFillBackward0):
    """out = self.masked_fill(mask, value)   (value a 0-dim tensor)

    self: grad.masked_fill(mask, 0)
    value: masked_fill_backward(grad, mask)

    The value went to every masked place: its gradient is the sum of grad there.
    """
    inputs = ("self", "value")

    def forward(self, a, value, mask):
        return super().forward(a, mask, value.astype(a.dtype))

    def backward(self, grad):
        masked = grad[np.broadcast_to(self.mask, grad.shape)]
        return super().backward(grad), masked.sum(dtype=grad.dtype)


def masked_fill_backward(grad, mask):
    """The value's gradient: grad summed where the mask is set."""
    return grad.masked_select(mask).sum()


class RemainderBackward0(OpNode):
    """out = self - (self / other).floor() * other  (other a number; Python's sign rule)

    self: grad"""
    promote_params = True

    @quiet
    def forward(self, a, other):
        if a.dtype.kind in "iu" and isinstance(other, int) and other == 0:
            raise RuntimeError("ZeroDivisionError")
        return remainder(a, other)

    def backward(self, grad):
        return grad


class RemainderBackward1(OpNode):
    """out = self - (self / other).floor() * other  (both tensors)

    self: grad
    other: -grad * floor(self / other)"""
    inputs = ("self", "other")
    saved = ("self", "other")
    elementwise = True

    @quiet
    def forward(self, a, b):
        if a.dtype.kind in "iu" and (b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return remainder(a, b)

    @quiet
    def backward(self, grad, a, b):
        return grad, -grad * np.floor_divide(a, b)


def remainder(a, b):
    """np.mod as PyTorch computes it (fmod, then + b where the signs differ):
    the same but for a zero, which keeps a's sign (-2.0 % 2 is -0.)."""
    out = np.mod(a, b)
    return np.where(out == 0, np.fmod(a, b), out) if out.dtype.kind == "f" else out


def keep_first_maximum(a, b):
    """np.maximum as PyTorch's scalar loop computes it: a unless b is larger,
    NaN if either is (so of two zeros the first, sign and all; numpy's
    answer there depends on its SIMD loop)."""
    out = np.where(a < b, b, a)
    return np.where(b != b, b, out) if out.dtype.kind in "fc" else out


def keep_first_minimum(a, b):
    """np.minimum likewise: a unless b is smaller, NaN if either is."""
    out = np.where(b < a, b, a)
    return np.where(b != b, b, out) if out.dtype.kind in "fc" else out


class MaximumBackward0(OpNode):
    """out = maximum(self, other)

    self: where(self == other, grad / 2, grad).masked_fill(self < other, 0)
    other: where(self == other, grad / 2, grad).masked_fill(self > other, 0)"""
    inputs = ("self", "other")
    saved = ("self", "other")
    elementwise = True
    _pick = staticmethod(keep_first_maximum)
    _wins = staticmethod(np.greater)

    def forward(self, a, b):
        return self._pick(a, b)

    def backward(self, grad, a, b):
        tie = a == b
        shared = np.where(tie, grad / 2, grad)
        zero = np.zeros((), dtype=shared.dtype)
        return (np.where(self._wins(b, a), zero, shared),
                np.where(self._wins(a, b), zero, shared))


class MinimumBackward0(MaximumBackward0):
    """out = minimum(self, other)

    self: where(self == other, grad / 2, grad).masked_fill(self > other, 0)
    other: where(self == other, grad / 2, grad).masked_fill(self < other, 0)"""
    _pick = staticmethod(keep_first_minimum)
    _wins = staticmethod(np.less)


def floor(t):
    """(self / other).floor() for the rule: a constant, since floor's derivative is 0 wherever it has one."""
    return t._wrap(np.floor(t._data))
