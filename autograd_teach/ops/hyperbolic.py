"""The inverse hyperbolic functions: asinh, acosh, atanh (and their
numpy-style names arcsinh, arccosh, arctanh). Each one's derivative is
an algebraic function of its input, 1 / sqrt(x² ± 1) or 1 / (1 - x²)."""
import numpy as np

from .. import kernels
from ..core.node import OpNode, quiet


class AsinhBackward0(OpNode):
    """out = self.asinh()

    self: grad * (self.pow(2) + 1).rsqrt()
    """
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return kernels.asinh(a)

    def backward(self, grad, a):
        return grad * (1 / np.sqrt(a * a + 1))


class AcoshBackward0(OpNode):
    """out = self.acosh()   (NaN below 1)

    self: grad * (self * self - 1).rsqrt()
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.acosh(a)

    @quiet
    def backward(self, grad, a):
        return grad * (1 / np.sqrt(a * a - 1))


class AtanhBackward0(OpNode):
    """out = self.atanh()   (±inf at ±1, NaN beyond)

    self: grad * 1 / (1 - self.pow(2))
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.atanh(a)

    @quiet
    def backward(self, grad, a):
        return grad * 1 / (1 - a * a)


# -- in place: PyTorch has no derivative for these three ------------------------------
# asinh_, acosh_ and atanh_ record a node of their own whose backward raises
# (derivatives.yaml lists them with self: not_implemented("inplace version of asinh")):
# they overwrite the input their derivative needs, and PyTorch saves no copy.

def not_implemented(name):
    raise NotImplementedError(f"the derivative for '{name}' is not implemented.")


class _InplaceWithoutDerivative(OpNode):
    saved = ()
    to_float = True

    @quiet
    def forward(self, a):
        return self.kernel(a)

    def backward(self, grad):
        not_implemented(f"inplace version of {self.aten_name[:-1]}")

    def call_backward_on_tensors(self, grad):      # create_graph=True: the same error
        self.backward(grad)


class AsinhBackward1(_InplaceWithoutDerivative):
    """out = self.asinh_()   (no derivative: backward raises, as PyTorch's)"""
    aten_name = "asinh_"
    kernel = staticmethod(kernels.asinh)


class AcoshBackward1(_InplaceWithoutDerivative):
    """out = self.acosh_()   (no derivative: backward raises, as PyTorch's)"""
    aten_name = "acosh_"
    kernel = staticmethod(kernels.acosh)


class AtanhBackward1(_InplaceWithoutDerivative):
    """out = self.atanh_()   (no derivative: backward raises, as PyTorch's)"""
    aten_name = "atanh_"
    kernel = staticmethod(kernels.atanh)
