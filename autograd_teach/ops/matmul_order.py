"""Matrix products summed in PyTorch's order, for small inner dimensions.

For a float32 product with a short inner dimension K, PyTorch's CPU kernel
adds the K products one after another, left to right, each rounded (no fused
multiply-add); numpy's BLAS blocks and fuses them, so the last bit differs
now and then, and a training loop carries that difference along until it
shows in print. For K <= 16 we add in PyTorch's order (K numpy operations);
beyond that PyTorch switches to blocked kernels of its own, and numpy's
product is used as is. Measured against torch 2.13 on x86-64 (AVX2)."""
import numpy as np

SMALL_K = 16


def mm(a, b):
    """a @ b for 2-D a and 2-D (or 1-D) b."""
    k = a.shape[-1]
    if a.dtype != np.float32 or k > SMALL_K or k == 0:
        return a @ b
    vec = b.ndim == 1
    if vec:
        b = b[:, None]
    acc = a[:, 0:1] * b[0:1, :]
    for i in range(1, k):
        acc = acc + a[:, i:i + 1] * b[i:i + 1, :]
    return acc[:, 0] if vec else acc
