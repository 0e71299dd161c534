"""erfinv: the inverse of erf on (-1, 1), as Normal.icdf calls it.

PyTorch's x86 builds compute it with MKL's vector erfinv, whose bits cannot
be reproduced here. We run PyTorch's portable algorithm (calc_erfinv in
aten/src/ATen/native/Math.h: a rational first guess with ASA 241's
coefficients, then two Newton steps on erf(x) - y) in float64, with the C
library's erf (through math), and round once for float32: that is MKL's
float32 result for all but about 2 in 10,000 inputs (a last-bit difference);
float64 results agree with it to a few ulp (tens of ulp as |y| nears 1,
where erfinv is ill-conditioned).
"""
import math

import numpy as np

from ..core.node import OpNode, quiet

_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_D = (3.543889200, 1.637067800)
_ERF = np.vectorize(math.erf, otypes=[np.float64])


def erfinv(input):
    """torch.erfinv(input): x with erf(x) = input; +-inf at +-1, nan beyond."""
    return ErfinvBackward0.apply(input)


def _first_guess(y):
    with np.errstate(divide="ignore", invalid="ignore"):
        z = y * y
        central = y * (((_A[3] * z + _A[2]) * z + _A[1]) * z + _A[0]) / (
            (((_B[3] * z + _B[2]) * z + _B[1]) * z + _B[0]) * z + 1.0)
        w = np.sqrt(-np.log((1.0 - np.abs(y)) / 2.0))
        tail = np.copysign(((_C[3] * w + _C[2]) * w + _C[1]) * w + _C[0], y) / ((_D[1] * w + _D[0]) * w + 1.0)
    return np.where(np.abs(y) <= 0.7, central, tail)


def _erfinv64(y):
    x = _first_guess(y)
    inner = np.abs(y) < 1
    for _ in range(2):                                 # Newton: x -= (erf(x) - y) / erf'(x)
        step = (_ERF(np.where(inner, x, 0.0)) - y) / ((2.0 / math.sqrt(math.pi)) * np.exp(-x * x))
        x = np.where(inner, x - step, x)
    x = np.where(np.abs(y) == 1, np.copysign(np.inf, y), x)
    return np.where(np.abs(y) > 1, np.nan, x)


class ErfinvBackward0(OpNode):
    """out = self.erfinv()   (the inverse error function)

    self: 0.5 * math.sqrt(math.pi) * (erfinv(self).pow(2)).exp() * grad
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return _erfinv64(a.astype(np.float64)).astype(a.dtype)

    @quiet
    def backward(self, grad, a):
        return 0.5 * math.sqrt(math.pi) * np.exp(self.forward(a) ** 2) * grad
