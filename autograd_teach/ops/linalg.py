"""Products: dot (1-D . 1-D), mv (2-D @ 1-D), mm (2-D @ 2-D), and batched
matmul. `x @ y` picks one of them by the inputs' dimensions, as PyTorch does."""
import numpy as np

from ..function import Function


class DotBackward0(Function):
    inputs = ("self", "tensor")
    saved = ("self", "tensor")

    def forward(self, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.shape[0] != b.shape[0]:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] "
                               f"to have the same number of elements, but got {a.shape[0]} and {b.shape[0]} "
                               "elements respectively")
        return np.dot(a, b)

    def backward(self, grad, a, b):
        return grad * b, grad * a


class MvBackward0(Function):
    inputs = ("self", "vec")
    saved = ("self", "vec")

    def forward(self, m, v):
        if m.ndim != 2 or v.ndim != 1 or m.shape[1] != v.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({m.shape[0]}), mat "
                               f"({'x'.join(map(str, m.shape))}), vec ({v.shape[0]})")
        return m @ v

    def backward(self, grad, m, v):
        return np.outer(grad, v), m.T @ grad


class MmBackward0(Function):
    inputs = ("self", "mat2")
    saved = ("self", "mat2")

    def forward(self, a, b):
        if a.ndim != 2:
            raise RuntimeError("self must be a matrix")
        if b.ndim != 2:
            raise RuntimeError("mat2 must be a matrix")
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} "
                               f"and {b.shape[0]}x{b.shape[1]})")
        return a @ b

    def backward(self, grad, a, b):
        return grad @ b.T, a.T @ grad


class BmmBackward0(Function):
    """Batched matmul (3-D and up; 1-D operands are unsqueezed first), batch
    dims broadcast. PyTorch wraps this in view/expand nodes; here it is one node."""
    inputs = ("self", "mat2")
    saved = ("self", "mat2")

    def forward(self, a, b):
        try:
            return np.matmul(a, b)
        except ValueError:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"{list(a.shape[:-2]) + [a.shape[-1]]} but got: {list(b.shape[:-1])}.") from None

    def backward(self, grad, a, b):
        return grad @ np.swapaxes(b, -1, -2), np.swapaxes(a, -1, -2) @ grad
