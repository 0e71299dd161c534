"""prod, var and std: reductions whose derivative needs the input back."""
import numpy as np

from .. import dtypes
from ..function import Function, quiet
from .reduction import _expand_back, normalize_dims


def _prod_grad(a, axis):
    """d prod / d a_i = product of the others; computed without dividing, so
    zeros in the input are handled (PyTorch does the same)."""
    a = np.moveaxis(a, axis, -1)
    ones = np.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    before = np.cumprod(np.concatenate([ones, a[..., :-1]], axis=-1), axis=-1)
    after = np.flip(np.cumprod(np.flip(np.concatenate([a[..., 1:], ones], axis=-1), -1), axis=-1), -1)
    return np.moveaxis(before * after, -1, axis)


class ProdBackward0(Function):
    """out = self.prod()

    self: grad * (product of all other elements)"""
    saved = ("self", "result")

    def forward(self, a):
        return a.prod()

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    def backward(self, grad, a, result):
        return grad * _prod_grad(a.reshape(-1), 0).reshape(a.shape)


class ProdBackward1(Function):
    """out = self.prod(dim, keepdim)

    self: grad.unsqueeze(dim) * (product of the other elements along dim)"""
    saved = ("self", "result")
    attrs = ("dim", "keepdim")

    def forward(self, a, dim, keepdim=False):
        (self.dim,) = normalize_dims(dim, a.ndim)
        self.keepdim = keepdim
        return a.prod(axis=self.dim if a.ndim else None, keepdims=keepdim)

    out_dtype = ProdBackward0.out_dtype

    def backward(self, grad, a, result):
        if a.ndim == 0:
            return grad
        return _expand_back(grad, a.shape, (self.dim,), self.keepdim) * _prod_grad(a, self.dim)


class VarBackward0(Function):
    """out = ((self - self.mean(dim, True)) ** 2).sum(dim) / (N - correction)

    self: grad * 2 * (self - self.mean(dim, True)) / (N - correction)"""
    saved = ("self",)
    attrs = ("correction", "dim", "keepdim")
    to_float = True

    @quiet
    def forward(self, a, dim=None, correction=1, keepdim=False):
        if a.dtype.kind != "f":
            raise RuntimeError(f"std and var only support floating point and complex dtypes")
        self.dim = None if dim is None else normalize_dims(dim, a.ndim)
        self.correction, self.keepdim = correction, keepdim
        axis = self.dim if a.ndim else None
        n = a.size if axis is None else int(np.prod([a.shape[d] for d in axis]))
        self._n = n
        centered = a - a.mean(axis=axis, keepdims=True)
        return (centered * centered).sum(axis=axis, keepdims=keepdim) / max(n - correction, 0)

    @quiet
    def backward(self, grad, a):
        axis = self.dim if a.ndim else None
        if axis is not None:
            grad = _expand_back(grad, a.shape, axis, self.keepdim)
        centered = a - a.mean(axis=axis, keepdims=True)
        return grad * 2 * centered / max(self._n - self.correction, 0)


class StdBackward0(VarBackward0):
    """out = self.var(dim, correction, keepdim).sqrt()

    self: grad * (self - self.mean(dim, True)) / ((N - correction) * result)"""
    saved = ("self", "result")

    @quiet
    def forward(self, a, dim=None, correction=1, keepdim=False):
        return np.sqrt(super().forward(a, dim, correction, keepdim))

    @quiet
    def backward(self, grad, a, result):
        axis = self.dim if a.ndim else None
        if axis is not None:
            grad = _expand_back(grad, a.shape, axis, self.keepdim)
            result = _expand_back(result, a.shape, axis, self.keepdim)
        centered = a - a.mean(axis=axis, keepdims=True)
        return grad * centered / (max(self._n - self.correction, 0) * result)
