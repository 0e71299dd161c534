"""torch.matmul: dot, mv or mm by the operands' dims; when an operand has 3
or more dims, composed as PyTorch 2.13 composes it (aten/src/ATen/native/LinearAlgebra.cpp, _matmul_impl), so the
graph shows the same nodes:

* a 3-D operand with a batch of one that requires grad, against a batch
  of more, is first squeezed to a matrix;
* fold: when the larger operand's batch dims can be folded into its rows
  without a copy, or the smaller operand requires grad, one mm (or mv) on
  the folded operand, under UnsafeViewBackward0 (for a 2-D @ batched
  product, on the transposes, then transposed back and made contiguous);
* otherwise: both operands expanded to the broadcast batch, reshaped to
  3-D, one bmm, under UnsafeViewBackward0.

Only the composition lives here; each node's derivative is its own op's.
"""
import numpy as np

from ..node import check_broadcast
from .products import BmmBackward0, MmBackward0
from .reshape import UnsafeViewBackward0
from .shape import SqueezeBackward4


def matmul(self, other):
    """torch.matmul: picks dot / mv / mm / batched matmul by dimensions."""
    a, b = self._data.ndim, other._data.ndim
    if a == 2 and b == 2:    # the usual case first (self.mm(other), one call less)
        return MmBackward0.apply(self, other)
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return self.dot(other)
    if a == 2 and b == 1:
        return self.mv(other)
    if a == 1 and b == 2:   # PyTorch: unsqueeze, mm, squeeze
        return SqueezeBackward4.apply(self.unsqueeze(0).mm(other), (0,))
    return matmul_nd(self, other)   # a batched operand: PyTorch's fold or expand + bmm


def matmul_nd(t1, t2):
    """t1 @ t2 for t1.dim() >= 3 or t2.dim() >= 3."""
    if t1.dim() == 3 and t2.dim() == 3:
        # PyTorch: a batch of one that requires grad, against a real batch,
        # is squeezed to a matrix first (then folding makes its gradient one mm)
        if t1.shape[0] == 1 and t2.shape[0] != 1 and t1.requires_grad:
            t1 = t1.squeeze(0)
        elif t2.shape[0] == 1 and t1.shape[0] != 1 and t2.requires_grad:
            t2 = t2.squeeze(0)
    d1, d2 = t1.dim(), t2.dim()
    if _should_fold(t1, t2):
        transpose = d2 > d1
        a = t2.transpose(-2, -1) if transpose else t1
        b = (t1.t() if d1 == 2 else t1) if transpose else t2
        out_shape = tuple(a.shape[:-1])
        if b.dim() == 2:
            out_shape += (b.shape[1],)
        folded = a.reshape(int(np.prod(a.shape[:-1])), a.shape[-1])
        if b.dim() == 2:
            out = UnsafeViewBackward0.apply(folded.mm(b), out_shape)
            return out.transpose(-2, -1).contiguous() if transpose else out
        return UnsafeViewBackward0.apply(folded.mv(b), out_shape)
    n = t1.shape[-2] if d1 > 1 else 1
    m1 = t1.shape[-1]
    batch1 = tuple(t1.shape[:-2]) if d1 > 1 else ()
    m2 = t2.shape[-2] if d2 > 1 else t2.shape[0]
    p = t2.shape[-1] if d2 > 1 else 1
    batch2 = tuple(t2.shape[:-2]) if d2 > 1 else ()
    check_broadcast(batch1, batch2)
    batch = tuple(np.broadcast_shapes(batch1, batch2))
    count = int(np.prod(batch))
    lhs = t1.expand(*batch, n, m1).reshape(count, n, m1)
    vector_rhs = d2 == 1
    rhs = t2.expand(*batch, m2) if vector_rhs else t2.expand(*batch, m2, p)
    rhs = rhs.reshape(count, m2).unsqueeze(2) if vector_rhs else rhs.reshape(count, m2, p)
    out_shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    out = BmmBackward0.apply(lhs, rhs)
    return UnsafeViewBackward0.apply(out.squeeze(-1) if vector_rhs else out, out_shape)


def _should_fold(t1, t2):
    """PyTorch's should_fold: fold the larger operand into a matrix when that
    needs no copy, or always when the smaller one requires grad (so that its
    gradient is one mm, not a sum over a broadcast batch)."""
    larger_first = t1.dim() >= t2.dim()
    big = t1 if larger_first else t2
    small = t2 if larger_first else t1
    if not (big.dim() >= 3 and small.dim() <= 2):
        return False
    if small.requires_grad:
        return True
    if t1.dim() == 2:
        return False
    if big.numel() == 0:
        return True
    shape, strides = list(big.shape), list(big._data.strides)
    if not larger_first:   # the folded operand is t2's transpose
        shape[-2:], strides[-2:] = shape[:-3:-1], strides[:-3:-1]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))
