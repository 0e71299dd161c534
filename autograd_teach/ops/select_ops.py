"""Ops that choose between values: where, masked_fill, and the remainder of a
division. Where a value was chosen, its gradient passes; elsewhere it is 0."""
import numpy as np

from ..function import Function, quiet


class WhereBackward0(Function):
    """out = where(condition, self, other)

    self: where(condition, grad, 0)
    other: where(condition, 0, grad)"""
    inputs = ("self", "other")
    attrs = ("condition",)
    saved_arrays = ("condition",)

    def forward(self, a, b, condition):
        self.condition = condition
        return np.where(condition, a, b)

    def backward(self, grad):
        zero = np.zeros((), dtype=grad.dtype)
        return np.where(self.condition, grad, zero), np.where(self.condition, zero, grad)


class MaskedFillBackward0(Function):
    """out = self.masked_fill(mask, value)

    self: grad.masked_fill(mask, 0)"""
    attrs = ("mask",)
    saved_arrays = ("mask",)
    keeps_dtype = True

    def forward(self, a, mask, value):
        if mask.dtype != np.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{mask.dtype}")
        self.mask = mask
        out = np.where(mask, np.asarray(value, dtype=a.dtype), a)
        if out.shape != a.shape:
            raise RuntimeError(f"The expanded size of the tensor ({out.shape[-1]}) must match the existing size "
                               f"({a.shape[-1]})")
        return out

    def backward(self, grad):
        return np.where(self.mask, np.zeros((), dtype=grad.dtype), grad)


class RemainderBackward0(Function):
    """out = self - (self / other).floor() * other  (other a number; Python's sign rule)

    self: grad"""
    promote_params = True

    @quiet
    def forward(self, a, other):
        if a.dtype.kind in "iu" and isinstance(other, int) and other == 0:
            raise RuntimeError("ZeroDivisionError")
        return np.mod(a, other)

    def backward(self, grad):
        return grad


class RemainderBackward1(Function):
    """out = self - (self / other).floor() * other  (both tensors)

    self: grad
    other: -grad * (self / other).floor()"""
    inputs = ("self", "other")
    saved = ("self", "other")
    elementwise = True

    @quiet
    def forward(self, a, b):
        if a.dtype.kind in "iu" and (b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return np.mod(a, b)

    @quiet
    def backward(self, grad, a, b):
        return grad, -grad * np.floor_divide(a, b)
