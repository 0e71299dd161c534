"""PyTorch's float32 bits, not just its values.

A float32 result that differs from PyTorch's in the last bit is invisible in
arithmetic but visible to a learner: `x.exp().log()` prints `1.0000` instead
of `1.`, and `.item()` shows the drift. What makes most of the difference
(measured in docs/float32.md, with benchmarks/float32_bits.py):

- Transcendentals (exp, tanh, pow...): PyTorch's kernels are accurate to
  about one ulp, numpy's float32 ones to a few. Computing in float64 and
  rounding once gives the correctly rounded float32, which is what PyTorch
  gives nearly always. Its log (Intel MKL's) rounds in a way of its own: `log`.
- Sums: float32 addition is not associative, so the order matters. PyTorch's
  CPU sum (aten/src/ATen/native/cpu/SumKernel.cpp, `cascade_sum`) adds in
  8-lane vectors (what the goldens show), with 4 accumulators side by side
  and a cascade of partial sums; numpy sums pairwise in another order.
  `cascade_sum` below replays PyTorch's order.
- Fused multiply-adds: where PyTorch's compiled kernels compute a * b + c
  with one rounding, so do the helpers here (through float64, where a * b
  is exact).
"""
import math

import numpy as np

from .fma_exact import _round_to_odd, _two_sum, fma64

LANES_BYTES = 32       # 8 float32 or 4 float64 lanes: what the goldens show (measured, not the CPU's 16)
ILP = 4                # row_sum's accumulators side by side (ilp_factor)
STEP = 16              # multi_row_sum's rows per level: 2**max(4, ceil(log2(rows)) // 4), 16 below GRAIN
GRAIN = 32768          # above this PyTorch splits a sum over threads: numpy's order is kept there


FLOAT32, FLOAT64, FLOAT16 = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16)   # astype(dtype) is faster than astype(type)


IN_PLACE = 4096     # from this many elements the float64 copy is worked on in place (one array fewer)


def via_float64(fn, a, *args):
    """fn computed in float64 and rounded once to a's float dtype: the
    correctly rounded result in nearly every case (float64 inputs unchanged).
    float16 too: PyTorch's CPU kernels compute it in float32 and round once,
    never in float16's own arithmetic."""
    if a.dtype != FLOAT32 and a.dtype != FLOAT16:
        return fn(a, *args)
    x = a.astype(FLOAT64)
    if a.size >= IN_PLACE and not args and type(fn) is np.ufunc:    # a large array: a new one costs more than fn
        return fn(x, out=x).astype(a.dtype)
    return fn(x, *args).astype(a.dtype)


def sigmoid(a):
    """1 / (1 + exp(-a)) as PyTorch's formula, exp rounded once (via float64);
    large arrays are worked on in place, which gives the same bits. float16
    is computed wider and rounded once, as PyTorch's float16 kernel."""
    if a.dtype == FLOAT16:
        return via_float64(lambda x: 1 / (1 + np.exp(-x)), a)
    if a.dtype != FLOAT32 or a.size < IN_PLACE:
        return 1 / (1 + via_float64(np.exp, -a))
    if not a.flags.c_contiguous or a.size <= FMA_CHUNK:
        return _sigmoid_in_place(a)
    out = np.empty(a.shape, FLOAT32)      # an activation map: a chunk at a time, as fma (the same bits)
    flat, into = a.reshape(-1), out.reshape(-1)
    for i in range(0, a.size, FMA_CHUNK):
        into[i:i + FMA_CHUNK] = _sigmoid_in_place(flat[i:i + FMA_CHUNK])
    return out


def _sigmoid_in_place(a):
    x = a.astype(FLOAT64)
    np.negative(x, out=x)
    out = np.exp(x, out=x).astype(FLOAT32)
    out += 1
    return np.divide(1, out, out=out)


def rounded_once(fn, name):
    """fn as a kernel: float32 computed in float64 and rounded once (what
    via_float64 does), one call, as fast as calling via_float64."""
    def kernel(a, *args):
        if a.dtype != FLOAT32:
            return fn(a, *args)
        return fn(a.astype(FLOAT64), *args).astype(FLOAT32)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"{name}: float32 computed in float64 and rounded once (PyTorch's bits nearly always)."
    return kernel


