"""Matrix products summed in PyTorch's order, whatever BLAS numpy runs on.

numpy's float32 product is OpenBLAS's, whose kernel (chosen by the CPU, or
by OPENBLAS_CORETYPE) decides the order of each element's K multiply-adds:
the last bit differs from one machine to the next, and a training loop
carries that difference along until it shows in print. So up to a size
(REPLAY_WORK multiply-adds) the order is ours, the one PyTorch 2.13's CPU
kernels use (measured against torch 2.13 on x86-64 with MKL):

- a small output (fewer than 4 rows or 12 columns): PyTorch's own loop adds
  the K products of each element left to right from +0, each rounded, no
  fused multiply-add (measured for K up to 512; kept above); float64's too
  (replayed for K <= 2; longer ones are numpy's);
- K = 1: an outer product, each element its one product (-0.0 kept), except
  for one row or one column, added to +0 as above;
- from 4 x 12 on, MKL's gemm: one fused multiply-add after another, k = 0,
  1, ..., in blocks of 192 whose sums are then added (exact for 4, 8 and 12
  or more rows; not for 5-7 and 9-11 rows, nor for 193 < K < 384, where
  MKL's order was not found and this one is kept anyway: the same on every
  machine). Each fused step is replayed exactly through float64 (float32.fma).

Larger products (more than REPLAY_WORK multiply-adds or MAX_STEPS of K),
and float64 ones past K = 2, are numpy's: fast, and their last bits depend on the BLAS
kernel (docs/float32.md)."""
import numpy as np

from .fma_exact import fma32
from .float32 import cascade_sum
from .masks import sets_no_flag

try:    # np.einsum(..., optimize=False) is exactly this call behind numpy's array-function
    from numpy._core.multiarray import c_einsum        # dispatch, which costs more than a
except ImportError:    # numpy < 2                       2x2 product itself (same code, same bits)
    from numpy.core.multiarray import c_einsum

MAX_STEPS = 4096                # K replayed step by step; above, numpy's BLAS
DROPPED_BITS, HALFWAY = np.int64((1 << 29) - 1), np.int64(1 << 28)   # float64's bits below float32's last
BLAS_ROWS, BLAS_COLS = 4, 12    # from this output size on, PyTorch's small-K loop gives way to BLAS (measured)
MKL_BLOCK = 192                 # MKL's gemm adds K in blocks of this many fused multiply-adds (measured)
REPLAY_WORK = 1 << 16           # multiply-adds replayed in our order (about 50x BLAS's time); above, numpy's BLAS
FLOAT32 = np.dtype(np.float32)   # a dtype compares with a dtype faster than with a type
FLOAT64 = np.dtype(np.float64)


def _einsum_is_silent():
    """Does this numpy's einsum leave the floating-point flags alone on a tiny product's
    overflow, inf * 0 and NaN (a @ b warns of each)? numpy 2.4's checks none, so that
    ops/fast_paths.py may call it without switching numpy's warnings off; another may."""
    a, b = np.array([[3e38, np.inf], [1e-45, np.nan]], np.float32), np.array([[3e38, 0], [np.inf, -np.inf]], np.float32)
    return sets_no_flag(lambda a: c_einsum("ik,kj->ij", a, b, order="C"), [a, a.T])


EINSUM_IS_SILENT = _einsum_is_silent()


def mm(a, b):
    """a @ b for 2-D a and 2-D (or 1-D) b."""
    if a.ndim == 2 == b.ndim:    # tiny ones first: K <= 3 (float64: K <= 2) below 4 x 12, or K = 1
        (m, k), n = a.shape, b.shape[1]
        if k <= 3 and (m < BLAS_ROWS or n < BLAS_COLS or k == 1) and (a.dtype == FLOAT32 or a.dtype == FLOAT64
                                                                      and k <= 2):
            if k == 1 and m > 1 and n > 1:    # PyTorch: an outer product, one product an element (-0.0 stays)
                return np.multiply(a, b, order="C")
            # PyTorch's own loop: from +0, the products rounded and added left to right.
            # einsum's float32 loop adds in this order for any layout when K <= 3 (checked;
            # for longer K, and float64's K = 3, it switches to pairwise sums on contiguous
            # rows; two products sum alike in any order). order="C": row-major, as PyTorch's mm
            return c_einsum("ik,kj->ij", a, b, order="C")
    k = a.shape[-1]
    if a.dtype != FLOAT32 or k <= 1:    # one product per element: nothing to order
        return a @ b
    vec = b.ndim == 1
    if vec:
        b = b[:, None]
    m, n = a.shape[-2], b.shape[-1]
    if m >= BLAS_ROWS and n >= BLAS_COLS:      # MKL's gemm in PyTorch: replayed up to a size
        out = fused_blocks(a, b) if multiply_adds(a, b) <= REPLAY_WORK and k <= MAX_STEPS else np.matmul(a, b)
    elif k <= 3 and a.ndim == 2 and b.ndim == 2:     # matrix @ vector: einsum's loop, as above
        out = c_einsum("ik,kj->ij", a, b, order="C")
    elif a.ndim == 2 and b.ndim == 2 and n >= 2 and (b.flags.c_contiguous or multiply_adds(a, b) <= REPLAY_WORK):
        # PyTorch's loop, at any size for a row-major b; a transposed b (F.linear's
        # weight.t()) takes another kernel in PyTorch, whose order was not found:
        # past REPLAY_WORK it is BLAS's, ten times faster and no further from PyTorch's
        out = _products_summed_in_order(a, b)
    elif k > MAX_STEPS or multiply_adds(a, b) > REPLAY_WORK:
        out = np.matmul(a, b)
    else:
        out = a[..., 0:1] * b[..., 0:1, :]
        for i in range(1, k):
            out = out + a[..., i:i + 1] * b[..., i:i + 1, :]
    if not out.flags.c_contiguous:    # PyTorch's mm is row-major whatever its operands' layouts (x.stride() shows it)
        out = np.ascontiguousarray(out)
    return out[..., 0] if vec else out


