"""log256_ps and sincos256_ps of PyTorch's native/cpu/avx_mathfun.h (Cephes
polynomials in float32), which its AVX2 normal_fill_16 kernel calls: the
float32 randn of 16 or more elements. Each fma32 below is a multiply-add that
the compiler fused in PyTorch's binary."""
import numpy as np

from .fma_exact import fma32

_F = np.float32
_LOG_P = [_F(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1,
                          -1.2420140846E-1, 1.4249322787E-1, -1.6668057665E-1,
                          2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1)]


def log256_ps(x):
    """log for x in (0, 1]: x = m * 2**e with m in [0.5, 1), polynomial in m."""
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _F(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)      # mantissa, [0.5, 1)
    small = m < _F(0.707106781186547524)                           # then use 2m, e-1
    e = e - np.where(small, _F(1), _F(0))
    m = (m - _F(1)) + np.where(small, m, _F(0))
    z = m * m
    y = _LOG_P[0]
    for p in _LOG_P[1:]:
        y = fma32(y, m, p)
    y = y * m
    y = fma32(y, z, e * _F(-2.12194440e-4))
    y = fma32(-z, _F(0.5), y)
    return fma32(e, _F(0.693359375), m + y)


def sincos256_ps(x):
    """sin and cos for x >= 0: reduce by multiples of pi/4 (in three parts
    for precision), then one polynomial for sin and one for cos."""
    j = (x * _F(1.27323954473516)).astype(np.int32)     # x * 4/pi, truncated
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    x = fma32(y, _F(-0.78515625), x)
    x = fma32(y, _F(-2.4187564849853515625e-4), x)
    x = fma32(y, _F(-3.77489497744594108e-8), x)
    z = x * x
    c = fma32(_F(2.443315711809948E-005), z, _F(-1.388731625493765E-003))
    c = fma32(c, z, _F(4.166664568298827E-002))
    c = fma32(z, c * z, -(z * _F(0.5))) + _F(1)
    s = fma32(_F(-1.9515295891E-4), z, _F(8.3321608736E-3))
    s = fma32(s, z, _F(-1.6666654611E-1))
    s = fma32(x, z * s, x)
    use_s = (j & 2) == 0           # which polynomial is the sine
    zero = _F(0)
    s_part, c_part = np.where(use_s, s, zero), np.where(use_s, zero, c)
    sin = s_part + c_part
    cos = (s - s_part) + (c - c_part)
    sin = np.where((j & 4) != 0, -sin, sin)
    cos = np.where((~(j - 2) & 4) != 0, -cos, cos)
    return sin, cos
