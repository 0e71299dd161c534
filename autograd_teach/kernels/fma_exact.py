"""Fused multiply-add: what PyTorch's compiled kernels compute for x * a + b,
one rounding instead of two. numpy has no fma; these emulate the instruction
exactly, in float32 and in float64 (arange, linspace, the random normal
kernels and the optimizers' updates use them)."""
import numpy as np


def _two_sum(a, b):
    """s, e with s = fl(a + b) and s + e == a + b exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _round_to_odd(s, e):
    """Round s + e (exact value, s = fl(s + e)) to odd instead of to nearest:
    when inexact and s's last bit is even, step one ulp toward e.  Rounding a
    round-to-odd result again to fewer bits rounds correctly (Boldo and
    Melquiond, 'Emulation of FMA and correctly rounded sums', 2008)."""
    s, e = np.asarray(s), np.asarray(e)
    even = (s.view(np.int64) & 1) == 0
    fix = (e != 0) & even
    return np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def fma32(a, b, c):
    """float32 fma(a, b, c).  a*b is exact in float64 (24+24 bits), so only
    the sum rounds twice: to float64, then to float32.  That can go wrong
    only when the float64 sum lands exactly halfway between two float32s
    (or is tiny); those few are redone with a round-to-odd float64 sum,
    which then rounds to float32 correctly."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    p = a * b
    s = np.asarray(p + c)
    out = s.astype(np.float32)
    halfway = (s.view(np.int64) & 0x1FFFFFFF) == 0x10000000
    redo = halfway | (np.abs(s) < 2.0**-125)
    if redo.any():
        p, c = np.broadcast_arrays(p, c)
        out[redo] = _round_to_odd(*_two_sum(p[redo], c[redo])).astype(np.float32)
    return out


def _split(a):
    t = 134217729.0 * a          # 2**27 + 1 (Veltkamp splitting)
    hi = t - (t - a)
    return hi, a - hi


def fma64(a, b, c):
    """float64 fma(a, b, c), emulated exactly: a*b = ph + pl exactly
    (Dekker), c + ph = sh + sl exactly, then sh + round_to_odd(sl + pl)."""
    if np.ndim(b) == 0 and np.ndim(c) == 0 and b == 1 and c == 0:
        return np.asarray(a, np.float64) + 0.0     # a*1 + 0 is exact: skip the work
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    ph = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl
    sh, sl = _two_sum(c, ph)
    v = _round_to_odd(*_two_sum(sl, pl))
    return sh + v


def fma(a, b, c):
    """a * b + c rounded once, in a's precision: what PyTorch's CPU kernels
    compute for `c.add_(a, alpha=b)` and for lerp."""
    if a.dtype == np.float64:
        return fma64(a, b, c)
    return fma32(a, b, c).astype(a.dtype)
