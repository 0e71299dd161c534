"""relu and its gradient (threshold_backward) on whole activation maps.

np.where(a < 0, 0, a) gives PyTorch's bits (relu(-0.0) is -0.0, relu(NaN)
the same NaN, the gradient is 0.0 and never -0.0), but it costs four
ufunc calls' time on a few elements, and on a large map numpy's where runs
at a few nanoseconds an element when the mask changes from one element to
the next, as an activation's does.

relu: np.maximum is one ufunc call, but which of two equal or unordered
operands it returns is not numpy's promise: it is its loops'. On x86 the
float32 and float64 loops, in C and in every SIMD width, are the maxps
instruction, which returns its second operand when the two compare equal
or one is NaN: np.maximum(0, a) is relu there, -0.0 and NaN kept. float16's
loop is plain C that keeps the first: np.maximum(a, 0). ARM's fmax puts -0.0
below +0.0, so neither order is relu there. So each dtype takes the first
of the two that gives np.where's bits on every special value, at every
length up to a few SIMD vectors (the loops' scalar tail, vector body and
strided paths), checked once per dtype; if neither does, np.where.

threshold_backward: a comparison, then a select. np.where selects on a few
hundred elements (its iterator's setup is most of its cost); on a few dozen, a
copy of the gradient (its bits, signaling NaNs too) with +0.0 put where the
mask is set (np.copyto's where=, a lighter loop) costs less, most of all when
the mask is all one value. On large maps, keeping an element or zeroing it is
an AND of its bits with a word of all ones or all zeros: the same bits, -0.0
and NaN kept, about six times faster on a 256 x 256 map."""
import functools

import numpy as np
from numpy import less_equal   # (3.11 cannot specialize np.<name>: numpy's module has a __getattr__)

COPY_UP_TO = 48        # elements up to which a copy and np.copyto are cheaper than np.where (measured)
BITS_FROM = 1024       # elements from which the AND is cheaper than np.where (measured)
MAXIMUM_UP_TO = 1 << 14   # and from which it is cheaper than np.maximum with a 0-d zero (measured)
_WORDS = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32, np.dtype(np.float64): np.int64}

np_where = getattr(np.where, "_implementation", np.where)   # without the __array_function__ dispatch
np_copyto = getattr(np.copyto, "_implementation", np.copyto)


def _zero(dtype):
    """0 as a 0-d array of dtype: the same result as the number 0 in np.where
    and comparisons, which numpy then need not convert (about 1 us less per call)."""
    zero = np.zeros((), dtype)
    zero.flags.writeable = False
    return zero


# {dtype: its 0-d zero} and {dtype: relu for its small arrays}, filled when a dtype is
# first met. Plain dicts: Python 3.11 specializes [] on an exact dict only (a subclass
# with __missing__ costs 0.05 us a lookup, a tenth of a relu on 4 floats).
ZERO, RELU = {}, {}


def zero_of(dtype):
    dtype = np.dtype(dtype)
    if dtype not in ZERO:
        ZERO[dtype] = _zero(dtype)
    return ZERO[dtype]


def relu(a):
    """a where a is not below 0 (so -0.0 and NaN stay), else +0.0."""
    dtype = a.dtype
    if a.size >= MAXIMUM_UP_TO and dtype in _WORDS:
        return where_relu(a)
    try:
        f = RELU[dtype]
    except KeyError:
        f = RELU[dtype] = relu_for(dtype)
    return f(a)


def where_relu(a):
    """relu by np.where, or by the bits on a large float map."""
    zero = zero_of(a.dtype)
    if a.size < BITS_FROM or a.dtype not in _WORDS:
        return np_where(a < zero, zero, a)
    return _zero_where(np.less(a, zero), a)