exp, sin, cos, tanh, tan = (rounded_once(f, n) for f, n in (
    (np.exp, "exp"), (np.sin, "sin"), (np.cos, "cos"), (np.tanh, "tanh"), (np.tan, "tan")))
log1p, expm1, log2, log10, exp2 = (rounded_once(f, n) for f, n in (
    (np.log1p, "log1p"), (np.expm1, "expm1"), (np.log2, "log2"), (np.log10, "log10"), (np.exp2, "exp2")))
asin, acos, atan, sinh, cosh = (rounded_once(f, n) for f, n in (
    (np.arcsin, "asin"), (np.arccos, "acos"), (np.arctan, "atan"), (np.sinh, "sinh"), (np.cosh, "cosh")))
asinh, acosh, atanh = (rounded_once(f, n) for f, n in ((np.arcsinh, "asinh"), (np.arccosh, "acosh"),
                                                         (np.arctanh, "atanh")))
atan2, pow = rounded_once(np.arctan2, "atan2"), rounded_once(np.power, "pow")   # noqa: A001
log_exact = rounded_once(np.log, "log_exact")       # the correctly rounded log (log below is MKL's)
# numpy has no erf, and its expm1 is not correctly rounded: math's are, in float64
erf = rounded_once(np.vectorize(math.erf, otypes=[np.float64]), "erf")
expm1_exact = rounded_once(np.vectorize(math.expm1, otypes=[np.float64]), "expm1_exact")


def pow_scalar(base, e):
    """base ** e for a number base (ATen's pow.Scalar), rounded once in e's dtype."""
    if e.dtype != FLOAT32:
        return np.power(base, e)
    return np.power(base, e.astype(FLOAT64)).astype(FLOAT32)


def log(a):
    """log as PyTorch's float32 log (Intel MKL's) rounds it: x = m * 2**e with
    m in [sqrt(1/2), sqrt(2)), log(x) = e * ln2 + log(m), where ln2 and log(m)
    are each rounded to float32 and their sum rounded once. This matches
    PyTorch's bits more often than a correctly rounded log (docs/float32.md),
    log(exp(1.)) == 1. among them."""
    if a.dtype != np.float32:
        return np.log(a)
    x = a.astype(np.float64)
    m, e = np.frexp(x)                        # m in [1/2, 1)
    e = e - (m < _SQRT_HALF)                  # so that x / 2**e is in [sqrt(1/2), sqrt(2))
    return (e * _LN2_FLOAT32 + np.log(np.ldexp(x, -e)).astype(np.float32)).astype(np.float32)


_SQRT_HALF, _LN2_FLOAT32 = np.sqrt(0.5), float(np.float32(np.log(2)))


# -- PyTorch's summation order ----------------------------------------------------------
# Every helper sums over axis 0 of x (the other axes are independent lanes,
# summed side by side exactly as a vector register does).

def _sequential(x):
    """((0 + x[0]) + x[1]) + ...: a strict left-to-right sum over axis 0."""
    if len(x) == 0:
        return np.zeros(x.shape[1:], x.dtype)
    return np.add.accumulate(x, axis=0)[-1]


