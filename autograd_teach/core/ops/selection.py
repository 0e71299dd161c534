"""Ops that pick values by position: torch.where, and the ops that put a
gradient back into zeros at the positions an indexing op read from.

The second kind is what the backward of x[i], x[a:b], x[idx] and max(dim)
computes. With create_graph=True that backward is itself recorded, so it is
an op of its own, under PyTorch's name (SelectBackwardBackward0, ...); its own
derivative is the indexing op again, since putting into zeros and reading back
are each other's transpose. The functions the rules call (select_backward,
where, zeros_like, ...: PyTorch's at:: and FunctionsManual names) are here
too, after the ops.
"""
import numpy as np

from ...compat import dtypes
from ..node import OpNode, check_broadcast


class WhereBackward0(OpNode):
    """out = where(condition, self, other)

    self: where(condition, grad, 0.0)
    other: where(condition, 0.0, grad)

    condition is broadcast to the output's shape, so each gradient has it.
    """
    inputs = ("self", "other")
    attrs = ("condition",)
    saved_arrays = ("condition",)

    def forward(self, a, b, condition):
        self.condition = condition
        return np.where(condition, a, b)

    def backward(self, grad):
        zero = np.zeros((), dtype=grad.dtype)
        return np.where(self.condition, grad, zero), np.where(self.condition, zero, grad)


def _put(out, index, values, accumulate=False):
    if accumulate:
        np.add.at(out, index, values)
    else:
        out[index] = values
    return out


class SelectBackwardBackward0(OpNode):
    """out = torch.select_backward(grad_output, input_sizes, dim, index)   (grad_output into its row of zeros)

    grad_output: grad[(slice(None),) * dim + (index,)]

    The backward of x.select(dim, index), as an op (PyTorch: grad.select(dim, index)).
    """
    inputs = ("grad_output",)
    attrs = ("input_sizes", "dim", "index")

    def forward(self, g, input_sizes, dim, index):
        self.input_sizes, self.dim, self.index = input_sizes, dim, index
        return _put(np.zeros(input_sizes, dtype=g.dtype), (slice(None),) * dim + (index,), g)

    def backward(self, grad):
        return grad[(slice(None),) * self.dim + (self.index,)]


class SliceBackwardBackward0(OpNode):
    """out = torch.slice_backward(grad_output, input_sizes, dim, start, end, step)   (into its slice of zeros)

    grad_output: grad[(slice(None),) * dim + (slice(start, end, step),)]

    The backward of x[start:end:step] along dim, as an op (PyTorch: grad.slice(dim, start, end, step)).
    """
    inputs = ("grad_output",)
    attrs = ("input_sizes", "dim", "start", "end", "step")

    def forward(self, g, input_sizes, dim, start, end, step):
        self.input_sizes, self.dim, self.start, self.end, self.step = input_sizes, dim, start, end, step
        return _put(np.zeros(input_sizes, dtype=g.dtype), self._where(), g)

    def _where(self):
        return (slice(None),) * self.dim + (slice(self.start, self.end, self.step),)

    def backward(self, grad):
        return grad[self._where()]


class IndexPutImplBackward0(OpNode):
    """out = self.index_put(indices, values, accumulate=True)   (a copy of self; values added at indices)

    self: grad
    values: grad[indices]

    Repeated indices add up. PyTorch records it (as _index_put_impl_) in the
    backward of x[indices]: zeros with the gradient added at the indices.
    """
    inputs = ("self", "values")
    attrs = ("indices", "accumulate")
    saved_arrays = ("indices",)
    keeps_dtype = True

    def forward(self, a, v, indices, accumulate=True):
        self.indices, self.accumulate = indices, accumulate
        return _put(a.copy(), indices, v, accumulate)

    def backward(self, grad):
        return grad, grad[self.indices]


class IndexPutBackward0(OpNode):
    """out = self.index_put(indices, values)   (x[indices] = values: a copy of self with values written at indices)

    self: index_put(grad, indices, 0)
    values: at_indices(grad, indices)

    In PyTorch, x[indices] = values with advanced indices (beside them only
    `...` and whole-dimension slices) is index_put_ on x itself, with no view
    first; where an index repeats, the last value written stays, and each
    value still gets its gradient.
    """
    inputs = ("self", "values")
    attrs = ("indices", "accumulate")
    keeps_dtype = True

    def forward(self, a, v, indices):
        self.indices, self.accumulate = indices, False
        return _put(a.copy(order="K"), indices, v)

    def backward(self, grad):
        return _put(grad.copy(order="K"), self.indices, 0), grad[self.indices]

    @property
    def _saved_indices(self):
        """As PyTorch shows them: one entry per indexed dim, a tensor, or None
        where a whole dim was taken (`:` or `...`)."""
        parts = self.indices if type(self.indices) is tuple else (self.indices,)
        taken = sum(p.ndim if type(p) is np.ndarray and p.dtype == np.bool_ else 1 for p in parts if p is not Ellipsis)
        ndim = len(self.input_metadata[0][0])
        shown = []
        for p in parts:
            if p is Ellipsis:
                shown += [None] * (ndim - taken)
            else:
                shown.append(self.wrap(p) if type(p) is np.ndarray else None)
        return tuple(shown)


def index_put(t, indices, values):
    """t with values written at indices (IndexPutBackward0): the rule above.
    indices as PyTorch shows them (None: a whole dim) or as numpy takes them."""
    return IndexPutBackward0.apply(t, values, _as_index(indices, arrays=True))


