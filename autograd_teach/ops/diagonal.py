"""The diagonal of a matrix and back: diagonal (a view), diag, diag_embed,
trace. Backward puts the gradient on the diagonal of zeros (or, for
diag_embed, takes it off the diagonal)."""
import numpy as np

from ..core.node import OpNode
from ..core.ops.shape import check_dim


def _diagonal_view(a, offset, dim1, dim2):
    """a writable view of a's diagonal (numpy's a.diagonal() is read-only),
    moved to the last dim, as PyTorch's diagonal does."""
    moved = np.moveaxis(a, (dim1, dim2), (-2, -1))
    rows, cols = moved.shape[-2:]
    n = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    start = moved[..., max(-offset, 0):, max(offset, 0):] if n else moved[..., :0, :0]
    strides = start.strides[:-2] + (start.strides[-2] + start.strides[-1],)
    return np.lib.stride_tricks.as_strided(start, start.shape[:-2] + (n,), strides)


def _dims(a, dim1, dim2):
    d1, d2 = check_dim(dim1, a.ndim), check_dim(dim2, a.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal_backward(grad, input_sizes, offset, dim1, dim2):
    """grad put on the diagonal of zeros of the input's shape (an op of its own)."""
    return DiagonalBackwardBackward0.apply(grad, tuple(input_sizes), offset, dim1, dim2)


def trace_backward(grad, self_sym_sizes):
    """trace: grad on every element of the main diagonal."""
    n = min(self_sym_sizes)
    return diagonal_backward(grad.expand((n,)), self_sym_sizes, 0, 0, 1)


class DiagonalBackward0(OpNode):
    """out = self.diagonal(offset, dim1, dim2)   (a view)

    self: diagonal_backward(grad, self_sym_sizes, offset, dim1, dim2)
    """
    attrs = ("self_sym_sizes", "offset", "dim1", "dim2")
    is_view = True

    def forward(self, a, offset=0, dim1=0, dim2=1):
        self.dim1, self.dim2 = _dims(a, dim1, dim2)
        self.self_sym_sizes, self.offset = a.shape, offset
        return _diagonal_view(a, offset, self.dim1, self.dim2)

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        _diagonal_view(out, self.offset, self.dim1, self.dim2)[...] = grad
        return out


class DiagonalBackward0_copy(DiagonalBackward0):   # noqa: N801 - PyTorch's name
    """out = self.diag(diagonal)   (of a matrix: its diagonal, as a copy)

    self: diagonal_backward(grad, self_sym_sizes, offset, dim1, dim2)

    torch.diag of a matrix is diagonal_copy in PyTorch, hence the name.
    """
    is_view = False

    def forward(self, a, offset=0, dim1=0, dim2=1):
        return DiagonalBackward0.forward(self, a, offset, dim1, dim2).copy()


class DiagonalBackwardBackward0(OpNode):
    """out = diagonal_backward(grad_output, input_sizes, offset, dim1, dim2)   (grad_output on a diagonal of zeros)

    grad_output: grad.diagonal(offset, dim1, dim2)

    DiagonalBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output",)
    attrs = ("input_sizes", "offset", "dim1", "dim2")

    def forward(self, g, input_sizes, offset, dim1, dim2):
        self.input_sizes, self.offset, self.dim1, self.dim2 = input_sizes, offset, dim1, dim2
        out = np.zeros(input_sizes, dtype=g.dtype)
        _diagonal_view(out, offset, dim1, dim2)[...] = g
        return out

    def backward(self, grad):
        return _diagonal_view(grad, self.offset, self.dim1, self.dim2).copy()


class DiagEmbedBackward0(OpNode):
    """out = torch.diag_embed(self, offset, dim1, dim2)   (self's last dim on a diagonal of zeros)

    self: grad.diagonal(offset, dim1, dim2)

    torch.diag of a vector is this, with dim1=0, dim2=1.
    """
    attrs = ("offset", "dim1", "dim2")

    def forward(self, a, offset=0, dim1=-2, dim2=-1):
        n = a.shape[-1] + abs(offset) if a.ndim else 0
        out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
        self.dim1, self.dim2 = _dims(out, dim1, dim2)
        self.offset = offset
        out = np.moveaxis(out, (-2, -1), (self.dim1, self.dim2))
        _diagonal_view(out, offset, self.dim1, self.dim2)[...] = a
        return out

    def backward(self, grad):
        return _diagonal_view(grad, self.offset, self.dim1, self.dim2).copy()


class TraceBackward0(OpNode):
    """out = self.trace()   (the sum of the main diagonal of a matrix)

    self: trace_backward(grad, self_sym_sizes)
    """
    attrs = ("self_sym_sizes",)

    def forward(self, a):
        if a.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
        self.self_sym_sizes = a.shape
        return np.asarray(np.trace(a), dtype=a.dtype if a.dtype.kind == "f" else np.int64)

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        np.fill_diagonal(out, grad)
        return out
