"""Ops that read or write along a dim at the positions an index tensor holds:
gather, scatter, scatter_add, and take/put (the same on the flattened tensor).

gather and scatter_add are each other's transpose, so each one's gradient is
the other: reading self[index[i][j]][j] sends the gradient back to that place,
and where an index repeats the gradients add up (gather's backward is a
scatter_add into zeros). scatter overwrites, so the overwritten places of self
get no gradient. ScatterBackward0 (scatter with a tensor src) is in
selection.py, where max(dim)'s backward uses it too.

The functions after the ops check the arguments as PyTorch does, with its
messages, before any op runs.
"""
import numpy as np

from ..compat import messages
from ..core.node import OpNode
from ..core.ops.selection import (ScatterBackward0, new_zeros, put_along, src_gradient, take_along,  # noqa: F401
                                  zeros_like)                                # (the rules call new_zeros, zeros_like)
from ..core.ops.shape import check_dim


class GatherBackward0(OpNode):
    """out = self.gather(dim, index)   (out[i][j] = self[index[i][j]][j] for dim 0)

    self: gather_backward(grad, self, dim, index, sparse_grad)

    The gradient goes back to the place each value was read from; a place read
    twice gets both (gather_backward is a scatter_add into zeros).
    """
    saved = ("self",)
    attrs = ("dim", "index", "sparse_grad")
    saved_arrays = ("index",)

    def forward(self, a, dim, index, sparse_grad=False):
        self.dim, self.index, self.sparse_grad = dim, index, sparse_grad
        return take_along(a, index, dim)

    def backward(self, grad, a):
        return put_along(np.zeros_like(a), self.index, grad, self.dim, accumulate=True)


class ScatterBackward1(OpNode):
    """out = self.scatter(dim, index, value)   (value a number)

    self: grad.scatter(dim, index, 0)

    The places that were overwritten with value get no gradient.
    """
    attrs = ("dim", "index")
    saved_arrays = ("index",)
    keeps_dtype = True

    def forward(self, a, dim, index, value):
        self.dim, self.index = dim, index
        return put_along(a.copy(), index, value, dim)

    def backward(self, grad):
        return put_along(grad.copy(), self.index, 0, self.dim)


class ScatterAddBackward0(OpNode):
    """out = self.scatter_add(dim, index, src)   (src[i][j] added into self[index[i][j]][j] for dim 0)

    self: grad
    src: grad.gather(dim, index)

    src's values may land on one place several times: each gets that place's gradient.
    """
    inputs = ("self", "src")
    attrs = ("dim", "index")
    saved_arrays = ("index",)

    def forward(self, a, src, dim, index):
        self.dim, self.index = dim, index
        written = np.atleast_1d(src)[tuple(map(slice, np.atleast_1d(index).shape))]
        return put_along(a.copy(), index, written, dim, accumulate=True)

    def backward(self, grad):
        return grad, src_gradient(self, take_along(grad, self.index, self.dim))


class TakeBackward0(OpNode):
    """out = self.take(index)   (self read as if flattened, at index; out has index's shape)

    self: take_backward(grad, self, index)
    """
    saved = ("self",)
    attrs = ("index",)
    saved_arrays = ("index",)

    def forward(self, a, index):
        self.index = index
        return a.reshape(-1)[index]

    def backward(self, grad, a):
        out = np.zeros(a.size, dtype=grad.dtype)
        np.add.at(out, self.index.reshape(-1), grad.reshape(-1))
        return out.reshape(a.shape)


class PutBackward0(OpNode):
    """out = self.put(index, source, accumulate)   (self flattened; source written, or added, at index)

    self: grad.put(index, zeros_like(source), accumulate) if not accumulate else grad
    source: grad.take(index).reshape_as(source)

    PyTorch records it in the backward of take: zeros with the gradient added at index.
    """
    inputs = ("self", "source")
    saved = ("source",)
    attrs = ("index", "accumulate")
    saved_arrays = ("index",)
    keeps_dtype = True

    def forward(self, a, source, index, accumulate):
        self.index, self.accumulate = index, accumulate
        out = a.copy().reshape(-1)
        if accumulate:
            np.add.at(out, index.reshape(-1), source.reshape(-1))
        else:
            out[index.reshape(-1)] = source.reshape(-1)
        return out.reshape(a.shape)

    def backward(self, grad, source):
        g_self = grad
        if not self.accumulate:
            g_self = grad.copy().reshape(-1)
            g_self[self.index.reshape(-1)] = 0
            g_self = g_self.reshape(grad.shape)
        return g_self, grad.reshape(-1)[self.index].reshape(source.shape)