def _groups(x, step):
    """Split axis 0 into full groups of step (summed one by one) and the rest."""
    n = len(x) // step * step
    full = x[:n].reshape((len(x) // step, step) + x.shape[1:])
    return np.add.accumulate(full, axis=1)[:, -1] if n else full[:, 0], x[n:]


def _multi_row_sum(x):
    """SumKernel.cpp multi_row_sum: running sums of `step` rows are moved up
    one level of accumulators (then two, three) as i passes multiples of
    step, step**2, step**3; the levels are added at the end."""
    if len(x) < STEP:   # no level is ever used
        return _sequential(x)
    level1, tail = _groups(x, STEP)
    level2, rest1 = _groups(level1, STEP)
    level3, rest2 = _groups(level2, STEP)
    return _sequential(np.stack([_sequential(tail), _sequential(rest1), _sequential(rest2), _sequential(level3)]))


def _row_sum(x):
    """SumKernel.cpp row_sum: ILP accumulators take every ILP-th row, the
    leftover rows go into the first, then the accumulators are added in order."""
    m = len(x) // ILP
    if m == 0:          # every row goes into the first accumulator
        return _sequential(x)
    partial = _multi_row_sum(x[:m * ILP].reshape((m, ILP) + x.shape[1:]))
    return _sequential(np.concatenate([partial[:1], x[m * ILP:], partial[1:]]))


# the order row_sum adds 5 to 7 elements in: x[ILP:] into the first of ILP accumulators
_SHORT_ORDER = {n: np.array([0, *range(ILP, n), *range(1, ILP)]) for n in range(ILP + 1, 2 * ILP)}
# ... and the order of n elements of which the first `lanes` fill one vector (float32: 8 lanes, float64: 4)
_ONE_VECTOR_ORDER = {(lanes, n): np.array([*range(lanes, n), *range(lanes)])
                     for lanes in (4, 8) for n in range(lanes, 2 * lanes)}


def _inner_sum(x):
    """Sum over the last axis, contiguous (vectorized_inner_sum, or
    scalar_inner_sum when a row is shorter than one vector)."""
    n, lanes = x.shape[-1], LANES_BYTES // x.itemsize
    if n < lanes:   # row_sum on fewer than 2 * ILP elements: x[ILP:] go into the first accumulator
        if n > ILP:
            x = x[..., _SHORT_ORDER[n]]
        return np.add.accumulate(x, axis=-1)[..., -1]
    if n < 2 * lanes:   # one vector, whose lanes are its elements: _vectors_sum's order, in one call
        return np.add.accumulate(x[..., _ONE_VECTOR_ORDER[lanes, n]], axis=-1)[..., -1]
    return _vectors_sum(x, lanes)


def _vectors_sum(x, lanes):
    """vectorized_inner_sum over x's last axis of at least one vector of lanes."""
    n = x.shape[-1]
    rows = np.moveaxis(x, -1, 0)
    v = n // lanes
    vectors = rows[:v * lanes].reshape((v, lanes) + rows.shape[1:])
    vec_acc = _row_sum(vectors)                          # one partial sum per lane
    # the elements after the last full vector first, then the lanes in order
    return _sequential(np.concatenate([rows[v * lanes:], vec_acc]))


def _outer_sum(x, columns):
    """Sum over axis 0 where each row holds `columns` contiguous values
    (vectorized_outer_sum, or scalar_outer_sum for fewer than one vector of
    columns): wide blocks use multi_row_sum, the remaining columns row_sum."""
    lanes = LANES_BYTES // x.itemsize
    block = ILP * lanes if columns >= lanes else ILP
    wide = columns // block * block
    if wide == columns:
        return _multi_row_sum(x)
    if wide == 0:
        return _row_sum(x)
    return np.concatenate([_multi_row_sum(x[:, :wide]), _row_sum(x[:, wide:])], axis=0)


def cascade_sum(a, axis=None, keepdims=False):
    """a.sum(axis) added in PyTorch's order (float32 and float64; other
    dtypes, several axes and sums PyTorch would split over threads keep
    numpy's sum). float16 is added in float32 and rounded once, as PyTorch
    accumulates it."""
    if a.dtype == FLOAT16:
        return np.asarray(cascade_sum(a.astype(FLOAT32), axis, keepdims)).astype(FLOAT16)
    if axis is None and a.size <= ILP:   # numpy adds so few left to right, as PyTorch does
        out = np.add.reduce(a, None, None, None, keepdims)   # a.sum(keepdims=...), without its Python wrapper
        return out if out else out + a.dtype.type(0)   # PyTorch's sum of [-0.] is 0.
    if a.dtype.kind != "f" or a.dtype.itemsize < 4 or a.size >= GRAIN or a.size == 0 or a.ndim == 0:
        return a.sum(axis=axis, keepdims=keepdims)
    if axis is None:
        out = _inner_sum(a.ravel(order="K")) + a.dtype.type(0)   # a whole-tensor sum reads memory in order
        return out.reshape((1,) * a.ndim) if keepdims else out
    if isinstance(axis, tuple):
        if len(axis) != 1:
            return a.sum(axis=axis, keepdims=keepdims)
        (axis,) = axis
    a = np.ascontiguousarray(a)
    inner = int(np.prod(a.shape[axis + 1:]))
    if inner == 1:
        out = _inner_sum(a.reshape(a.shape[:axis] + (a.shape[axis],)))
    else:   # per outer index, a (reduced, inner) block summed over its rows
        out = np.stack([_outer_sum(block, inner) for block in a.reshape((-1, a.shape[axis], inner))])
    # PyTorch adds into a zero-filled output: -0.0 comes out as 0.0
    out = out.reshape(a.shape[:axis] + a.shape[axis + 1:]) + a.dtype.type(0)
    return np.expand_dims(out, axis) if keepdims else out


def cascade_mean(a, axis=None, keepdims=False):
    """PyTorch's CPU mean: the sum, in its order, divided by the count
    (float16: in float32, rounded once)."""
    if a.dtype == FLOAT16:
        return np.asarray(cascade_mean(a.astype(FLOAT32), axis, keepdims)).astype(FLOAT16)
    if a.dtype.kind != "f" or a.dtype.itemsize < 4:
        return a.mean(axis=axis, keepdims=keepdims)
    count = a.size if axis is None else int(np.prod([a.shape[d] for d in np.atleast_1d(axis)]))
    return cascade_sum(a, axis, keepdims) / a.dtype.type(count)


def vec_sum_lastdim(e):
    """e.sum(-1) in the order of ATen's vec::reduce_all and map_reduce_all,
    which softmax and log_softmax over the last dim use: a vector of 64
    bytes (16 float32 lanes; this build runs its AVX-512 kernels there)
    accumulates e[:16], e[16:32], ...; the tail adds into the first lanes;
    the lanes then add pairwise, halves first (i + 8, i + 4, i + 2, i + 1).
    A row shorter than the vector is added left to right."""
    lanes, n = 64 // e.itemsize, e.shape[-1]
    if e.dtype.kind != "f" or n == 0:
        return e.sum(axis=-1)
    if n < lanes:
        return np.cumsum(e, axis=-1)[..., -1]           # cumsum adds left to right
    full = n - n % lanes
    acc = np.add.reduce(e[..., :full].reshape(e.shape[:-1] + (full // lanes, lanes)), axis=-2)   # chunk by chunk
    if full < n:
        k = n - full
        acc = np.concatenate([acc[..., :k] + e[..., full:], acc[..., k:]], axis=-1)
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]

def loss_cascade_sum(terms, keep):
    """The sum of a batch's loss terms in the order of ATen's nll_loss kernel:
    8 levels of partial sums; each term goes into level 0, and at every row
    b that is a multiple of 2**p (p = max(4, ceil(log2(batch)) // 8)) level 0
    is added into level 1, at multiples of 2**(2p) level 1 into level 2, and
    so on; the levels are added last, in order. Rows not kept (ignore_index)
    are skipped, their row's flush too."""
    zero, n, everyone = terms.dtype.type(0), len(terms), keep.all()
    if not everyone:
        terms = np.where(keep, terms, -zero)        # adding -0.0 changes nothing, not even a -0.0
    power = max(4, (n - 1).bit_length() // 8)       # (n - 1).bit_length(): ceil(log2(n))
    step, mask = 1 << power, (1 << power) - 1
    flushes = [b for b in range(0, n, step) if keep[b]]
    # level 0 at each flush: the rows since the last one, added left to right from 0
    # (cumsum; + 0 turns an all -0.0 sum into PyTorch's 0.0)
    if everyone and n:      # the usual case: whole segments, summed in one call
        k = len(flushes) - 1
        sums = [terms[0] + zero, *(np.cumsum(terms[1:1 + k * step].reshape(k, step), axis=1)[:, -1] + zero)]
    else:
        ends = [-1] + flushes
        sums = [np.cumsum(terms[a + 1:b + 1])[-1] + zero for a, b in zip(ends, flushes)]
    levels = [zero] * 8
    for b, level0 in zip(flushes, sums):
        levels[0] = level0
        for j in range(7):
            if b & (mask << (j * power)):
                break
            levels[j + 1], levels[j] = levels[j + 1] + levels[j], zero
    rest = terms[flushes[-1] + 1 if flushes else 0:]
    levels[0] = levels[0] + (np.cumsum(rest)[-1] + zero if rest.size else zero)
    total = zero
    for level in levels:
        total = total + level
    return total

# -- PyTorch's formulas where numpy would round differently ----------------------------

def one_minus_square(r):
    """1 - r * r rounded once: PyTorch's compiled kernels (tanh_backward) fuse
    it into one multiply-add."""
    if r.dtype != np.float32:
        return 1 - r * r
    r = r.astype(np.float64)
    return (1 - r * r).astype(np.float32)


def sub_product(c, a, b):
    """c - a * b rounded once: PyTorch's vectorized x - y * s is compiled into
    one fused multiply-add (log_softmax's backward). float64: as written."""
    if c.dtype != np.float32:
        return c - a * b
    return fma(-a, b, c)

def add_scaled(a, alpha, b):
    """a + alpha * b rounded once: PyTorch's add/sub kernels with an alpha
    are one fused multiply-add (alpha rounded to the dtype first), as
    `param.add_(grad, alpha=-lr)` in every optimizer. Past FUSED_UP_TO
    elements (a large weight's update) numpy's a + alpha * b, rounded twice:
    the exact fma costs ten times that, and a gradient that large came from a
    BLAS product whose last bits are not PyTorch's anyway (docs/float32.md)."""
    dtype = np.result_type(a, b)
    if dtype != FLOAT64 and dtype != FLOAT32:
        return a + alpha * b
    if max(np.size(a), np.size(b)) > FUSED_UP_TO:
        return a + dtype.type(alpha) * b
    if dtype == FLOAT64:
        return fma64(b, np.float64(alpha), a)
    return fma(b, np.float32(alpha), a)


FUSED_UP_TO = 1 << 16


def power(a, exponent):
    """a ** exponent (a number) as PyTorch computes it: the exponents it
    special-cases (pow_tensor_scalar_optimized_kernel) by multiplication,
    division or sqrt, the others correctly rounded."""
    if a.dtype.kind != "f":
        return a ** exponent
    if exponent == 2:
        return a * a
    if exponent == 3:
        return a * a * a
    if exponent == 0.5:
        return np.sqrt(a)
    if exponent == -0.5:
        return 1 / np.sqrt(a)
    if exponent == -1:
        return 1 / a
    if exponent == -2:
        return 1 / (a * a)
    return via_float64(np.power, a, float(a.dtype.type(exponent)))


def norm2(a, axis=None, keepdims=False):
    """sqrt of the sum of squares in PyTorch's order (ReduceOpsKernel.cpp,
    the p=2 norm over the last dim): 8 lanes of x*x, the lanes added in
    turn, then the leftover elements, of which all but the last n % 4 are
    added as b + x*x and those as one fused multiply-add (as its compiler
    left them, measured). float32 over all elements or the last dim only."""
    last = axis is not None and tuple(np.atleast_1d(axis)) in ((a.ndim - 1,), (-1,))
    if a.dtype != np.float32 or a.size == 0 or a.size >= GRAIN or not (axis is None or last):
        return np.sqrt((a * a).sum(axis=axis, keepdims=keepdims))
    rows = a.reshape(-1, a.shape[-1]) if last else a.ravel(order="K")[None]
    n, lanes = rows.shape[1], 8
    v = n // lanes * lanes
    body = rows[:, :v].reshape(len(rows), -1, lanes)
    acc = _sequential(np.moveaxis(body * body, 1, 0))        # per lane, over the vectors
    b = _sequential(np.moveaxis(acc, 1, 0))
    fused = v + (n - v) // 4 * 4
    for k in range(v, n):
        x = rows[:, k]
        if k < fused:
            b = b + x * x
        else:   # fma(x, x, b): exact in float64, then one rounding
            b = (b.astype(np.float64) + x.astype(np.float64) ** 2).astype(np.float32)
    out = np.sqrt(b)
    if last:
        out = out.reshape(a.shape[:-1] + ((1,) if keepdims else ()))
    else:
        out = out.reshape((1,) * a.ndim if keepdims else ())
    return out


# -- SLEEF's expf, as PyTorch's vectorised kernels call it -------------------------------

def fma(a, b, c):
    """round(a * b + c) once, as a CPU's fused multiply-add, for float32 a, b
    and c: their product is exact in float64 (24 + 24 bits), so the sum rounds
    once there and once more to float32. That second rounding goes wrong only
    when the first landed exactly halfway between two float32 (or below
    float32's normal range): those few are redone with a round-to-odd float64
    sum, which then rounds correctly (random.fma32 explains it). Large arrays
    are worked on in chunks (an optimizer's update of a whole weight)."""
    size = getattr(a, "size", 1)
    if size > 2 * FMA_CHUNK and all(np.ndim(v) == 0 or v.shape == a.shape for v in (b, c)):
        flat = [v.reshape(-1) if np.ndim(v) else v for v in (a, b, c)]
        out = np.empty(size, FLOAT32)
        for i in range(0, size, FMA_CHUNK):
            out[i:i + FMA_CHUNK] = _fma(*(v[i:i + FMA_CHUNK] if np.ndim(v) else v for v in flat))
        return out.reshape(a.shape)
    return _fma(a, b, c)


# Elements per pass of a large fma: its float64 sums stay in the cache, and
# no temporary is so large that the C library maps it afresh from the system
# on every call (a 1.6 MB one cost more in page faults than the sum itself).
FMA_CHUNK = 1 << 16


def _fma(a, b, c):
    s = np.multiply(a, b, dtype=FLOAT64)
    if type(s) is not np.ndarray:              # 0-d inputs give a scalar
        s = np.asarray(s)
    if s.shape == getattr(c, "shape", s.shape):
        s += c
    else:
        s = np.add(s, c, dtype=FLOAT64)
    out = s.astype(FLOAT32)
    redo = np.abs(out) < _TINY
    if np.count_nonzero(redo):      # an exact 0 (softmax's shifted maximum, a zero gradient) rounds right
        redo &= s != 0
    low = s.view(np.int64)
    low &= _DROPPED_BITS                       # (s is not needed any more)
    redo |= low == _HALFWAY
    if np.count_nonzero(redo):
        a, b, c = np.broadcast_arrays(*(np.asarray(v, FLOAT32) for v in (a, b, c)))
        out[redo] = _round_to_odd(*_two_sum(a[redo].astype(FLOAT64) * b[redo], c[redo].astype(FLOAT64)))
    return out if out.ndim else out[()]


_DROPPED_BITS, _HALFWAY = np.int64(0x1FFFFFFF), np.int64(0x10000000)   # float64's 29 bits below float32's
_TINY = np.float32(2.0 ** -125)


def _expf_polynomial(s):
    """SLEEF's polynomial in s, one fused multiply-add per coefficient:
    the fma chain of _expf_polynomial_fused, with its check for a sum that
    rounds twice done once at the end. No step's sum can be tiny here (each
    adds a coefficient of at least 2e-4 to a product whose last bit is far
    above 2**-125), so only a sum that lands halfway between two float32
    can round wrong, and those elements are redone step by step."""
    s64 = s.astype(FLOAT64)
    u = np.full_like(s, _EXPF_POLY[0])
    halfway = np.zeros(s.shape, bool)
    for c in _EXPF_POLY[1:]:
        t = u.astype(FLOAT64)
        t *= s64                                  # exact: 24 + 24 bits
        t += np.float64(np.float32(c))
        u = t.astype(FLOAT32)
        low = t.view(np.int64)
        low &= _DROPPED_BITS
        halfway |= low == _HALFWAY
    if np.count_nonzero(halfway):
        u[halfway] = _expf_polynomial_fused(s[halfway])
    return u


def _expf_polynomial_fused(s):
    u = np.full_like(s, _EXPF_POLY[0])
    for c in _EXPF_POLY[1:]:
        u = fma(u, s, np.float32(c))
    return u


_EXPF_POLY = (0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
              0.0416664853692054748535156, 0.166666671633720397949219, 0.5)


@np.errstate(over="ignore", invalid="ignore")   # inf and nan pass through, as in PyTorch
def sleef_exp(d):
    """exp as SLEEF's expf_u10 computes it (Vectorized<float>::exp, used by
    PyTorch's log_softmax backward): exp(d) = 2**q * exp(s), q = rint(d / ln 2),
    s = d - q * ln 2 in two fused steps, exp(s) by a polynomial. Within one
    ulp of the true value, but not always the correctly rounded one, so
    computing in float64 gives a different last bit now and then.
    float64 arrays: np.exp."""
    if d.dtype != np.float32:
        return np.exp(d)
    f32 = np.float32
    q = np.rint(d * f32(1.4426950408889634))
    s = fma(q, f32(-0.693145751953125), d)
    s = fma(q, f32(-1.428606765330187045e-06), s)
    u = f32(1) + fma(s * s, _expf_polynomial(s), s)
    out = np.ldexp(u, np.clip(np.nan_to_num(q), -200, 200).astype(np.int32)).astype(np.float32)
    return np.where(d < f32(-104), f32(0), np.where(d > f32(88.72283935546875), f32(np.inf), out))
