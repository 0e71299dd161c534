"""torch.unique and torch.unique_consecutive: the distinct values (sorted),
and, if asked, where each input element went (inverse) and how many there
were (counts). PyTorch records a node for the values (Unique2Backward0,
UniqueDimBackward0, UniqueConsecutiveBackward0) but gives it no derivative:
backward through it raises."""
import numpy as np

from ..core.node import OpNode


def _unique(a, dim):
    """(values, inverse, counts); NaNs stay distinct, as in PyTorch."""
    if dim is None:
        values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True, return_counts=True, equal_nan=False)
        return values, inverse.reshape(a.shape), counts
    values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=dim)
    return values, inverse.reshape(-1), counts


def _consecutive(a):
    flat = a.reshape(-1)
    new_run = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else np.zeros(0, bool)
    starts = np.flatnonzero(new_run)
    return flat[starts], (np.cumsum(new_run) - 1).reshape(a.shape), np.diff(np.append(starts, flat.size))


class _Unique(OpNode):
    _op = None

    def backward(self, grad):
        raise NotImplementedError(f"the derivative for '{self._op}' is not implemented.")


class Unique2Backward0(_Unique):
    """out = torch.unique(self)

    PyTorch's rule: self: not_implemented("_unique2")
    """
    _op = "_unique2"

    def forward(self, a):
        return _unique(a, None)[0]


class UniqueDimBackward0(_Unique):
    """out = torch.unique(self, dim=dim)   (distinct slices along dim)

    PyTorch's rule: self: not_implemented("unique_dim")
    """
    _op = "unique_dim"

    def forward(self, a, dim):
        return _unique(a, dim)[0]


class UniqueConsecutiveBackward0(_Unique):
    """out = torch.unique_consecutive(self)   (runs of equal values become one)

    PyTorch's rule: self: not_implemented("unique_consecutive")
    """
    _op = "unique_consecutive"

    def forward(self, a):
        return _consecutive(a)[0]


def _returned(values, found, return_inverse, return_counts):
    """values, then inverse and counts (int64, no gradient) if asked."""
    extra = [values._wrap(np.asarray(x, dtype=np.int64)) for x, asked in zip(found[1:], (return_inverse, return_counts))
             if asked]
    return (values, *extra) if extra else values


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values, sorted (PyTorch's CPU kernel sorts also for sorted=False)."""
    values = Unique2Backward0.apply(input) if dim is None else UniqueDimBackward0.apply(input, dim)
    return _returned(values, _unique(input._data, dim), return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        raise NotImplementedError("autograd_teach: unique_consecutive(dim=...) is not implemented")
    values = UniqueConsecutiveBackward0.apply(input)
    return _returned(values, _consecutive(input._data), return_inverse, return_counts)


TENSOR_METHODS = {"unique": unique, "unique_consecutive": unique_consecutive}   # t.unique(...) is unique(t, ...)
