"""GELU, x * Phi(x) with Phi the standard normal CDF, or its tanh
approximation; and its backward as an op of its own, so that it can be
differentiated again (PyTorch's GeluBackwardBackward0).

Like PyTorch's CPU kernel, the exact GELU is computed in the tensor's dtype
(float32 for float16) with the C library's erf, as PyTorch's scalar path
does: float64 results and single float32 values match PyTorch's bit for bit.
Not matched: PyTorch runs float32 tensors of several elements through a
vectorized polynomial erf, a few float32 ulps off, whose error shows after
the cancellation in 1 + erf: from |x| near 3 on, a printed value can differ
in its 4th decimal (gelu of [-3., 3.] prints -0.0041 and 2.9959 there,
-0.0040 and 2.9960 here, as PyTorch prints for one-element tensors).
The tanh form is computed in float64 and rounded."""
import math

import numpy as np

from ..core.node import OpNode

_SQRT1_2 = math.sqrt(0.5)
_PDF = 1 / math.sqrt(2 * math.pi)         # PyTorch's kBeta for 'none': M_2_SQRTPI * M_SQRT1_2 * 0.5
_TANH_BETA = math.sqrt(2 / math.pi)       # kBeta for 'tanh': M_SQRT2 * M_2_SQRTPI * 0.5
_KAPPA = 0.044715
_erf64 = np.vectorize(math.erf, otypes=[np.float64])


def _in_float64(fn, a, *args):
    return fn(np.asarray(a, np.float64), *args).astype(np.result_type(a))


def _erf(x):
    """erf in x's dtype: the C library's, rounded (PyTorch evaluates it in
    the tensor's dtype, so float32 keeps float32's cancellation in 1 + erf)."""
    return _erf64(x.astype(np.float64)).astype(x.dtype)


def _work(a):
    """The dtype PyTorch computes in: float32 for float16 and float32."""
    return a.astype(np.float64 if a.dtype == np.float64 else np.float32)


def _gelu(x, approximate):
    if approximate == "tanh":
        return _in_float64(_gelu_tanh, x)
    w = _work(x)
    t = w.dtype.type
    with np.errstate(invalid="ignore"):
        out = w * t(0.5) * (t(1) + _erf(w * t(_SQRT1_2)))     # -inf * 0: nan, as in PyTorch
    if x.dtype == np.float32 and x.size > 1:    # PyTorch's vectorized float32 path also gives nan for +inf
        out = np.where(w == np.inf, np.nan, out)
    return out.astype(x.dtype)


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(_TANH_BETA * (x + _KAPPA * x ** 3)))


def _gelu_grad(x, approximate):
    """d gelu / dx: Phi(x) + x * phi(x) (GeluBackward's kernel, in x's
    dtype); for 'tanh' the product rule on 0.5 * x * (1 + tanh(inner))."""
    if approximate == "tanh":
        return _in_float64(_gelu_tanh_grad, x)
    w = _work(x)
    t = w.dtype.type
    cdf = t(0.5) * (t(1) + _erf(w * t(_SQRT1_2)))
    pdf = t(_PDF) * np.exp(w * w * t(-0.5))
    return (cdf + w * pdf).astype(x.dtype)


def _gelu_tanh_grad(x):
    t = np.tanh(_TANH_BETA * (x + _KAPPA * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_BETA * (1 + 3 * _KAPPA * x * x)


def _gelu_grad2(x, approximate):
    """d^2 gelu / dx^2: 2 phi(x) - x^2 phi(x); for 'tanh' the product rule
    once more (PyTorch's gelu_double_backward, FunctionsManual.cpp)."""
    if approximate == "tanh":
        t = np.tanh(_TANH_BETA * (x + _KAPPA * x ** 3))
        g, h = 1 - t * t, _TANH_BETA * (1 + 3 * _KAPPA * x * x)
        return g * h - x * h * h * g * t + 0.5 * x * g * 6 * _KAPPA * x * _TANH_BETA
    pdf = _PDF * np.exp(-0.5 * x * x)
    return 2 * pdf - x * x * pdf


class GeluBackward0(OpNode):
    """out = gelu(self, approximate)

    self: gelu_backward(grad, self, approximate)
    """
    saved = ("self",)
    attrs = ("approximate",)

    def forward(self, a, approximate="none"):
        self.approximate = approximate
        return _gelu(a, approximate)

    def backward(self, grad, a):
        return grad * _gelu_grad(a, self.approximate)


class GeluBackwardBackward0(OpNode):
    """out = gelu_backward(grad_output, self, approximate) = grad_output * gelu'(self)

    grad_output: gelu_backward(grad, self, approximate)
    self: gelu_double_backward(grad, grad_output, self, approximate)

    GeluBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "self")
    elementwise = True
    saved = ("grad_output", "self")
    attrs = ("approximate",)

    def forward(self, g, a, approximate="none"):
        self.approximate = approximate
        return g * _gelu_grad(a, approximate)

    def backward(self, grad, g, a):
        return (grad * _gelu_grad(a, self.approximate),
                grad * g * _in_float64(_gelu_grad2, a, self.approximate))


# -- the functions the rules call --------------------------------------------------

def gelu_backward(grad_output, self, approximate):
    """grad_output * gelu'(self), recorded as one op."""
    return GeluBackwardBackward0.apply(grad_output, self, approximate)


def gelu_double_backward(ggI, gO, input, approximate):
    """PyTorch's gelu_double_backward: ggI * gO * gelu''(input), built from
    ops (so a third derivative goes through them)."""
    if approximate == "tanh":
        inner = (input + input.pow(3) * _KAPPA) * _TANH_BETA
        t = inner.tanh()
        g = 1 - t * t
        h = (1 + input * input * (3 * _KAPPA)) * _TANH_BETA
        f = input * 0.5
        d2 = g * h - f * h * h * g * t * 2 + f * g * input * (6 * _KAPPA * _TANH_BETA)
        return ggI * gO * d2
    input_sq = input * input
    pdf = (input_sq * -0.5).exp() * _PDF
    return ggI * gO * (pdf * 2 - input_sq * pdf)
