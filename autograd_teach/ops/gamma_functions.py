"""lgamma, digamma and polygamma: log|Gamma(x)| and its derivatives, as
Multinomial.log_prob (log n! = lgamma(n + 1)) calls them.

Each derivative is the next function of the family: lgamma' = digamma,
digamma' = polygamma(1, .), polygamma(n, .)' = polygamma(n + 1, .), so every
order of derivative is an op here. numpy has none of them. digamma and
trigamma run PyTorch's own CPU algorithms (calc_digamma, calc_trigamma in
aten/src/ATen/native/Math.h) in the input's dtype, as PyTorch does, so a
float32 result mostly has PyTorch's bits; polygamma(n >= 2) is Cephes'
Hurwitz zeta, PyTorch's too, in float64. lgamma is the Python math module's,
in float64, rounded once: libm's lgammaf/lgamma round a little differently
(docs/float32.md gives the shares of identical bits).
"""
import math

import numpy as np

from ..core.node import OpNode, quiet

_PSI_10 = 2.25175258906672110764                   # digamma(10)
_PSI_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
          -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
          8.33333333333333333333E-2)
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)


def lgamma(input):
    """torch.lgamma(input): log|Gamma(input)|; inf at 0 and the negative integers."""
    return LgammaBackward0.apply(input)


def digamma(input):
    """torch.digamma(input): d/dx lgamma(x); -inf at 0, nan at the negative integers."""
    return DigammaBackward0.apply(input)


def polygamma(n, input):
    """torch.polygamma(n, input): the n-th derivative of digamma."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return PolygammaBackward0.apply(input, n)


def _lgamma_scalar(x):
    try:
        return math.lgamma(x)
    except ValueError:                               # a pole: 0 or a negative integer
        return math.inf


_LGAMMA = np.vectorize(_lgamma_scalar, otypes=[np.float64])


def _digamma(x):
    """calc_digamma, in x's own dtype as PyTorch's kernel (the reflection's
    pi / tan(pi r) in float64): reflection below 0, recurrence up to 10, then
    the asymptotic series."""
    x0 = x
    one, negative = x.dtype.type(1), x < 0
    shift = np.where(negative, np.pi / np.tan(np.pi * np.fmod(x.astype(np.float64), 1.0)), 0.0).astype(x.dtype)
    x = np.where(negative, 1 - x, x)
    result = np.zeros_like(x)
    for _ in range(10):                              # every x > 0 reaches 10 in 10 steps
        small = x < 10
        result = np.where(small, result - one / np.where(small, x, one), result)
        x = np.where(small, x + 1, x)
    z = one / (x * x)
    y = np.full_like(x, _PSI_A[0])
    for a in _PSI_A[1:]:
        y = y * z + x.dtype.type(a)
    y = np.where(x < 1.0e17, z * y, 0)
    tail = np.where(x == 10, result + x.dtype.type(_PSI_10), result + np.log(x) - x.dtype.type(0.5) / x - y)
    out = tail - shift
    out = np.where(negative & (x0 == np.trunc(x0)), np.nan, out)        # the poles left of 0
    return np.where(x0 == 0, np.copysign(np.inf, -x0), out).astype(x0.dtype)


def _trigamma(x):
    """calc_trigamma, in x's own dtype as PyTorch's kernel: reflection below
    1/2, six recurrence steps, then the asymptotic series."""
    pi = x.dtype.type(np.pi)
    low = x < 0.5
    sin_pi_x = np.sin(pi * x)
    result = np.where(low, -(pi * pi) / (sin_pi_x * sin_pi_x), x.dtype.type(0))
    x = np.where(low, 1 - x, x)
    for _ in range(6):
        result = result + 1 / (x * x)
        x = x + 1
    ixx = 1 / (x * x)
    sixth, thirtieth, fortysecond = (x.dtype.type(1 / d) for d in (6, 30, 42))
    result = result + (1 + 1 / (2 * x) + ixx * (sixth - ixx * (thirtieth - ixx * fortysecond))) / x
    return np.where(low, -result, result)


def _zeta(s, q):
    """Cephes' Hurwitz zeta(s, q) = sum over k >= 0 of (q + k)^-s, for one q."""
    q = np.float64(q)                                # overflows to inf, as in C, where Python's float raises
    if q <= 0 and q == np.floor(q):
        return np.inf
    total, a, b, i = q ** -s, q, 0.0, 0
    while i < 9 or a <= 9.0:                         # direct sum until the tail's terms are small
        i, a = i + 1, a + 1.0
        b = a ** -s
        total += b
        if -1.11022302462515654042E-16 * total < b < 1.11022302462515654042E-16 * total:
            return total
    w, k, a = a, 0.0, 1.0
    total += b * w / (s - 1.0) - 0.5 * b             # Euler-Maclaurin for the tail
    for coefficient in _ZETA_A:
        a *= s + k
        b /= w
        t = a * b / coefficient
        total += t
        if abs(t / total) < 1.11022302462515654042E-16:
            return total
        k += 1.0
        a *= s + k
        b /= w
        k += 1.0
    return total


def _polygamma64(n, x):
    if n == 0:
        return _digamma(np.asarray(x))
    if n == 1:
        return _trigamma(x)
    scale = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0))
    with np.errstate(all="ignore"):
        return scale * np.vectorize(lambda q: _zeta(n + 1.0, q), otypes=[np.float64])(x)


class LgammaBackward0(OpNode):
    """out = self.lgamma()   (log |Gamma(self)|)

    self: grad * digamma(self)
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return _LGAMMA(a.astype(np.float64)).astype(a.dtype)

    @quiet
    def backward(self, grad, a):
        return grad * _digamma(a).astype(grad.dtype)


class DigammaBackward0(OpNode):
    """out = self.digamma()   (d/dx log Gamma(self))

    self: grad * polygamma(1, self)
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return _digamma(a).astype(a.dtype)

    @quiet
    def backward(self, grad, a):
        return grad * _trigamma(a).astype(grad.dtype)


class PolygammaBackward0(OpNode):
    """out = torch.polygamma(n, self)   (the n-th derivative of digamma)

    self: grad * polygamma(n + 1, self)
    """
    saved = ("self",)
    attrs = ("n",)
    to_float = True

    @quiet
    def forward(self, a, n):
        self.n = n
        return _polygamma64(n, a).astype(a.dtype)

    @quiet
    def backward(self, grad, a):
        return grad * _polygamma64(self.n + 1, a).astype(grad.dtype)


TENSOR_METHODS = {"lgamma": lgamma, "digamma": digamma,
                  "polygamma": lambda self, n: polygamma(n, self)}