def at_indices(t, indices):
    """t[indices], indices as index_put takes them."""
    return t[_as_index(indices, arrays=False)]


def _as_index(indices, arrays):
    parts = indices if type(indices) is tuple else (indices,)
    return tuple(slice(None) if i is None else i._data if arrays and hasattr(i, "_data") else i for i in parts)


class ScatterBackward0(OpNode):
    """out = self.scatter(dim, index, src)   (a copy of self with src written at index along dim)

    self: grad.scatter(dim, index, 0)
    src: grad.gather(dim, index)

    PyTorch records it in the backward of max(dim) and min(dim): zeros with the
    gradient at the index of each picked element. src may be larger than index:
    only its first index.shape entries are written.
    """
    inputs = ("self", "src")
    attrs = ("dim", "index")
    saved_arrays = ("index",)
    keeps_dtype = True

    def forward(self, a, src, dim, index):
        self.dim, self.index = dim, index
        written = np.atleast_1d(src)[tuple(map(slice, np.atleast_1d(index).shape))]
        return put_along(a.copy(), index, written, dim)

    def backward(self, grad):
        g_src = take_along(grad, self.index, self.dim)
        return put_along(grad.copy(), self.index, 0, self.dim), src_gradient(self, g_src)


def take_along(a, index, dim):
    """out[i][j] = a[index[i][j]][j] for dim 0: what gather reads. The index may
    be smaller than a in the other dims; a 0-d a or index is read as 1-d."""
    a1, i1 = np.atleast_1d(a), np.atleast_1d(index)
    covered = a1[tuple(slice(None) if d == dim else slice(0, n) for d, n in enumerate(i1.shape))]
    return np.take_along_axis(covered, i1, axis=dim).reshape(np.shape(index))


def put_along(out, index, values, dim, accumulate=False):
    """out[index[i][j]][j] = values[i][j] for dim 0 (+= if accumulate, where a
    place met twice gets both): written into out, which is returned."""
    i1 = np.atleast_1d(index)
    positions = list(np.indices(i1.shape, sparse=True))
    positions[dim] = i1
    target = out.reshape(-1) if out.ndim == 0 else out     # a view: writes reach out
    values = np.reshape(values, i1.shape) if np.ndim(values) else values
    if accumulate:
        np.add.at(target, tuple(positions), values)
    else:
        target[tuple(positions)] = values
    return out


def src_gradient(node, g):
    """src's gradient has index's shape (one element: either's); where src was
    larger than index, PyTorch's engine refuses it, and so does this one."""
    shape = node.input_metadata[1][0]
    if g.shape == shape or node.next_functions[1][0] is None:
        return g
    if g.size == 1 == int(np.prod(shape)):      # 0-d and 1-element: read as 1-d
        return g.reshape(shape)
    raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index 1 - got "
                       f"[{', '.join(map(str, g.shape))}] but expected shape compatible with "
                       f"[{', '.join(map(str, shape))}]")


# -- the functions the rules call, by PyTorch's names -----------------------------------

def where(condition, input=None, other=None):
    """where(condition, input, other): input where condition, else other.
    Python numbers are welcome on either side (they take the other side's
    dtype, or the default one if both are numbers). where(condition) alone is
    condition.nonzero(as_tuple=True)."""
    if input is None and other is None:
        return tuple(condition._wrap(i.astype(np.int64)) for i in np.nonzero(condition._data))
    if condition.dtype is not dtypes.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{condition.dtype.legacy_name}")
    if not hasattr(input, "_data") and not hasattr(other, "_data"):   # two numbers: the default dtype
        dt = dtypes.result_type(input, other)
        input = condition._wrap(np.array(input, dtype=(dtypes.default_float if dt.is_floating_point else dt).np))
    if not hasattr(input, "_data"):
        input = condition._wrap(np.array(input, dtype=dtypes.result_type(other, input).np))
    check_broadcast(condition.shape, input.shape)     # PyTorch's message, for one pair then the next
    check_broadcast(np.broadcast_shapes(condition.shape, input.shape), getattr(other, "shape", ()))
    shape = np.broadcast_shapes(condition.shape, input.shape, getattr(other, "shape", ()))
    return WhereBackward0.apply(input, other, np.broadcast_to(condition._data, shape))


def zeros_like(t):
    return t._wrap(np.zeros_like(t._data))


def new_zeros(t, sizes):
    """Zeros of t's dtype in the given shape (PyTorch: t.new_zeros(sizes))."""
    return t._wrap(np.zeros(tuple(sizes), dtype=t._data.dtype))


def full_like(t, value):
    return t._wrap(np.full_like(t._data, value))


def select_backward(grad, input_sizes, dim, index):
    """grad back into its row of zeros."""
    return SelectBackwardBackward0.apply(grad, tuple(input_sizes), dim, index)


def slice_backward(grad, input_sizes, dim, start, end, step):
    """grad back into its slice of zeros."""
    return SliceBackwardBackward0.apply(grad, tuple(input_sizes), dim, start, end, step)


def index_backward(zeros, indices, grad):
    """grad added into zeros at indices (repeated indices add up)."""
    return IndexPutImplBackward0.apply(zeros, grad, indices._data if hasattr(indices, "_data") else indices, True)
