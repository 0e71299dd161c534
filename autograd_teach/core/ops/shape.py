"""Shape ops: view/reshape, transposes, (un)squeeze, expand, indexing, clone,
dtype casts. Most are views in PyTorch: they share storage and the version
counter with their input. Backward moves the gradient back into the input's
layout."""
import numpy as np

from ...compat import dtypes
from ..node import OpNode
from .selection import index_backward, new_zeros, select_backward, slice_backward, zeros_like  # noqa: F401 (rules)


def check_dim(dim, ndim):
    lo, hi = -max(ndim, 1), max(ndim, 1) - 1
    if not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    return dim % max(ndim, 1)


def infer_shape(shape, numel):
    """Resolve one -1 in a view/reshape, with PyTorch's error for a bad shape."""
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = int(np.prod([s for s in shape if s != -1]))
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    return tuple(shape)


class ViewBackward0(OpNode):
    """out = self.view(size)   (also reshape and flatten)

    self: grad.reshape(self_sym_sizes)
    """
    attrs = ("self_sym_sizes",)
    is_view = True

    def forward(self, a, shape, must_view=False):
        shape = infer_shape(shape, a.size)
        self.self_sym_sizes = a.shape
        out = a.reshape(shape)
        if must_view and out.size and not np.shares_memory(out, a):
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return out

    def backward(self, grad):
        return grad.reshape(self.self_sym_sizes)


class TBackward0(OpNode):
    """out = self.t()

    self: grad.t()
    """
    is_view = True

    def forward(self, a):
        if a.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
        return a.T

    def backward(self, grad):
        return grad.T


