"""sort and topk: the values in order, and where each came from. The
gradient of each value goes back to the place it came from (PyTorch:
value_selecting_reduction_backward, the same as for max(dim)).

The indices are found first (sort_indices, topk_indices: they are returned
even when no graph is recorded); the op then picks the values at them."""
import numpy as np

from ..core.node import OpNode
from ..kernels.degenerate import evenly_distribute
from ..core.ops.reduction import (MaxBackward0, evenly_distribute_backward,  # noqa: F401  (the rules call them)
                                  value_selecting_reduction_backward)
from ..core.ops.shape import check_dim


def _order(a, dim, descending):
    """Indices that sort a along dim, ties in their original order (stable);
    nan counts as the largest value, as in PyTorch."""
    key = a
    if descending:
        key = -a.astype(np.int64) if a.dtype.kind in "bu" else -a
        if a.dtype.kind == "f":
            key = np.where(np.isnan(a), -np.inf, key)    # nan first when descending
    return np.argsort(key, axis=dim, kind="stable")


def sort_indices(a, dim, descending):
    """(dim, indices) of x.sort(dim, descending)."""
    d = check_dim(dim, a.ndim)
    return d, (_order(a, d, descending) if a.ndim else np.zeros((), dtype=np.int64))


def topk_indices(a, k, dim, largest):
    """(dim, indices) of x.topk(k, dim, largest): the first k of the sorted order."""
    d = check_dim(dim, a.ndim)
    if not 0 <= k <= (a.shape[d] if a.ndim else 1):
        raise RuntimeError("selected index k out of range")
    if not a.ndim:
        return d, np.zeros((), dtype=np.int64)
    return d, np.take(_order(a, d, largest), np.arange(k), axis=d)


class SortBackward0(OpNode):
    """out = self.sort(dim, descending)   (values; the indices are saved)

    self: value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, True)
    """
    attrs = ("dim", "self_sym_sizes", "indices")
    saved_arrays = ("indices",)

    def forward(self, a, dim, indices):
        self.dim, self.self_sym_sizes, self.indices = dim, a.shape, indices.astype(np.int64)
        return np.take_along_axis(a, indices, axis=dim) if a.ndim else a.copy()

    def backward(self, grad):
        if not grad.ndim:
            return grad
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        np.put_along_axis(out, self.indices, grad, axis=self.dim)
        return out


class TopkBackward0(SortBackward0):
    """out = self.topk(k, dim, largest, sorted)   (values; the indices are saved)

    self: value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, True)
    """


def kth_indices(a, k, dim, keepdim):
    """(dim, indices) of the k-th smallest (1-based) along dim, ties taken in order."""
    d = check_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if not a.ndim:
        return d, np.zeros((), dtype=np.int64)
    idx = np.take(_order(a, d, False), [k - 1], axis=d)
    return d, idx if keepdim else idx.squeeze(d)


def kthvalue_indices(a, k, dim, keepdim):
    """(dim, indices) of x.kthvalue(k, dim): among tied values, the one
    PyTorch's quick select leaves at place k (its partitions move equal
    values around, so which of them that is depends on the whole slice)."""
    d, idx = kth_indices(a, k, dim, keepdim)
    if not a.ndim or a.shape[d] < 2:
        return d, idx
    rows = np.moveaxis(a, d, -1).reshape(-1, a.shape[d])
    picked = (idx if not keepdim else idx.squeeze(d)).reshape(-1).copy()
    for r, row in enumerate(rows):
        v = row[picked[r]]
        tied = np.count_nonzero(np.isnan(row)) if v != v else np.count_nonzero(row == v)
        if tied > 1:           # only then can the pick differ from the first of the ties
            picked[r] = quick_select(row, k - 1)
    shape = np.moveaxis(a, d, -1).shape[:-1]
    picked = picked.reshape(shape)
    return d, np.expand_dims(picked, d) if keepdim else picked


def quick_select(row, k):
    """The index PyTorch's kthvalue finds at place k (0-based): ATen's
    quick_select_template (median of three, Hoare partition), NaN largest."""
    values, order = list(row), list(range(len(row)))

    def gt(x, y):           # x > y, a NaN above every number
        return (x != x and y == y) or x > y

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        order[i], order[j] = order[j], order[i]

    lo, hi = 0, len(values) - 1
    while hi > lo + 1:
        mid = lo + (hi - lo) // 2
        swap(mid, lo + 1)
        if gt(values[lo + 1], values[hi]):
            swap(lo + 1, hi)
        if gt(values[lo], values[hi]):
            swap(lo, hi)
        if gt(values[lo + 1], values[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, values[lo]
        while True:
            i += 1
            while gt(pivot, values[i]):
                i += 1
            j -= 1
            while gt(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    if hi == lo + 1 and gt(values[lo], values[hi]):
        swap(lo, hi)
    return order[k]


def median_indices(a, dim, keepdim):
    """(dim, indices) of x.median(dim): the lower median, or where a slice
    holds a NaN its first NaN (PyTorch's median is NaN there; kthvalue
    counts NaN as the largest value instead)."""
    size = a.shape[check_dim(dim, a.ndim)] if a.ndim else 1
    if size == 0:
        raise IndexError(f"median(): Expected reduction dim {check_dim(dim, a.ndim)} to have non-zero size.")
    d, idx = kth_indices(a, (size + 1) // 2, dim, keepdim)
    if a.ndim and a.dtype.kind == "f":
        nans = np.isnan(a)
        idx = np.where(nans.any(axis=d, keepdims=keepdim), np.argmax(nans, axis=d, keepdims=keepdim), idx)
    return d, idx


class KthvalueBackward0(OpNode):
    """out = self.kthvalue(k, dim, keepdim)   (values; the indices are saved)

    self: value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, keepdim)
    """
    attrs = ("dim", "keepdim", "self_sym_sizes", "indices")
    saved_arrays = ("indices",)

    def forward(self, a, dim, keepdim, indices):
        self.dim, self.keepdim, self.self_sym_sizes, self.indices = dim, keepdim, a.shape, indices.astype(np.int64)
        if not a.ndim:
            return a.copy()
        idx = indices if keepdim else np.expand_dims(indices, dim)
        values = np.take_along_axis(a, idx, axis=dim)
        return values if keepdim else values.squeeze(dim)

    backward = MaxBackward0.backward     # the same: grad back to the element picked along dim


class MedianBackward1(KthvalueBackward0):
    """out = self.median(dim, keepdim)   (the lower median along dim; the indices are saved)

    self: value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, keepdim)
    """


class MedianBackward0(OpNode):
    """out = self.median()   (the lower median of all elements)

    self: evenly_distribute_backward(grad, self, result)

    Every element equal to the median shares the gradient, as for max().
    """
    saved = ("self", "result")

    def forward(self, a):
        if a.size == 0:
            return np.asarray(np.nan, dtype=a.dtype)
        flat = np.sort(a.reshape(-1), kind="stable")
        nans = np.isnan(flat) if a.dtype.kind == "f" else np.zeros(flat.shape, bool)
        return np.asarray(flat[-1] if nans.any() else flat[(a.size - 1) // 2])   # nan, if any, is the median

    def backward(self, grad, a, result):
        return evenly_distribute(grad, a, result)
