"""Reductions: sum mean max min norm. Backward spreads the gradient back over
the elements that were reduced."""
import numpy as np

from ... import kernels
from ...compat import dtypes
from ..node import OpNode, quiet
from ...kernels.degenerate import (accumulates_in_float32, check_amax_dims, check_inf_norm_dims,  # noqa: F401
                                  evenly_distribute, evenly_distribute_backward, logsumexp_dims, reduced_axes, sign)
from .selection import ScatterBackward0, where
from .shape import check_dim


def normalize_dims(dim, ndim):
    """dim as a sorted tuple of non-negative axes, with PyTorch's range check."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(check_dim(d, ndim) for d in dims))


def _expand_back(grad, shape, dims, keepdim):
    """Undo a reduction over dims: reinsert the reduced axes, broadcast to shape."""
    if not keepdim and shape:
        grad = np.expand_dims(grad, dims)
    return np.broadcast_to(grad, shape)


class SumBackward0(OpNode):
    """out = self.sum()

    self: grad.expand(self_sym_sizes)
    """
    attrs = ("self_sym_sizes",)

    def forward(self, a):
        self.self_sym_sizes = a.shape
        return kernels.sum(a)

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    def backward(self, grad):
        # every element gets the output's gradient: np.full, without its Python
        # wrapper (a copy is several times cheaper than a broadcast view for the
        # small tensors of a lesson)
        out = np.empty(self.self_sym_sizes, grad.dtype)
        out[...] = grad
        return out


class SumBackward1(OpNode):
    """out = self.sum(dim, keepdim)

    self: sum_backward(grad, self_sym_sizes, dim, keepdim)

    The summed dims are put back with size 1 (unsqueeze, unless keepdim),
    then expanded.
    """
    attrs = ("self_sym_sizes", "dim", "keepdim")

    def forward(self, a, dim, keepdim=False):
        self.self_sym_sizes, self.dim, self.keepdim = a.shape, normalize_dims(dim, a.ndim), keepdim
        return kernels.sum(a, axis=reduced_axes(self.dim, a.ndim), keepdims=keepdim)

    out_dtype = SumBackward0.out_dtype

    def backward(self, grad):
        return _expand_back(grad, self.self_sym_sizes, self.dim, self.keepdim)


class MeanBackward0(OpNode):
    """out = self.mean()

    self: grad.expand(self_sym_sizes) / self_sym_numel
    """
    attrs = ("self_sym_sizes", "self_sym_numel")

    def forward(self, a):
        if a.dtype.kind != "f":
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                               f"point or complex dtype. Got: {dtypes.from_numpy(a.dtype).legacy_name}")
        self.self_sym_sizes, self.self_sym_numel = a.shape, a.size
        with np.errstate(invalid="ignore", divide="ignore"):   # the mean of nothing is nan, silently, as in PyTorch
            return kernels.mean(a)

    def backward(self, grad):
        with np.errstate(divide="ignore", invalid="ignore"):   # nothing was averaged: an empty gradient
            return np.full(self.self_sym_sizes, grad / self.self_sym_numel)


class MeanBackward1(OpNode):
    """out = self.mean(dim, keepdim)

    self: sum_backward(grad, self_sym_sizes, dim, keepdim)
          / math.prod(n for d, n in enumerate(self_sym_sizes) if d in dim)

    As sum over dim, divided by the number of elements averaged
    (PyTorch: mean_backward(grad, self.sym_sizes(), dim, self.sym_numel(), keepdim)).
    """
    attrs = ("self_sym_sizes", "dim", "keepdim")

    def forward(self, a, dim, keepdim=False):
        if a.dtype.kind != "f":
            MeanBackward0.forward(self, a)
        self.self_sym_sizes, self.dim, self.keepdim = a.shape, normalize_dims(dim, a.ndim), keepdim
        with np.errstate(invalid="ignore", divide="ignore"):   # the mean of nothing is nan, silently, as in PyTorch
            return kernels.mean(a, axis=reduced_axes(self.dim, a.ndim), keepdims=keepdim)

    def backward(self, grad):
        n = int(np.prod([self.self_sym_sizes[d] for d in self.dim or range(len(self.self_sym_sizes))]))
        with np.errstate(divide="ignore", invalid="ignore"):   # an empty dim: nothing to spread
            return _expand_back(grad / n, self.self_sym_sizes, self.dim, self.keepdim)


class MaxBackward1(OpNode):
    """out = self.max()   (of all elements)

    self: evenly_distribute_backward(grad, self, result)

    Ties share the gradient evenly; a NaN result sends it to the NaNs.
    """
    saved = ("self", "result")
    _reduce = staticmethod(np.max)

    def forward(self, a):
        if a.size == 0:
            raise RuntimeError(f"{type(self).__name__[:3].lower()}(): Expected reduction dim to be specified "
                               "for input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
        return self._reduce(a)

    def backward(self, grad, a, result):
        return evenly_distribute(grad, a, result)


class MinBackward1(MaxBackward1):
    """out = self.min()   (of all elements)

    self: evenly_distribute_backward(grad, self, result)

    Ties share the gradient evenly; a NaN result sends it to the NaNs.
    """
    _reduce = staticmethod(np.min)


class MaxBackward0(OpNode):
    """out = self.max(dim, keepdim)   (values and indices; the indices are saved)

    self: value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, keepdim)

    The gradient goes to the element that was picked
    (PyTorch: value_selecting_reduction_backward(grad, dim, indices, self.sym_sizes(), keepdim)).
    """
    attrs = ("self_sym_sizes", "dim", "keepdim", "indices")
    saved_arrays = ("indices",)
    _arg = staticmethod(np.argmax)

    def forward(self, a, dim, keepdim=False):
        (d,) = normalize_dims(dim, a.ndim)
        if a.ndim and a.shape[d] == 0:
            raise IndexError(f"{type(self).__name__[:3].lower()}(): Expected reduction dim {d} to have non-zero size.")
        idx = np.expand_dims(self._arg(a, axis=d), d) if a.ndim else np.zeros((), dtype=np.int64)
        values = np.take_along_axis(a, idx, axis=d) if a.ndim else a
        if not keepdim and a.ndim:
            values, idx = values.squeeze(d), idx.squeeze(d)
        self.self_sym_sizes, self.dim, self.keepdim, self.indices = a.shape, d, keepdim, idx.astype(np.int64)
        return values

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        if not out.ndim:
            return grad
        idx, g = self.indices, grad
        if not self.keepdim:
            idx, g = np.expand_dims(idx, self.dim), np.expand_dims(g, self.dim)
        np.put_along_axis(out, idx, g, axis=self.dim)
        return out


class MinBackward0(MaxBackward0):
    """out = self.min(dim, keepdim)   (values and indices; the indices are saved)

    self: value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, keepdim)

    The gradient goes to the element that was picked
    (PyTorch: value_selecting_reduction_backward(grad, dim, indices, self.sym_sizes(), keepdim)).
    """
    _arg = staticmethod(np.argmin)


class LinalgVectorNormBackward0(OpNode):
    """out = torch.linalg.vector_norm(self, ord, dim, keepdim)   (x.norm(p, dim, keepdim))

    self: linalg_vector_norm_backward(grad, self, ord, result, dim, keepdim)

    PyTorch's rule is a C++ helper with one case per ord (norm_backward in
    FunctionsManual.cpp). For the default ord=2 it is grad * self / result
    (0 where result is 0); for ord=1, grad * self.sgn().
    """
    saved = ("self", "result")
    attrs = ("ord", "dim", "keepdim")
    to_float = True

    @accumulates_in_float32
    def forward(self, a, ord=2, dim=None, keepdim=False):
        self.ord, self.keepdim = ord, keepdim
        self.dim = None if dim is None else normalize_dims(dim, a.ndim) or None   # dim=(): all dims
        axis = self.dim if a.ndim else None
        absa = np.abs(a)
        check_inf_norm_dims(a, ord, dim, self.dim)
        if ord == float("inf"):
            return absa.max(axis=axis, keepdims=keepdim)
        if ord == 2:
            return kernels.norm2(a, axis, keepdim)
        if ord == 1:
            return absa.sum(axis=axis, keepdims=keepdim)
        if ord == 0:   # the number of nonzero elements
            return (a != 0).sum(axis=axis, keepdims=keepdim).astype(a.dtype)
        return (absa ** ord).sum(axis=axis, keepdims=keepdim) ** (1.0 / ord)

    @quiet
    def backward(self, grad, a, result):
        if self.ord == 0:
            return None   # a count is flat: PyTorch sends no gradient at all (.grad stays None)
        if self.dim is not None and not self.keepdim and a.ndim:
            grad, result = np.expand_dims(grad, self.dim), np.expand_dims(result, self.dim)
        if self.ord == 2:
            scale = np.where(result == 0, 0, a / result)
        elif self.ord == 1:
            scale = sign(a)
        elif self.ord == float("inf"):   # the NaNs are maxima too, and their sign is 0
            mask = (np.abs(a) == result) | np.isnan(a)
            scale = sign(a) * mask / mask.sum(axis=self.dim, keepdims=True)
        else:
            p = self.ord
            scale = np.where((result == 0) | (a == 0), 0, sign(a) * np.abs(a) ** (p - 1) / result ** (p - 1))
        return grad * scale



class AmaxBackward0(OpNode):
    """out = self.amax(dim, keepdim)   (the largest value along dim; no indices)

    self: scale_grad_by_count(restore_reduced_dims(grad, dim, keepdim),
          restore_reduced_dims(result, dim, keepdim) == self, dim)

    Unlike max(dim), ties share the gradient evenly.
    """
    saved = ("self", "result")
    attrs = ("dim", "keepdim")
    _reduce = staticmethod(np.max)

    def forward(self, a, dim=(), keepdim=False):
        self.dim = (normalize_dims(dim, a.ndim) or tuple(range(a.ndim))) if a.ndim else ()   # dim=(): all dims
        self.keepdim = keepdim
        name = type(self).__name__[:4].lower()
        check_amax_dims(name, a, dim, normalize_dims(dim, a.ndim) and self.dim)
        return self._reduce(a, axis=self.dim, keepdims=keepdim) if a.ndim else a.copy()

    def backward(self, grad, a, result):
        if not self.keepdim and a.ndim:
            grad, result = np.expand_dims(grad, self.dim), np.expand_dims(result, self.dim)
        mask = a == result
        return mask * (grad / mask.sum(axis=self.dim, keepdims=True))


class AminBackward0(AmaxBackward0):
    """out = self.amin(dim, keepdim)   (the smallest value along dim; no indices)

    self: scale_grad_by_count(restore_reduced_dims(grad, dim, keepdim),
          restore_reduced_dims(result, dim, keepdim) == self, dim)

    Unlike min(dim), ties share the gradient evenly.
    """
    _reduce = staticmethod(np.min)


class LogsumexpBackward0(OpNode):
    """out = self.logsumexp(dim, keepdim)   (log(sum(exp(self))), without overflow)

    self: logsumexp_backward(grad, self, result, dim, keepdim)

    That is grad * (self - result).exp(): the softmax of self along dim.
    """
    saved = ("self", "result")
    attrs = ("dim", "keepdim")
    to_float = True

    @accumulates_in_float32
    @quiet
    def forward(self, a, dim, keepdim=False):
        self.dim, self.keepdim = logsumexp_dims(normalize_dims(dim, a.ndim), a.ndim, keepdim) if a.ndim else (), keepdim
        if not a.ndim:
            return a.copy()
        m = a.max(axis=self.dim, keepdims=True) if a.size else np.zeros((1,) * a.ndim, a.dtype)
        m = np.where(np.isinf(m), 0, m)        # all -inf (or inf) along dim: no shift
        out = np.log(np.exp(a - m).sum(axis=self.dim, keepdims=True)) + m
        return out if keepdim else out.squeeze(self.dim)

    @quiet
    def backward(self, grad, a, result):
        if not self.keepdim and a.ndim:
            grad, result = np.expand_dims(grad, self.dim), np.expand_dims(result, self.dim)
        return grad * kernels.exp(a - result)   # PyTorch's exp bits (numpy's float32 exp can be an ulp off)


class NansumBackward0(OpNode):
    """out = self.nansum(dim, keepdim)   (nan counted as 0)

    self: nansum_backward(grad, self, dim, keepdim)

    grad spread back as for sum, but not to the nans.
    """
    saved = ("self",)
    attrs = ("dim", "keepdim")

    @accumulates_in_float32
    def forward(self, a, dim=None, keepdim=False):
        self.dim = (dim is not None and a.ndim and normalize_dims(dim, a.ndim)) or tuple(range(a.ndim))
        self.keepdim = keepdim
        return np.nansum(a, axis=self.dim, keepdims=keepdim)

    out_dtype = SumBackward0.out_dtype

    def backward(self, grad, a):
        return _expand_back(grad, a.shape, self.dim, self.keepdim) * ~np.isnan(a)


# -- the functions the rules call, as PyTorch's (FunctionsManual.cpp) -----------------

def _unsqueeze_dims(t, dims):
    for d in sorted(dims):
        t = t.unsqueeze(d)
    return t


def sum_backward(grad, sizes, dims, keepdim):
    """A sum over dims undone: the summed dims put back (unsqueeze), then expanded."""
    if not keepdim and len(sizes):
        grad = _unsqueeze_dims(grad, dims)
    return grad.expand(tuple(sizes))


def value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim):
    """max(dim)/min(dim): grad to the element that was picked, zeros elsewhere."""
    if not len(sizes):
        return grad
    if not keepdim:
        grad, indices = grad.unsqueeze(dim), indices.unsqueeze(dim)
    return ScatterBackward0.apply(grad._wrap(np.zeros(tuple(sizes), dtype=grad._data.dtype)), grad, dim, indices._data)


def linalg_vector_norm_backward(grad, self, ord, result, dim, keepdim):
    """The gradient of a vector norm, one case per ord (PyTorch: norm_backward)."""
    if ord == 0:
        return None                    # a count of nonzeros is flat: no gradient at all
    if dim is not None and not keepdim and self.dim():
        grad, result = _unsqueeze_dims(grad, dim), _unsqueeze_dims(result, dim)
    sign_ = self._wrap(sign(self._data))    # sign(self) is flat: a constant of the graph
    if ord == 2:
        return grad * (self / result).masked_fill_(result == 0, 0)
    if ord == 1:
        return self.sgn() * grad
    if ord == float("inf"):
        mask = (np.abs(self._data) == result._data) | np.isnan(self._data)
        return grad * self._wrap(sign(self._data) * mask / mask.sum(axis=dim, keepdims=True))
    return where((result == 0).logical_or(self == 0), 0.0, grad * sign_ * self.abs().pow(ord - 1) / result.pow(ord - 1))


def scale_grad_by_count(grad, mask, dims):
    """amax/amin: grad shared evenly among the elements equal to the result."""
    return (grad / mask.sum(dims, True)) * mask


def restore_reduced_dims(t, dims, keepdim):
    """The reduced dims put back with size 1 (PyTorch's restore_reduced_dims)."""
    return t if keepdim else _unsqueeze_dims(t, dims)


def logsumexp_backward(grad, self, result, dim, keepdim):
    if not keepdim and self.dim():
        grad, result = _unsqueeze_dims(grad, dim), _unsqueeze_dims(result, dim)
    return grad * (self - result).exp()


def nansum_backward(grad, self, dim, keepdim):
    return sum_backward(grad, self.shape, dim, keepdim) * self.isnan().logical_not()
