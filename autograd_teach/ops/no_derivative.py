"""Ops PyTorch gives no derivative formula: `x // 2` and `2 % x`. Their node
prints as <NotImplemented>, and backward through it raises, as in PyTorch.
(The class names say which op; __name__ is what PyTorch shows.)"""
import numpy as np

from ..core.node import OpNode, quiet
from .selection import remainder


def not_implemented(name):
    """What the rules call (PyTorch's derivatives.yaml: not_implemented("floor_divide")):
    raise as PyTorch's backward does."""
    raise RuntimeError(f"derivative for aten::{name} is not implemented")


class NoDerivative(OpNode):
    """Ops PyTorch gives no derivative formula: their node prints as
    <NotImplemented> and backward through it raises."""
    inputs = ("self", "other")
    elementwise = True

    def backward(self, grad):
        not_implemented(self._op)


class FloorDivide(NoDerivative):
    """out = (self / other).floor()

    self: not_implemented("floor_divide")
    other: not_implemented("floor_divide")"""
    _op = "floor_divide"

    @quiet
    def forward(self, a, b):
        if np.asarray(a).dtype.kind in "iub" and np.asarray(b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return np.floor_divide(a, b)


class FloorDivideScalar(FloorDivide):
    """out = (self / other).floor()  (other a number, not an input of the node)

    self: not_implemented("floor_divide")"""
    inputs = ("self",)
    elementwise = False
    promote_params = True


class RemainderScalarSelf(NoDerivative):
    """out = self - (self / other).floor() * other  (self a number: 2 % x)

    self: not_implemented("remainder")
    other: not_implemented("remainder")

    self is the number, made a 0-d tensor that never requires grad.
    """
    _op = "remainder"

    @quiet
    def forward(self, a, b):
        if b.dtype.kind in "iub" and np.asarray(b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return remainder(a, b)


FloorDivide.__name__ = FloorDivideScalar.__name__ = RemainderScalarSelf.__name__ = "NotImplemented"