class PermuteBackward0(OpNode):
    """out = self.permute(dims)

    self: grad.permute([dims.index(d) for d in range(len(dims))])

    The inverse permutation (PyTorch: permute_backwards(grad, dims)).
    """
    attrs = ("dims",)
    is_view = True

    def forward(self, a, dims):
        if len(dims) != a.ndim:   # PyTorch checks the count, then each dim, then duplicates
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match "
                               "the length of the desired ordering of dimensions i.e. input.dim() = "
                               f"{a.ndim} is not equal to len(dims) = {len(dims)}")
        self.dims = tuple(check_dim(d, a.ndim) for d in dims)
        if len(set(self.dims)) != len(self.dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return a.transpose(self.dims)

    def backward(self, grad):
        return grad.transpose(np.argsort(self.dims))


class TransposeBackward0(OpNode):
    """out = self.transpose(dim0, dim1)

    self: grad.transpose(dim0, dim1)
    """
    attrs = ("dim0", "dim1")
    is_view = True

    def forward(self, a, dim0, dim1):
        self.dim0, self.dim1 = check_dim(dim0, a.ndim), check_dim(dim1, a.ndim)
        return np.swapaxes(a, self.dim0, self.dim1) if a.ndim else a

    def backward(self, grad):
        return np.swapaxes(grad, self.dim0, self.dim1) if grad.ndim else grad


class UnsqueezeBackward0(OpNode):
    """out = self.unsqueeze(dim)

    self: grad.squeeze(dim)
    """
    attrs = ("dim",)
    is_view = True

    def forward(self, a, dim):
        self.dim = check_dim(dim, a.ndim + 1)
        return np.expand_dims(a, self.dim)

    def backward(self, grad):
        return grad.squeeze(self.dim)


class SqueezeBackward0(OpNode):
    """out = self.squeeze()   (drop every size-1 dim)

    self: unsqueeze_to(grad, None, self_sym_sizes)

    Each size-1 dim put back (PyTorch: unsqueeze_to(grad, self.sym_sizes())).
    """
    attrs = ("self_sym_sizes",)
    is_view = True

    def forward(self, a):
        self.self_sym_sizes = a.shape
        return a.squeeze()

    def backward(self, grad):
        return grad.reshape(self.self_sym_sizes)


class SqueezeBackward1(SqueezeBackward0):
    """out = self.squeeze(dim)   (drop dim if it has size 1)

    self: unsqueeze_to(grad, dim, self_sym_sizes)

    dim put back if it had size 1 (PyTorch: unsqueeze_to(grad, dim, self.sym_sizes())).
    """
    attrs = ("self_sym_sizes", "dim")

    def forward(self, a, dim):
        self.self_sym_sizes, self.dim = a.shape, check_dim(dim, a.ndim)
        return a.squeeze(self.dim) if a.ndim and a.shape[self.dim] == 1 else a


class SqueezeBackward4(SqueezeBackward1):
    """out = self.squeeze(dims)   (several dims at once; PyTorch uses it inside matmul)

    self: unsqueeze_to(grad, dim, self_sym_sizes)

    The dims that had size 1 put back (PyTorch: unsqueeze_to(grad, dim, self.sym_sizes())).
    """

    def forward(self, a, dims):
        self.self_sym_sizes = a.shape
        self.dim = tuple(d for d in (check_dim(d, a.ndim) for d in dims) if a.shape[d] == 1)
        return a.squeeze(self.dim)


class ExpandBackward0(OpNode):
    """out = self.expand(size)

    self: grad

    The base class sums grad back to self's shape, as for every broadcast input
    (PyTorch: at::sum_to(grad, self.sym_sizes())).
    """
    attrs = ("self_sym_sizes",)
    is_view = True

    def forward(self, a, shape):
        self.self_sym_sizes = a.shape
        lead = len(shape) - a.ndim
        if lead < 0:
            raise RuntimeError(f"expand(torch.{dtypes._BY_NUMPY[a.dtype].legacy_name}Tensor{{[{', '.join(map(str, a.shape))}]}}, "
                               f"size=[{', '.join(map(str, shape))}]): the number of sizes provided ({len(shape)}) must "
                               f"be greater or equal to the number of dimensions in the tensor ({a.ndim})")
        shape = tuple(a.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        try:
            return np.broadcast_to(a, shape)
        except ValueError:       # PyTorch names the mismatch nearest the end
            d = max(i for i in range(lead, len(shape)) if a.shape[i - lead] not in (1, shape[i]))
            raise RuntimeError(f"The expanded size of the tensor ({shape[d]}) must match the existing size "
                               f"({a.shape[d - lead]}) at non-singleton dimension {d}.  "
                               f"Target sizes: [{', '.join(map(str, shape))}].  Tensor sizes: "
                               f"[{', '.join(map(str, a.shape))}]") from None

    def backward(self, grad):
        return grad     # the base class sums broadcast dims back


class SelectBackward0(OpNode):
    """out = self.select(dim, index)   (x[i] along one dim)

    self: select_backward(grad, self_sym_sizes, dim, index)

    grad goes back into the row it came from; zeros elsewhere
    (PyTorch: select_backward(grad, self.sym_sizes(), dim, index)).
    """
    attrs = ("self_sym_sizes", "dim", "index")
    is_view = True

    def forward(self, a, dim, index):
        if a.ndim == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        size = a.shape[dim]
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
        self.self_sym_sizes, self.dim, self.index = a.shape, dim, index % size
        return a[(slice(None),) * dim + (self.index, Ellipsis)]   # the Ellipsis keeps a 0-d result a view

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        out[(slice(None),) * self.dim + (self.index,)] = grad
        return out


class SliceBackward0(OpNode):
    """out = self[start:end:step] along dim

    self: slice_backward(grad, self_sym_sizes, dim, start, end, step)

    grad goes back into the slice it came from; zeros elsewhere
    (PyTorch: slice_backward(grad, self.sym_sizes(), dim, start, end, step)).
    """
    attrs = ("self_sym_sizes", "dim", "start", "end", "step")
    is_view = True

    def forward(self, a, dim, sl):
        if sl.step is not None and sl.step <= 0:
            raise ValueError("step must be greater than zero")
        self.self_sym_sizes, self.dim = a.shape, dim
        self.start, self.end, self.step = sl.indices(a.shape[dim])
        return a[(slice(None),) * dim + (sl,)]

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        out[(slice(None),) * self.dim + (slice(self.start, self.end, self.step),)] = grad
        return out


def check_advanced_index(shape, parts, used):
    """PyTorch's bounds and mask-shape errors. PyTorch applies integer indices
    first, then counts dims in what is left; an index tensor is reported by
    its position among the index tensors."""
    left = [s for s, p in zip(shape, _dims_of(parts, len(shape) - used)) if not isinstance(p, (int, np.integer))]
    dim = nth = 0
    for p in parts:
        if p is Ellipsis:
            dim += len(shape) - used
        elif isinstance(p, slice):
            dim += 1
        elif isinstance(p, np.ndarray) and p.dtype == np.bool_:
            for k, m in enumerate(p.shape):
                if m != left[dim + k]:
                    raise IndexError(f"The shape of the mask {list(p.shape)} at index {k} does not match the "
                                     f"shape of the indexed tensor {left} at index {dim + k}")
            dim, nth = dim + p.ndim, nth + 1
        elif isinstance(p, np.ndarray):
            bad = p[(p < -left[dim]) | (p >= left[dim])]
            if bad.size:
                raise IndexError(f"index {bad.flat[0]} is out of bounds for dimension {nth} with size {left[dim]}")
            dim, nth = dim + 1, nth + 1


def _dims_of(parts, ellipsis_width):
    """The index part that each dim of the tensor meets (None and masks aside)."""
    for p in parts:
        if p is Ellipsis:
            yield from [slice(None)] * ellipsis_width
        elif isinstance(p, np.ndarray) and p.dtype == np.bool_:
            yield from [p] * p.ndim
        elif p is not None:
            yield p
    while True:
        yield slice(None)


class IndexBackward0(OpNode):
    """out = self[indices]   (advanced indexing: lists, integer or boolean tensors; a copy, not a view)

    self: index_backward(new_zeros(grad, self_sym_sizes), indices, grad)

    Repeated indices add up (PyTorch: index_backward(grad.new_zeros(self.sym_sizes()), indices, grad)).
    """
    attrs = ("self_sym_sizes", "indices")
    saved_arrays = ("indices",)

    def forward(self, a, index):
        parts = index if isinstance(index, tuple) else (index,)
        used = 0      # dims the index consumes: a boolean mask as many as it has, None and ... none
        for p in parts:
            if isinstance(p, (np.ndarray, bool, np.bool_)) and np.asarray(p).dtype == np.bool_:
                used += np.ndim(p)
            elif p is not None and p is not Ellipsis:
                used += 1
        if used > a.ndim:
            raise IndexError(f"too many indices for tensor of dimension {a.ndim}")
        check_advanced_index(a.shape, parts, used)
        self.self_sym_sizes, self.indices = a.shape, index
        return a[index]

    def backward(self, grad):
        out = np.zeros(self.self_sym_sizes, dtype=grad.dtype)
        np.add.at(out, self.indices, grad)    # repeated indices add up
        return out


class CloneBackward0(OpNode):
    """out = self.clone()

    self: grad
    """
    def forward(self, a):
        return a.copy()

    def backward(self, grad):
        return grad


class ToCopyBackward0(OpNode):
    """out = self.to(dtype)   (also .double(), .float(), ...)

    self: grad

    The base class casts grad back to self's dtype (PyTorch: _to_copy_backward(grad, self.options())).
    """

    def forward(self, a, np_dtype):
        self._np_dtype = np_dtype
        return a.astype(np_dtype)

    def out_dtype(self, dt):
        return dtypes.from_numpy(self._np_dtype)

    def backward(self, grad):
        return grad


class CopyBackwards(OpNode):
    """out = self.copy_(src)   (self's old values are overwritten by src, broadcast to self's shape)

    self: zeros_like(grad)
    src: grad

    Built in C++ in PyTorch, with this name. It is also the grad_fn of a leaf's
    .grad after backward(create_graph=True): PyTorch copies the first gradient
    into a new tensor. The base class sums src's gradient back to its shape and
    casts it to its dtype.
    """
    inputs = ("self", "src")
    keeps_dtype = True

    def name(self):
        return "torch::autograd::CopyBackwards"

    def forward(self, a, src):
        return np.array(np.broadcast_to(src, a.shape), dtype=a.dtype)

    def backward(self, grad):
        return np.zeros_like(grad), grad


def replay_view(array, view):
    """Apply a chain of view ops, (op class, params) pairs, to an array shaped
    like their base: the same view of that array."""
    for cls, params in view:
        array = cls.forward(cls.__new__(cls), array, *params)
    return array


class CopySlices(OpNode):
    """out = self with a region overwritten by src: x[index] = value, or an in-place op on a view of x

    `view` is the chain of view ops from x to the region (empty for x[index] =
    value). In PyTorch this node is CopySlices too, built in C++, not listed in
    derivatives.yaml: the old x gets the gradient outside the region, src the
    gradient inside it.
    """
    inputs = ("self", "src")
    attrs = ("view", "index")
    keeps_dtype = True

    def forward(self, a, v, view, index):
        self.view, self.index = view, index
        out = a.copy(order="K")
        replay_view(out, view)[index] = v
        return out

    def name(self):
        return "torch::autograd::CopySlices"

    def backward(self, grad):
        g_self = grad.copy(order="K")
        replay_view(g_self, self.view)[self.index] = 0
        return g_self, replay_view(grad, self.view)[self.index]

    # -- an in-place op on a view: this node holds the op's node -------------------
    fn = None       # v.mul_(2), v a view of x: the MulBackward0 of mul_, held inside

    def hold(self, fn):
        """An in-place op on a view (v.mul_(2), v a view of x): as in PyTorch,
        this node holds the op's node fn inside it instead of hanging it below.
        Its edges are the old base's, then fn's edges but the first (fn's first
        input was the view itself: now the region of the base)."""
        self.fn = fn
        self.next_functions = self.next_functions[:1] + fn.next_functions[1:]
        self.input_metadata = self.input_metadata[:1] + fn.input_metadata[1:]

    def call_backward(self, grad):
        """Holding fn: the base's gradient is grad with its region replaced by
        what fn sends to its first input (PyTorch's CopySlices::apply); fn's
        other gradients go on as they are."""
        if self.fn is None or grad is None:     # None: it sends None on, as PyTorch's CopySlices
            return super().call_backward(grad)
        g_self = grad.copy(order="K")
        region = replay_view(g_self, self.view)
        grads = self.fn.call_backward(self.held_gradient(region.copy()))
        region[...] = 0 if grads[0] is None else grads[0]
        return (g_self if self.next_functions[0][0] is not None else None,) + tuple(grads[1:])

    def held_gradient(self, g):
        """g as the held node takes it: a custom Function's node (mark_dirty)
        takes one gradient per output (ops/multi_output.py), an op node one."""
        slots_of = getattr(self.fn, "slots_of", None)
        return g if slots_of is None else slots_of(g)

    def release_variables(self):
        super().release_variables()
        if self.fn is not None:
            self.fn.release_variables()

    def call_backward_on_tensors(self, grad):
        """create_graph=True: the same two steps as backward, as Tensor ops
        (no rule to evaluate: this node is not in derivatives.yaml)."""
        if grad is None:     # only None reached this node (see engine.py): it sends None on
            return (None,) * len(self.next_functions)
        if self.fn is not None:
            return self.held_backward_on_tensors(grad)
        need_self, need_src = self.needs_input_grad
        g_self = g_src = None
        if need_src:
            g_src = _region(grad, self.view)[self.index]
        if need_self:
            g_self = grad.clone()
            _region(g_self, self.view)[self.index] = 0     # itself a CopySlices node
        return self.to_inputs([g_self, g_src])

    def held_backward_on_tensors(self, grad):
        """create_graph=True, holding fn: call_backward's steps as Tensor ops.
        Writing fn's gradient into the region of a copy of grad is itself an
        in-place op on a view, so it is recorded as a CopySlices too."""
        g_self = grad.clone()
        region = _region(g_self, self.view)
        grads = self.fn.call_backward_on_tensors(self.held_gradient(region.clone()))
        if self.next_functions[0][0] is None:
            g_self = None
        elif grads[0] is None:
            region.zero_()
        else:
            region.copy_(grads[0])
        return (g_self,) + tuple(grads[1:])


def _region(t, view):
    """The chain of view ops applied to a Tensor: the same view of it, recorded."""
    for cls, params in view:
        t = cls.apply(t, *params)
    return t


# -- the functions the rules call, as PyTorch's ------------------------------------------

def unsqueeze_to(grad, dim, sizes):
    """A squeeze undone: a size-1 dim put back at each place it was dropped
    (dim None: every size-1 dim of sizes)."""
    dims = range(len(sizes)) if dim is None else ((dim,) if isinstance(dim, int) else dim)
    for d in sorted(dims):
        if d < len(sizes) and sizes[d] == 1:     # a 0-d self had no dim to drop
            grad = grad.unsqueeze(d)
    return grad