# -- the functions the rules call, by PyTorch's names -----------------------------------

def gather_backward(grad, self, dim, index, sparse_grad=False):
    """grad added into zeros of self's shape at the places gather read."""
    return new_zeros(grad, self.shape).scatter_add(dim, index, grad)


def take_backward(grad, self, index):
    """grad added into zeros of self's shape at the flat places take read."""
    return zeros_like(self).put(index, grad, True)


# -- the functions behind torch.gather, scatter, ..., with PyTorch's checks --------------

def gather(input, dim, index, *, sparse_grad=False):
    dim = check_dim(dim, input.dim())
    idx = _index(index, "gather")
    _same_ndim(idx, input, "input")
    _no_larger(idx, input, dim, "Size does not match at dimension {d} expected index {i} to be no larger than "
               "self {s} apart from dimension {dim}")
    _in_bounds(idx, input, dim)
    return GatherBackward0.apply(input, dim, idx, sparse_grad)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """src a tensor: ScatterBackward0; a number (or value=): ScatterBackward1."""
    if reduce is not None:
        raise NotImplementedError("autograd_teach: scatter's reduce= (deprecated in PyTorch) is not here")
    src = value if src is None else src
    dim, idx = _checked_scatter(input, dim, index, src)
    if hasattr(src, "_data"):
        return ScatterBackward0.apply(input, src, dim, idx)
    return ScatterBackward1.apply(input, dim, idx, src)


def scatter_add(input, dim, index, src):
    if not hasattr(src, "_data"):
        raise messages.must_be_tensor("scatter_add", "src", 3, src)
    dim, idx = _checked_scatter(input, dim, index, src)
    return ScatterAddBackward0.apply(input, src, dim, idx)


def take(input, index):
    n = _flat_index(input, index, "take")
    if n == 0 and index.numel():
        raise IndexError("take(): tried to take from an empty tensor")
    return TakeBackward0.apply(input, _wrapped(index._data, n))


def put(input, index, source, accumulate=False):
    n = _flat_index(input, index, "put_")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{input.dtype.legacy_name} and source.dtype = {source.dtype.legacy_name}")
    return PutBackward0.apply(input, source, _wrapped(index._data, n), accumulate)


def _flat_index(input, index, name):
    """take and put read input as if flattened: a long index within -n .. n - 1."""
    if index.dtype.legacy_name != "Long":
        raise RuntimeError(f"{name}(): Expected a long tensor for index, but got {index.dtype.legacy_name}")
    n, idx = input.numel(), index._data
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size and n:
        raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {n} elements.")
    return n


def _wrapped(idx, n):
    return np.where(idx < 0, idx + n, idx)


def _checked_scatter(input, dim, index, src):
    """PyTorch's checks of scatter and scatter_add, in its order: (dim, index)."""
    dim = check_dim(dim, input.dim())
    idx = _index(index, "scatter")
    _same_ndim(idx, input, "self")
    larger = "Expected index {i} to be no larger than self {s} apart from dimension {dim}"
    if hasattr(src, "_data"):
        if src.dtype is not input.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        _same_ndim(idx, src, "src")
        larger += " and to be no larger size than src " + _dims(src.shape)
        if any(n > m for n, m in zip(idx.shape, src.shape)):
            raise RuntimeError(larger.format(i=_dims(idx.shape), s=_dims(input.shape), dim=dim))
    _no_larger(idx, input, dim, larger)
    _in_bounds(idx, input, dim)
    return dim, idx


def _index(index, name):
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    return idx.astype(np.int64, copy=False)


def _same_ndim(idx, t, which):
    """A 0-d tensor counts as 1-d, as in PyTorch's kernels."""
    if max(idx.ndim, 1) != max(t.dim(), 1):
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {which} tensor")


def _no_larger(idx, input, dim, message):
    shape = input.shape if input.dim() else (1,)
    for d, (n, m) in enumerate(zip(idx.shape, shape)):
        if d != dim and n > m:
            raise RuntimeError(message.format(d=d, i=_dims(idx.shape), s=_dims(input.shape), dim=dim))


def _in_bounds(idx, input, dim):
    size = input.shape[dim] if input.dim() else 1
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size {size}")


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"
