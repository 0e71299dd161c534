"""Matrix products summed in PyTorch's order, for small inner dimensions.

For a float32 product with a small output, PyTorch's CPU kernel adds the K
products of each element one after another, left to right, each rounded (no
fused multiply-add); numpy's BLAS blocks and fuses them, so the last bit
differs now and then, and a training loop carries that difference along
until it shows in print (d2l 3.2's estimation error did). So we add in
PyTorch's order, for K up to 512 (measured that far). For an output of at
least 4 rows and 12 columns (an MLP's hidden layers) PyTorch hands the
product to its BLAS, which fuses the multiply-adds as numpy's product does,
bit for bit (measured for K up to 128; above that, and for K > 512, numpy's
product is used as is, not always PyTorch's bits). Measured against torch
2.13 on x86-64."""
import numpy as np

try:    # np.einsum(..., optimize=False) is exactly this call behind numpy's array-function
    from numpy._core.multiarray import c_einsum        # dispatch, which costs more than a
except ImportError:    # numpy < 2                       2x2 product itself (same code, same bits)
    from numpy.core.multiarray import c_einsum

SMALL_K = 512
BLAS_ROWS, BLAS_COLS = 4, 12    # from this output size on, PyTorch's small-K loop gives way to BLAS (measured)
FLOAT32 = np.dtype(np.float32)   # a dtype compares with a dtype faster than with a type


def mm(a, b):
    """a @ b for 2-D a and 2-D (or 1-D) b."""
    k = a.shape[-1]
    if a.dtype != FLOAT32 or k > SMALL_K or k <= 1:    # one product per element: nothing to order
        return a @ b
    if a.shape[0] >= BLAS_ROWS and b.ndim == 2 and b.shape[1] >= BLAS_COLS:
        return a @ b
    if k <= 3:
        # einsum's loop adds in this order for any layout when K <= 3 (checked);
        # for longer K it switches to pairwise sums on contiguous rows
        # order="C": a row-major result, as PyTorch's mm (x.contiguous() reads the layout)
        return c_einsum("ik,k->i" if b.ndim == 1 else "ik,kj->ij", a, b, order="C")
    if b.ndim == 2 and b.shape[1] >= 2:
        return _products_summed_in_order(a, b)
    vec = b.ndim == 1
    if vec:
        b = b[:, None]
    acc = a[:, 0:1] * b[0:1, :]
    for i in range(1, k):
        acc = acc + a[:, i:i + 1] * b[i:i + 1, :]
    return acc[:, 0] if vec else acc


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
