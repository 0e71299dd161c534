"""prod, var and std: reductions whose derivative needs the input back."""
import numpy as np

from ..compat import dtypes
from ..core.node import OpNode, quiet
from ..core.ops.join import StackBackward0
from ..core.ops.reduction import _expand_back, normalize_dims


def _prod_grad(a, axis):
    """d prod / d a_i = product of the others; computed without dividing, so
    zeros in the input are handled (PyTorch does the same)."""
    a = np.moveaxis(a, axis, -1)
    ones = np.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    before = np.cumprod(np.concatenate([ones, a[..., :-1]], axis=-1), axis=-1)
    after = np.flip(np.cumprod(np.flip(np.concatenate([a[..., 1:], ones], axis=-1), -1), axis=-1), -1)
    return np.moveaxis(before * after, -1, axis)


class ProdBackward0(OpNode):
    """out = self.prod()

    self: grad * prod_others(self)

    prod_others: the product of the other elements at each position, as
    Tensor ops (result / self where no element is zero).
    """
    saved = ("self", "result")

    def forward(self, a):
        return a.prod()

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    def backward(self, grad, a, result):
        return grad * _prod_grad(a.reshape(-1), 0).reshape(a.shape)


class ProdBackward1(OpNode):
    """out = self.prod(dim, keepdim)

    self: unsqueeze_to(grad, dim, keepdim) * prod_others(self, dim)

    prod_others: the product of the other elements along dim at each position.
    """
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


class VarBackward0(OpNode):
    """out = ((self - self.mean(dim, True)) ** 2).sum(dim) / (N - correction)

    self: var_backward(grad, self, dim, correction, keepdim)

    var_backward: grad * 2 * (self - self.mean(dim, True)) / (N - correction),
    N the number of elements reduced, grad unsqueezed back over dim.
    """
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

    self: var_backward(grad / (2 * result), self, dim, correction, keepdim)

    The derivative of sqrt(var) is var's over 2 * std (PyTorch's std_backward).
    """
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


class CumsumBackward0(OpNode):
    """out = self.cumsum(dim)

    self: grad.sum(dim, True) - grad.cumsum(dim) + grad

    The sums of grad from each position to the end (PyTorch: grad.flip(dim).cumsum(dim).flip(dim)).
    """
    attrs = ("dim",)

    def forward(self, a, dim):
        (self.dim,) = normalize_dims(dim, a.ndim)
        return np.cumsum(a, axis=self.dim) if a.ndim else a.copy()

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    def backward(self, grad):
        if grad.ndim == 0:
            return grad
        return np.flip(np.cumsum(np.flip(grad, self.dim), axis=self.dim), self.dim)



class CumprodBackward0(OpNode):
    """out = self.cumprod(dim)   (running products along dim)

    self: cumprod_backward(grad, self, dim, result)

    d out_j / d self_k is the product of self_0..self_j without self_k, for
    j >= k. Before the first zero z of a row that is out_j / self_k; at z it
    is the product before z times the running product after it; past z it is
    0 (PyTorch's cumprod_backward splits it the same way, in O(n)).
    PyTorch's helper also reads the result, so the node saves it: changing
    the output in place makes backward refuse.
    """
    saved = ("self", "result")
    attrs = ("dim",)

    def forward(self, a, dim):
        (self.dim,) = normalize_dims(dim, a.ndim)
        return np.cumprod(a, axis=self.dim) if a.ndim else a.copy()

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    def backward(self, grad, a, result):
        if a.ndim == 0:
            return grad
        x, g = np.moveaxis(a, self.dim, -1), np.moveaxis(grad, self.dim, -1)
        if x.shape[-1] == 0:
            return grad
        return np.moveaxis(_cumprod_grad(x, g), -1, self.dim)


def _cumprod_grad(x, g):
    """CumprodBackward0's gradient along the last axis, in O(n) per row."""
    n = x.shape[-1]
    pos = np.arange(n)
    zero = x == 0
    first = np.where(zero.any(-1), zero.argmax(-1), n)[..., None]      # the first zero of each row (n: none)
    out = np.cumprod(x, axis=-1)
    before = pos < first
    tail = np.flip(np.cumsum(np.flip(np.where(before, g * out, 0), -1), axis=-1), -1)   # sum over k <= j < first
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(before, tail / np.where(before, x, 1), 0)
    # at the first zero: the product before it times the running product after it
    prefix = np.take_along_axis(out, np.maximum(first - 1, 0), -1) * (first > 0) + (first == 0)
    after = np.cumprod(np.where(pos <= first, 1, x), axis=-1)
    at_zero = prefix[..., 0] * np.where(pos >= first, g * after, 0).sum(-1)
    return np.where(pos == first, at_zero[..., None], result).astype(g.dtype, copy=False)

# -- the functions the rules call (PyTorch: FunctionsManual's var_backward, prod_backward) --

def unsqueeze_to(grad, dim, keepdim):
    """grad with the reduced dims put back (size 1), so that it broadcasts over them."""
    if grad.dim() == 0 or keepdim or dim is None:
        return grad
    for d in sorted(dim if isinstance(dim, (tuple, list)) else (dim,)):
        grad = grad.unsqueeze(d)
    return grad


def var_backward(grad, self, dim, correction, keepdim):
    n = self.numel() if dim is None else int(np.prod([self.shape[d] for d in dim]))
    mean = self.mean() if dim is None else self.mean(tuple(dim), True)
    return unsqueeze_to(grad, dim, keepdim) * 2 * (self - mean) / max(n - correction, 0)


def prod_others(self, dim=None):
    """At each position, the product of the other elements (of all, or along dim)."""
    if self.dim() == 0:
        return self * 0 + 1
    if not (self._data == 0).any():
        return (self.prod() if dim is None else self.prod(dim, True)) / self
    flat = self.reshape(-1) if dim is None else self.transpose(dim, -1)
    eye = np.eye(flat.shape[-1], dtype=bool)
    others = [flat.masked_fill(flat._wrap(eye[i]), 1).prod(-1) for i in range(flat.shape[-1])]
    from_rows = StackBackward0.apply(others, -1)
    return from_rows.reshape(self.shape) if dim is None else from_rows.transpose(-1, dim)


def cumprod_backward(grad, self, dim, result):
    """The gradient of cumprod as Tensor ops: for each position k, the running
    products with self_k left out, weighted by grad from k on."""
    if self.dim() == 0:
        return grad
    n = self.shape[dim]
    eye = np.eye(n, dtype=bool)
    shape = [1] * self.dim()
    shape[dim] = n
    parts = []
    for k in range(n):
        without_k = self.masked_fill(self._wrap(eye[k].reshape(shape)), 1).cumprod(dim)
        from_k = self._wrap((np.arange(n) >= k).reshape(shape))
        parts.append((grad * without_k * from_k).sum(dim))
    return StackBackward0.apply(parts, dim)
