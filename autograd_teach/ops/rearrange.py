"""Ops that move elements around without changing them: flip, roll, repeat,
tril/triu, index_select. Each backward moves the gradient back where the
element came from (and adds up copies, for repeat and index_select)."""
import numpy as np

from ..core.node import OpNode
from ..core.ops.selection import index_backward, new_zeros  # noqa: F401  (the rules call them)
from ..core.ops.shape import check_dim


def _dims(dims, ndim):
    return tuple(check_dim(d, ndim) for d in ((dims,) if isinstance(dims, int) else dims))


class FlipBackward0(OpNode):
    """out = self.flip(dims)

    self: grad.flip(dims)
    """
    attrs = ("dims",)

    def forward(self, a, dims):
        self.dims = _dims(dims, a.ndim)
        return np.flip(a, self.dims).copy() if a.ndim else a.copy()   # a copy, as in PyTorch: flip is no view

    def backward(self, grad):
        return np.flip(grad, self.dims) if grad.ndim else grad


class RollBackward0(OpNode):
    """out = self.roll(shifts, dims)

    self: grad.roll([-s for s in shifts], dims)

    Rolled back by the same amounts. With no dims, the tensor is rolled as if
    flattened, and so is the gradient.
    """
    attrs = ("shifts", "dims")

    def forward(self, a, shifts, dims=()):
        self.shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
        self.dims = _dims(dims if dims is not None else (), a.ndim)
        if self.dims and len(self.dims) != len(self.shifts):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(self.shifts)}, "
                               f"dims:{len(self.dims)}")
        if not self.dims and len(self.shifts) != 1:
            raise RuntimeError("shifts and dimensions must align. shifts: "
                               f"{len(self.shifts)}, dims:0")
        return np.roll(a, self.shifts, self.dims or None)

    def backward(self, grad):
        return np.roll(grad, [-s for s in self.shifts], self.dims or None)


def repeat_backward(grad, repeats, self_sym_sizes):
    """repeat undone (PyTorch's repeat_backward): the leading new dims summed
    away, then each repeated dim split into (repeat, size) and the copies
    summed. Works on numpy arrays and on Tensors alike."""
    if 0 in repeats:     # nothing was copied: no gradient reaches self
        if hasattr(grad, "_data"):
            return new_zeros(grad, self_sym_sizes)
        return np.zeros(tuple(self_sym_sizes), dtype=grad.dtype)
    extra = len(repeats) - len(self_sym_sizes)
    for _ in range(extra):
        grad = grad.sum(0)
    sizes, sum_dims = [], []
    for r, s in zip(repeats[extra:], self_sym_sizes):
        if r != 1:
            sizes.append(r)
            sum_dims.append(len(sizes) - 1)
        sizes.append(s)
    grad = grad.reshape(tuple(sizes))
    return grad.sum(tuple(sum_dims)) if sum_dims else grad


class RepeatBackward0(OpNode):
    """out = self.repeat(repeats)   (tiles: the whole tensor, repeats[i] times along dim i)

    self: repeat_backward(grad, repeats, self_sym_sizes)
    """
    attrs = ("repeats", "self_sym_sizes")

    def forward(self, a, repeats):
        if len(repeats) < a.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                               "dimensions of tensor")
        self.repeats, self.self_sym_sizes = tuple(repeats), a.shape
        return np.tile(a.reshape((1,) * (len(repeats) - a.ndim) + a.shape), self.repeats)

    def backward(self, grad):
        return repeat_backward(grad, self.repeats, self.self_sym_sizes)


class TrilBackward0(OpNode):
    """out = self.tril(diagonal)   (zeros above the diagonal)

    self: grad.tril(diagonal)
    """
    attrs = ("diagonal",)

    def forward(self, a, diagonal=0):
        if a.ndim < 2:
            raise RuntimeError("tril: input tensor must have at least 2 dimensions")
        self.diagonal = diagonal
        return np.tril(a, diagonal)

    def backward(self, grad):
        return np.tril(grad, self.diagonal)


class TriuBackward0(OpNode):
    """out = self.triu(diagonal)   (zeros below the diagonal)

    self: grad.triu(diagonal)
    """
    attrs = ("diagonal",)

    def forward(self, a, diagonal=0):
        if a.ndim < 2:
            raise RuntimeError("triu: input tensor must have at least 2 dimensions")
        self.diagonal = diagonal
        return np.triu(a, diagonal)

    def backward(self, grad):
        return np.triu(grad, self.diagonal)


def index_select_backward(grad, self_sym_sizes, dim, index):
    """Each selected slice's gradient added back at its index (an index picked
    twice gets both): PyTorch's index_select_backward, zeros().index_add_()."""
    where = tuple([slice(None)] * dim + [index._data if hasattr(index, "_data") else index])
    return index_backward(new_zeros(grad, self_sym_sizes), where, grad)