def threshold_backward(grad, result, threshold=0):
    """grad where result > threshold or is NaN, else +0.0 (PyTorch's threshold_backward)."""
    try:
        zero = ZERO[grad.dtype]
    except KeyError:
        zero = zero_of(grad.dtype)
    drop = less_equal(result, threshold or zero)   # (0 as a 0-d array: numpy need not convert it)
    size = grad.size
    if size < COPY_UP_TO:
        out = grad.copy("K")
        try:
            np_copyto(out, zero, where=drop)
            return out
        except ValueError:     # result broadcast to more than grad's shape: np.where's shape
            pass
    if size < BITS_FROM or grad.dtype not in _WORDS or grad.shape != result.shape:
        return np_where(drop, zero, grad)
    return _zero_where(drop, grad)


def _zero_where(cond, x):
    """x's bits, and +0.0 where cond: x AND (cond - 1), all zeros or all ones."""
    words = _WORDS[x.dtype]
    mask = cond.astype(words)
    mask -= 1
    return np.bitwise_and(x.view(words), mask, out=mask).view(x.dtype)


def relu_for(dtype):
    """relu for arrays of dtype (floats: below MAXIMUM_UP_TO elements): np.maximum with 0
    first or second, the first of the two with where_relu's bits on every probe, else where_relu.
    If neither it nor where_relu's comparison sets a floating-point flag on any probe, dtype
    joins relu.silent: a caller need not switch numpy's warnings off around relu of it."""
    zero, arrays = zero_of(dtype), probes(dtype)
    candidates = (functools.partial(np.maximum, zero), lambda a: np.maximum(a, zero))
    f = first_exact(candidates, where_relu, arrays)
    if sets_no_flag(f, arrays) and sets_no_flag(lambda a: np.less(a, zero), arrays):
        relu.silent.add(dtype)
    return f


relu.silent = set()    # the dtypes seen so far whose relu sets no floating-point flag (so numpy cannot warn)


def sets_no_flag(f, arrays):
    """Does f leave the floating-point flags alone on every array? (numpy warns of a flag set.)"""
    try:
        with np.errstate(all="raise"):
            for a in arrays:
                f(a)
    except FloatingPointError:
        return False
    return True


def first_exact(candidates, reference, arrays):
    """The first candidate giving reference's bits (dtype and shape too) on all arrays, else reference."""
    with np.errstate(all="ignore"):     # (a signaling NaN compared may raise the invalid flag)
        expected = [np.asarray(reference(a)) for a in arrays]
        for f in candidates:
            if all(same_bits(np.asarray(f(a)), e) for a, e in zip(arrays, expected)):
                return f
    return reference


def same_bits(x, y):
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def probes(dtype):
    """Arrays of dtype holding its special values at every length up to 80
    (past numpy's widest unrolled SIMD loop), at two alignments, strided,
    reversed, transposed and 0-d."""
    dtype = np.dtype(dtype)
    values = np.array([0, 1, -1, 2, -3], np.int8).astype(dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        more = [-0.0, np.inf, -np.inf, info.smallest_subnormal, -info.smallest_subnormal, info.max, -info.max]
        values = np.concatenate([values, np.array(more, dtype), nans(dtype)])
    long = np.resize(values, 2 * 80 + 1)
    return [long[:n] for n in range(81)] + [long[1:n] for n in range(81)] + [np.array(v) for v in values] + \
        [long[::2], long[::-3], long.reshape(7, 23).T, long[::-1][5:50]]


def nans(dtype):
    """NaNs of both signs, quiet and signaling, with payloads (plain NaNs for long double)."""
    if dtype not in _WORDS:
        return np.array([np.nan, -np.nan], dtype)
    words = _WORDS[dtype]
    nan, sign = np.array(np.nan, dtype).view(words), words(-1) << (dtype.itemsize * 8 - 1)
    signaling = (nan ^ (words(1) << (np.finfo(dtype).nmant - 1))) | 1
    return np.array([nan, nan | sign, nan | 1, signaling, signaling | sign], words).view(dtype)
