"""The rest of the pointwise family (core/ops/pointwise.py has the ones the
tutorials use: exp, log, sin, tanh, relu, ...): log1p expm1 rsqrt sign tan log2 log10 exp2
asin acos atan sinh cosh erf, and the rounding ones (floor ceil round trunc
frac). Each rule is PyTorch's, from derivatives.yaml.

float32: the transcendental ones are computed in float64 and rounded once
(autograd_teach/kernels), which gives PyTorch's bits for 94-99.9 % of inputs
(docs/float32.md); rsqrt is 1 / sqrt in float32, as PyTorch computes it.
"""
import math

import numpy as np

from .. import kernels
from ..core.node import OpNode, quiet
from ..compat.dtypes import no_bool_kernel
from ..core.ops.selection import zeros_like  # noqa: F401  (the rules call it)

LN2 = 0.6931471805599453     # M_LN2
LN10 = 2.3025850929940456    # M_LN10


class Log1PBackward0(OpNode):
    """out = self.log1p()   (log(1 + self), exact for small self)

    self: grad / (self + 1)
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.log1p(a)

    @quiet
    def backward(self, grad, a):
        return grad / (a + 1)


class Expm1Backward0(OpNode):
    """out = self.expm1()   (exp(self) - 1, exact for small self)

    self: grad * (result + 1)
    """
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.expm1(a)

    def backward(self, grad, result):
        return grad * (result + 1)


class RsqrtBackward0(OpNode):
    """out = self.rsqrt()   (1 / sqrt(self))

    self: -0.5 * grad * result.pow(3)
    """
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return 1 / np.sqrt(a)

    def backward(self, grad, result):
        return -0.5 * grad * result ** 3


class SignBackward0(OpNode):
    """out = self.sign()   (-1, 0 or 1)

    self: zeros_like(grad)
    """
    def forward(self, a):
        return a.copy() if a.dtype.kind == "b" else np.sign(a)     # a bool tensor is its own sign

    def backward(self, grad):
        return np.zeros_like(grad)


class TanBackward0(OpNode):
    """out = self.tan()

    self: grad * (1 + result.pow(2))
    """
    saved = ("result",)
    to_float = True

    def forward(self, a):
        return kernels.tan(a)

    def backward(self, grad, result):
        return grad * (1 + result ** 2)


class Log2Backward0(OpNode):
    """out = self.log2()

    self: grad / (self * 0.6931471805599453)

    0.693... is ln 2 (M_LN2).
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.log2(a)

    @quiet
    def backward(self, grad, a):
        return grad / (a * LN2)


class Log10Backward0(OpNode):
    """out = self.log10()

    self: grad / (self * 2.3025850929940456)

    2.302... is ln 10 (M_LN10).
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.log10(a)

    @quiet
    def backward(self, grad, a):
        return grad / (a * LN10)


class Exp2Backward0(OpNode):
    """out = self.exp2()   (2 ** self)

    self: grad * result * 0.6931471805599453
    """
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.exp2(a)

    def backward(self, grad, result):
        return grad * result * LN2


class AsinBackward0(OpNode):
    """out = self.asin()

    self: grad * (-self * self + 1).rsqrt()
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.asin(a)

    @quiet
    def backward(self, grad, a):
        return grad * (1 / np.sqrt(-a * a + 1))


class AcosBackward0(OpNode):
    """out = self.acos()

    self: grad * -((-self * self + 1).rsqrt())
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.acos(a)

    @quiet
    def backward(self, grad, a):
        return grad * -(1 / np.sqrt(-a * a + 1))


class AtanBackward0(OpNode):
    """out = self.atan()

    self: grad / (self * self + 1)
    """
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return kernels.atan(a)

    def backward(self, grad, a):
        return grad / (a * a + 1)


class SinhBackward0(OpNode):
    """out = self.sinh()

    self: grad * self.cosh()
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.sinh(a)

    @quiet
    def backward(self, grad, a):
        return grad * kernels.cosh(a)


class CoshBackward0(OpNode):
    """out = self.cosh()

    self: grad * self.sinh()
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.cosh(a)

    @quiet
    def backward(self, grad, a):
        return grad * kernels.sinh(a)


class ErfBackward0(OpNode):
    """out = self.erf()   (the error function)

    self: 2.0 / math.sqrt(math.pi) * (-self.pow(2)).exp() * grad
    """
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return kernels.erf(a)

    @quiet
    def backward(self, grad, a):
        return 2.0 / math.sqrt(math.pi) * kernels.exp(-a ** 2) * grad


class _Rounding(OpNode):
    """Flat almost everywhere: the gradient is zero (PyTorch: zeros_like(grad))."""

    def backward(self, grad):
        return np.zeros_like(grad)


class FloorBackward0(_Rounding):
    """out = self.floor()

    self: zeros_like(grad)
    """
    def forward(self, a):
        no_bool_kernel(a, "floor_vml_cpu")
        return np.floor(a) if a.dtype.kind == "f" else a.copy()


class CeilBackward0(_Rounding):
    """out = self.ceil()

    self: zeros_like(grad)
    """
    def forward(self, a):
        return np.ceil(a) if a.dtype.kind == "f" else a.copy()


class RoundBackward0(_Rounding):
    """out = self.round()   (half to even, as numpy and PyTorch)

    self: zeros_like(grad)
    """
    def forward(self, a):
        return np.round(a) if a.dtype.kind == "f" else a.copy()


class TruncBackward0(_Rounding):
    """out = self.trunc()   (towards zero)

    self: zeros_like(grad)
    """
    def forward(self, a):
        return np.trunc(a) if a.dtype.kind == "f" else a.copy()


class FracBackward0(OpNode):
    """out = self.frac()   (self - self.trunc())

    self: grad
    """
    def forward(self, a):
        no_bool_kernel(a, "frac_cpu")
        return a - np.trunc(a)

    def backward(self, grad):
        return grad