def mm_backward(grad, a, b):
    """MmBackward0's gradients: grad @ b.T and a.T @ grad, each None where b
    (or a) is None (MmBackward0 saves b only for a's gradient, a only for b's).
    When both are tiny (K = 2 or 3 each: a 2x2 or 3x3 grad), one einsum each,
    the transposes in its subscripts: mm's loop and bits, without a view and
    mm's dispatch to pay for."""
    m, n = grad.shape
    if 1 < m <= 3 and 1 < n <= 3 and ((dtype := grad.dtype) is FLOAT32 or dtype is FLOAT64 and m == n == 2):
        return (None if b is None else c_einsum("ij,kj->ik", grad, b, order="C"),
                None if a is None else c_einsum("ki,kj->ij", a, grad, order="C"))
    return (None if b is None else mm(grad, b.T)), (None if a is None else mm(a.T, grad))


def multiply_adds(a, b):
    """How many multiply-adds a @ b takes (batch dims broadcast). Worked out
    only where mm needs it: numpy's shape helpers cost more than a 2x2 product."""
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if a.ndim == 2 and b.ndim == 2:
        return m * k * n
    return int(np.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))) * m * k * n


matmul = mm    # batched operands too (bmm, conv): each matrix in mm's order


def fused_blocks(a, b):
    """a @ b (float32, batched or not) as MKL's gemm: fused multiply-adds
    in blocks of MKL_BLOCK, the blocks' sums added left to right."""
    out = None
    for start in range(0, a.shape[-1], MKL_BLOCK):
        part = fused_sum(a[..., start:start + MKL_BLOCK], b[..., start:start + MKL_BLOCK, :])
        out = part if out is None else out + part
    return out


def fused_sum(a, b):
    """Each element of a @ b as fused multiply-adds, k = 0, 1, ...: the
    running sum is rounded to float32 once per step, as an FMA rounds it.
    The products are exact in float64; each step's sum is rounded there
    and then to float32, and if any step could round differently twice
    than once (rare), all are replayed exactly."""
    steps = np.multiply(np.swapaxes(a, -1, -2)[..., :, :, None].astype(np.float64),
                        b[..., :, None, :].astype(np.float64))       # (..., k, m, n): step k's product
    acc = np.zeros(steps.shape[:-3] + steps.shape[-2:], np.float32)
    for i in range(steps.shape[-3]):
        s = steps[..., i, :, :]
        s += acc                       # step i's sum, kept in steps for the check below
        acc = s.astype(np.float32)
    # rounding twice went wrong only where a step's float64 sum fell exactly
    # halfway between two float32, or below float32's normal range
    with np.errstate(invalid="ignore"):
        suspect = ((steps.view(np.int64) & DROPPED_BITS) == HALFWAY) | (np.abs(steps) < 2.0 ** -125)
    if suspect.any():
        acc = np.float32(0)
        for i in range(a.shape[-1]):      # each step an exact fma (fma_exact.fma32: round to odd)
            acc = fma32(a[..., :, i:i + 1], b[..., i:i + 1, :], acc)
    return acc


BLOCK = 1 << 20    # products held at once: rows are taken in blocks of about this many


def _products_summed_in_order(a, b):
    """The same sums as the loop in mm, left to right, without a Python step
    per k: all products of a block of rows, (rows, K, N), then numpy's
    reduction over K, which adds one K after another for each element (a
    reduction over an axis that is not the innermost is not pairwise; N >= 2
    keeps it so). It starts from +0, as PyTorch's kernel does: products that
    are all -0.0 sum to 0.0 (the loop gave -0.0)."""
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    rows = max(1, BLOCK // (k * n))
    if m <= rows:
        return np.add.reduce(a[:, :, None] * b[None, :, :], axis=1)
    out = np.empty((m, n), np.result_type(a, b))
    for start in range(0, m, rows):
        out[start:start + rows] = np.add.reduce(a[start:start + rows, :, None] * b[None, :, :], axis=1)
    return out


LANES = 8    # float32 lanes of the vector dot product below


def addmm_product(a, b):
    """mat1 @ mat2 inside addmm (what F.linear records), for float32.

    For an output of at most 3 columns and K of 8 or 16, PyTorch's addmm
    computes each element as a vector dot product: 8 lanes, each adding its
    products (products k, k + 8, ...), then the lanes added pairwise (4 + 4,
    2 + 2, 1 + 1). Measured against torch 2.13 on x86-64 (a classifier's last
    layer); any other shape is mm's order."""
    k = a.shape[-1]
    if a.dtype != np.float32 or b.ndim != 2 or b.shape[1] > 3 or k not in (8, 16):
        return mm(a, b)
    products = a[:, :, None] * b[None, :, :]          # (m, k, n), each rounded
    lanes = products[:, :LANES]
    for start in range(LANES, k, LANES):
        lanes = lanes + products[:, start:start + LANES]
    while lanes.shape[1] > 1:
        half = lanes.shape[1] // 2
        lanes = lanes[:, :half] + lanes[:, half:]
    return lanes[:, 0]


def dot(a, b):
    """a . b for 1-D float32 a and b: the products added in PyTorch's sum
    order (cascade_sum), the same on every machine. PyTorch's dot is MKL's,
    whose order was not found (docs/float32.md); numpy's is OpenBLAS's,
    which changes with the CPU."""
    if a.dtype != FLOAT32 or a.shape[0] > REPLAY_WORK:
        return np.dot(a, b)
    return cascade_sum(a * b)
