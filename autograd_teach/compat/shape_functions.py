"""select, narrow, movedim, swapaxes, broadcast_to, atleast_1d/2d, hstack, vstack,
diff, repeat_interleave, meshgrid: the shape functions a learner meets in the next chapters. None is an
op of its own in PyTorch either: each is a few of the ops in ops/, and the
graph shows those nodes (select is SelectBackward0, narrow is SliceBackward0, diff is SubBackward0 of two
slices), as PyTorch's does."""
import threading
import warnings

import numpy as np

from . import dtypes
from .. import ops as O
from ..core.node import check_broadcast
from ..core.ops.shape import check_dim


def select(input, dim, index):
    """input[..., index, ...] with index along dim (x[i] along one dim): a view."""
    if input.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim, index = check_dim(dim, input.dim()), int(index)    # PyTorch takes 0-d tensors too
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{', '.join(map(str, input.shape))}] at dimension {dim}")
    return O.SelectBackward0.apply(input, dim, index)


def narrow(input, dim, start, length):
    """input's elements start .. start + length along dim: a view."""
    dim = check_dim(dim, input.dim())
    size, start, length = input.shape[dim], int(start), int(length)   # PyTorch takes 0-d tensors too
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return O.SliceBackward0.apply(input, dim, slice(start, start + length))


def movedim(input, source, destination):
    """The dims in source moved to the places in destination, the others kept
    in order: one permute."""
    ndim, given = input.dim(), {"source": _as_list(source), "destination": _as_list(destination)}
    if len(given["source"]) != len(given["destination"]):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({given['source']} dims) should "
                           f"contain the same number of dims as destination ({given['destination']} dims)")
    source, destination = ([check_dim(d, ndim) for d in dims] for dims in given.values())
    for name, dims in zip(given, (source, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given[name]})")
    order = [None] * ndim
    for s, d in zip(source, destination):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in source)
    return O.PermuteBackward0.apply(input, tuple(o if o is not None else next(rest) for o in order))


def swapaxes(input, axis0, axis1):
    return O.TransposeBackward0.apply(input, axis0, axis1)


def broadcast_to(input, size):
    return input.expand(size)


def broadcast_tensors(*tensors):
    """Each tensor expanded to the shape they broadcast to; one already of
    that shape is returned itself, as PyTorch returns it."""
    shape = ()
    for t in tensors:
        check_broadcast(shape, tuple(t.shape))
        shape = np.broadcast_shapes(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


def atleast_1d(*tensors):
    return _each(tensors, _1d)


def atleast_2d(*tensors):
    return _each(tensors, _2d)


def hstack(tensors):
    tensors = [_1d(t) for t in tensors]
    return O.CatBackward0.apply(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors):
    return O.CatBackward0.apply([_2d(t) for t in tensors], 0)


row_stack = vstack


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """input[1:] - input[:-1] along dim, n times (prepend/append joined first)."""
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = check_dim(dim, input.dim())
    if prepend is not None or append is not None:
        parts = [t for t in (prepend, input, append) if t is not None]
        input = O.CatBackward0.apply(parts, dim)
    if n == 0:       # PyTorch returns a copy (its node: CopyBackwards)
        return O.CopyBackwards.apply(input._wrap(np.empty_like(input._data)), input)
    for _ in range(min(n, input.shape[dim])):     # PyTorch stops once the dim is empty
        length = input.shape[dim] - 1
        earlier = narrow(input, dim, 0, length)    # made first, as PyTorch's diff_helper does (its
        later = narrow(input, dim, 1, length)      # sequence numbers order the backward)
        # bools cannot be subtracted: their difference is "changed or not", as in PyTorch
        input = later.logical_xor(earlier) if input.dtype is dtypes.bool_ else later - earlier
    return input


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element `repeats` times in a row, along dim (flattened if dim is
    None). An int repeats is, as in PyTorch, unsqueeze, expand, clone, view;
    a tensor of repeats is an index_select. torch.repeat_interleave(repeats)
    alone gives the indices that would be selected."""
    if repeats is None:                                     # torch.repeat_interleave(tensor of repeats)
        input, repeats = input._wrap(np.arange(input.numel())), input
    if dim is None:
        input, dim = input.flatten(), 0
    dim = check_dim(dim, input.dim())
    if hasattr(repeats, "_data") and repeats.dim() > 0:
        if (repeats._data < 0).any():
            raise RuntimeError("repeats can not be negative")
        index = np.repeat(np.arange(len(repeats._data)), repeats._data)
        return input.index_select(dim, input._wrap(index))
    repeats = int(repeats)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    shape = list(input.shape)
    wide = input.unsqueeze(dim + 1).expand(*shape[:dim + 1], repeats, *shape[dim + 1:])
    shape[dim] *= repeats
    return wide.clone().view(shape)


MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")
# PyTorch warns once per process (TORCH_WARN_ONCE): the one piece of state here, and all it remembers.
meshgrid_warned = threading.Event()
_warn_lock = threading.Lock()


def meshgrid(*tensors, indexing=None):
    """Grids of coordinates: tensor i viewed with its values along dim i and
    expanded to every tensor's length (with indexing="xy" the first two
    swap, as numpy's default). Views of the inputs, as in PyTorch."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing is None:
        with _warn_lock:
            if not meshgrid_warned.is_set():
                meshgrid_warned.set()
                warnings.warn(MESHGRID_WARNING, UserWarning, stacklevel=2)
        indexing = "ij"
    if not tensors:                          # PyTorch's checks, in its order
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("xy", "ij"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if any(t.dim() > 1 for t in tensors):    # (PyTorch prints the tensor after this, in C++'s format)
        raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ")
    order = list(tensors)
    if indexing == "xy" and len(order) > 1:
        order[0], order[1] = order[1], order[0]
    shape = [t.numel() for t in order]
    grids = [t.view([-1 if d == i else 1 for d in range(len(order))]).expand(shape) for i, t in enumerate(order)]
    if indexing == "xy" and len(grids) > 1:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _1d(t):
    return t.reshape(1) if t.dim() == 0 else t


def _2d(t):
    if t.dim() == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t.dim() == 1 else t


def _as_list(dims):
    return list(dims) if isinstance(dims, (tuple, list)) else [dims]


def _each(tensors, one):
    """atleast_*d: one tensor -> one tensor; several (or a list of them) -> a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        return tuple(map(one, tensors[0]))
    return one(tensors[0]) if len(tensors) == 1 else tuple(map(one, tensors))