class IndexSelectBackward0(OpNode):
    """out = self.index_select(dim, index)

    self: index_select_backward(grad, self_sym_sizes, dim, index)
    """
    attrs = ("self_sym_sizes", "dim", "index")
    saved_arrays = ("index",)

    def forward(self, a, dim, index):
        if index.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        if index.dtype.kind not in "iu":
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        self.dim = check_dim(dim, a.ndim)
        self.self_sym_sizes, self.index = a.shape, index.reshape(-1).astype(np.int64)
        if a.ndim == 0:
            return a.copy()
        size = a.shape[self.dim]
        bad = self.index[(self.index < 0) | (self.index >= size)]
        if bad.size:     # no negative indices either, unlike x[i]
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad[0]} axis_dim={size}")
        return np.take(a, self.index, axis=self.dim)

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        if not out.ndim:
            return grad
        np.add.at(out, tuple([slice(None)] * self.dim + [self.index]), grad)
        return out


def masked_select_backward(grad, self, mask):
    """Each selected element's gradient back in its place, zeros elsewhere
    (mask is broadcast to self's shape already; where self was broadcast,
    the engine sums the gradient back)."""
    where = mask._data if hasattr(mask, "_data") else mask
    return index_backward(new_zeros(grad, where.shape), np.nonzero(where), grad)


class MaskedSelectBackward0(OpNode):
    """out = self.masked_select(mask)   (the elements where mask is True, as a 1-D tensor)

    self: masked_select_backward(grad, self, mask)
    """
    saved = ("self",)
    attrs = ("mask",)
    saved_arrays = ("mask",)

    def forward(self, a, mask):
        if mask.dtype != np.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        shape = np.broadcast_shapes(a.shape, mask.shape)
        self.mask = np.broadcast_to(mask, shape)
        return np.broadcast_to(a, shape)[self.mask]

    def backward(self, grad, a):
        out = np.zeros(self.mask.shape, dtype=grad.dtype)
        out[self.mask] = grad
        return out      # summed back to self's shape by the base class, where self was broadcast


def index_add(self, dim, index, source, alpha=1):
    """PyTorch's checks (index_func_meta_impl, in its order; the name is the
    in-place op's, as PyTorch's), then IndexAddBackward0."""
    name = "index_add_(): "
    if index.dim() > 1:
        raise IndexError(f"{name}Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{index.dtype.legacy_name} and size: {list(index.shape)}")
    if index._data.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{name}Expected dtype int32/int64 for index but got: {index.dtype.legacy_name}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"{name}self ({self.dtype.legacy_name}) and source ({source.dtype.legacy_name}) must have "
                           "the same scalar type")
    dim = check_dim(dim, self.dim())
    if dim and dim >= source.dim():
        raise RuntimeError(f"{name}Indexing dim {dim} is out of bounds of the source tensor with dim {source.dim()}")
    count = source.shape[dim] if source.dim() else 1
    if index.numel() != count:
        raise RuntimeError(f"{name}Number of indices ({index.numel()}) should be equal to source.size(dim): "
                           f"({count}), for dim: {dim}")
    rest = [list(t.shape[:dim] + t.shape[dim + 1:]) if self.dim() and source.dim() else list(t.shape)
            for t in (self, source)]
    if rest[0] != rest[1]:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(self.shape)} source.shape = {list(source.shape)}")
    size = self.shape[dim] if self.dim() else 1
    bad = index._data[(index._data < 0) | (index._data >= size)]
    if bad.size:
        raise RuntimeError(f"index {bad[0]} is out of bounds for dimension {dim} with size {size}")
    return IndexAddBackward0.apply(self, source, dim, index._data, alpha)


class IndexAddBackward0(OpNode):
    """out = self.index_add(dim, index, source, alpha=1)   (source's slices added into self at index)

    self: grad
    source: grad.index_select(dim, index) * alpha
    """
    inputs = ("self", "source")
    attrs = ("dim", "index", "alpha")
    saved_arrays = ("index",)

    def forward(self, a, source, dim, index, alpha=1):
        self.dim, self.index, self.alpha = check_dim(dim, a.ndim), index.reshape(-1).astype(np.int64), alpha
        out = a.copy()
        if out.ndim:
            np.add.at(out, tuple([slice(None)] * self.dim + [self.index]), source * alpha if alpha != 1 else source)
        else:
            out += source.reshape(()) * alpha
        return out

    def backward(self, grad):
        src = np.take(grad, self.index, axis=self.dim) if grad.ndim else grad
        return grad, (src * self.alpha if self.alpha != 1 else src)
