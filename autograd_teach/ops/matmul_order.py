"""Matrix products summed in PyTorch's order, for small inner dimensions.

For a float32 product with a short inner dimension K, PyTorch's CPU kernel
adds the K products one after another, left to right, each rounded (no fused
multiply-add); numpy's BLAS blocks and fuses them, so the last bit differs
now and then, and a training loop carries that difference along until it
shows in print (d2l 3.2's estimation error did). For K <= 16 we add in
PyTorch's order; beyond that PyTorch switches to blocked kernels of its own,
and numpy's product is used as is. Measured against torch 2.13 on x86-64."""
import numpy as np

SMALL_K = 16


def mm(a, b):
    """a @ b for 2-D a and 2-D (or 1-D) b."""
    k = a.shape[-1]
    if a.dtype != np.float32 or k > SMALL_K or k <= 1:    # one product per element: nothing to order
        return a @ b
    if k <= 3:
        # einsum's loop adds in this order for any layout when K <= 3 (checked);
        # for longer K it switches to pairwise sums on contiguous rows
        # order="C": a row-major result, as PyTorch's mm (x.contiguous() reads the layout)
        return np.einsum("ik,k->i" if b.ndim == 1 else "ik,kj->ij", a, b, order="C")
    vec = b.ndim == 1
    if vec:
        b = b[:, None]
    acc = a[:, 0:1] * b[0:1, :]
    for i in range(1, k):
        acc = acc + a[:, i:i + 1] * b[i:i + 1, :]
    return acc[:, 0] if vec else acc
