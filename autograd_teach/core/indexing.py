"""x[index] and x[index] = value, recorded the way PyTorch records them.

Basic indexing (ints, slices, None, ...) is a chain of views, one node per
indexed dim: x[0, 1:] is SelectBackward0 then SliceBackward0. Anything with a
list, an index tensor or a mask is advanced indexing: one IndexBackward0, a
copy. Writing, x[index] = value, is an in-place op (see views.py): the node is
CopySlices.
"""
import numpy as np

from . import grad_mode, views
from .. import ops as O
from ..compat import overlap

INVALID_INDEX = "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices"


def _is_tensor(x):
    return hasattr(x, "_data")


def getitem(t, index):
    if type(index) is int and t._data.ndim:   # x[i], the usual case (a Dataset's examples): one select
        size = t._data.shape[0]
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {size}")
        return O.SelectBackward0.apply(t, 0, index)
    if t.dim() == 0 and isinstance(index, (int, np.integer, slice)) and not isinstance(index, bool):
        # PyTorch sends a lone int or slice straight to select / slice, which refuse a 0-d tensor
        if isinstance(index, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if int(index) != 0:   # PyTorch checks the bounds (as of a size-0 dim) before the 0-d case
            raise IndexError(f"index {int(index)} is out of bounds for dimension 0 with size 0")
        return O.SelectBackward0.apply(t, 0, int(index))   # "invalid index of a 0-dim tensor..."
    lone_slice = isinstance(index, slice)   # x[a:b] is always a slice; in a tuple a whole-dim one is skipped
    index = index if isinstance(index, tuple) else (index,)
    if any(_is_advanced(i) for i in index):
        return O.IndexBackward0.apply(t, np_index(index))
    return _basic(t, index, lone_slice)


def _basic(t, index, lone_slice):
    """One view node per indexed dim, as PyTorch records it."""
    n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
    if n_real > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    out, dim, real = t, 0, 0   # real: the dim of t being indexed, which errors name
    for i in index:
        real += 1 if i is not Ellipsis else t.dim() - n_real   # None counts too, as in PyTorch
        if i is Ellipsis:
            dim += t.dim() - n_real
        elif i is None:
            out, dim = O.UnsqueezeBackward0.apply(out, dim), dim + 1
        elif isinstance(i, slice):
            if i != slice(None) and (lone_slice or _int_slice(i).indices(out.shape[dim]) != (0, out.shape[dim], 1)):
                out = O.SliceBackward0.apply(out, dim, _int_slice(i))
            dim += 1
        elif isinstance(i, (int, np.integer)) or (_is_tensor(i) and i.dim() == 0):
            if _is_tensor(i):
                _index_array(i)      # a 0-d float tensor cannot index either
            size = out.shape[dim]
            if not -size <= int(i) < size:
                raise IndexError(f"index {int(i)} is out of bounds for dimension {real - 1} with size {size}")
            out = O.SelectBackward0.apply(out, dim, int(i))
        else:
            raise IndexError(f"{INVALID_INDEX} (got {_type_name(i)})")
    if out is not t:
        return out
    return O.SliceBackward0.apply(t, 0, slice(None)) if lone_slice else O.AliasBackward0.apply(t)


def setitem(t, index, value):
    parts = index if isinstance(index, tuple) else (index,)
    region = None
    if all(isinstance(i, (int, np.integer, slice)) or i is None or i is Ellipsis for i in parts) \
            and not isinstance(index, bool):
        with grad_mode.no_grad():
            region = getitem(t, index)   # basic indices: PyTorch refuses as x[i] does ("...out of bounds for dimension 0")
    if _whole(t, parts):
        copy_to(t, value)
        return
    if _is_tensor(value) and value.dim() > 0 and (region is None or value.shape != region.shape):
        value = fit(value, None if region is None else region.shape)   # as PyTorch's copy_to and index_put_ see it
    idx = np_index(index if isinstance(index, tuple) else (index,))
    if _is_tensor(value) and views.may_share_memory((t if region is None else region)._data, value._data):
        overlap.check_no_partial_overlap((t if region is None else region)._data, value._data)
    if _advanced_on_t(t, parts):    # PyTorch's index_put_ on t itself
        t._inplace(lambda src, v: O.IndexPutBackward0.apply(src, v, idx), value)
        return
    t._inplace(lambda src, v: O.CopySlices.apply(src, v, (), idx), value, view=True)


def _advanced_on_t(t, parts):
    """Advanced indices with only `...` and whole-dimension slices beside them:
    PyTorch makes no view first, and x[indices] = v is index_put_ on x itself
    (IndexPutBackward0). Anything else views x first (CopySlices)."""
    if not any(_is_advanced(i) and not isinstance(i, (bool, np.bool_)) for i in parts):
        return False
    dim = 0
    for k, i in enumerate(parts):
        if i is Ellipsis:           # the dims after it are counted from the end
            dim = t.dim() - sum(_dims_taken(j) for j in parts[k + 1:])
            continue
        if i is None or isinstance(i, (int, np.integer, bool, np.bool_)) or (_is_tensor(i) and i.dim() == 0):
            return False            # a select or an unsqueeze: a view
        if isinstance(i, slice) and not (dim < t.dim() and i.step in (None, 1)
                                         and i.indices(t.shape[dim])[:2] == (0, t.shape[dim])):
            return False            # a part of a dim: a view
        dim += _dims_taken(i)
    return True


def _dims_taken(i):
    """How many dims of x an index takes: a bool mask its own number, else one."""
    data = i._data if _is_tensor(i) else i
    return data.ndim if isinstance(data, np.ndarray) and data.dtype == np.bool_ else 1


def _whole(t, parts):
    """Does the index pick t itself, not a view of it: only ``...`` and slices
    that cover their whole dimension, step 1?  PyTorch's slicing then returns
    t, and setitem writes into t directly (no CopySlices)."""
    if not all(i is Ellipsis or isinstance(i, slice) for i in parts) or sum(i is Ellipsis for i in parts) > 1:
        return False
    slices = [i for i in parts if i is not Ellipsis]
    if len(slices) > t.dim():
        return False            # too many indices: the usual path raises PyTorch's error
    cut = parts.index(Ellipsis) if Ellipsis in parts else len(parts)
    dims = list(range(cut)) + list(range(t.dim() - (len(parts) - cut - 1), t.dim()))
    return all(s.step in (None, 1) and s.indices(t.shape[d])[:2] == (0, t.shape[d])
               for s, d in zip(slices, dims))


def copy_to(dst, value):
    """dst[...] = value, as PyTorch's copy_to: the same shape is copied
    (copy_), a 0-d value fills (fill_), anything else is viewed without its
    leading 1s, expanded to dst's shape and copied. A number is a 0-d tensor
    of dst's dtype first."""
    if not _is_tensor(value):
        value = dst._wrap(np.array(value, dtype=dst._data.dtype))
    if value.shape == dst.shape:
        return dst.copy_(value)
    if value.dim() == 0:
        return dst.fill_(value)
    return dst.copy_(fit(value, dst.shape))


def fit(value, shape):
    """The value of x[...] = value as PyTorch writes it: viewed without its
    leading 1s (ViewBackward0), then expanded to the region's shape
    (ExpandBackward0, PyTorch's error if it cannot be); shape None (an
    advanced index: index_put_ broadcasts) stops after the view."""
    sizes = list(value.shape)
    while sizes and sizes[0] == 1:
        sizes.pop(0)
    # copy_to views even when nothing is cut; the index_put_ path only when something is
    src = value.view(sizes) if shape is not None or len(sizes) != value.dim() else value
    if shape is not None and src.shape != shape:
        src = src.expand(shape)
    return src


def _is_advanced(i):
    return (isinstance(i, (list, range, np.ndarray)) or (_is_tensor(i) and i.dim() > 0)
            or isinstance(i, (bool, np.bool_)))


def np_index(index):
    """The same index for a numpy array, with PyTorch's errors for what cannot index."""
    out = []
    for i in index:
        if _is_tensor(i):
            out.append(_index_array(i))
        elif isinstance(i, (list, range)):
            a = np.asarray(i)
            out.append(a.astype(np.int64) if a.dtype.kind == "f" else a)   # PyTorch makes a float list a long tensor
        elif isinstance(i, (float, np.floating)):
            raise IndexError(f"{INVALID_INDEX} (got {_type_name(i)})")
        else:
            out.append(_int_slice(i) if isinstance(i, slice) else i)
    arrays = [a.shape for a in out if isinstance(a, np.ndarray) and a.dtype.kind != "b"]
    try:
        np.broadcast_shapes(*arrays)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join("[" + ", ".join(map(str, s)) + "]" for s in arrays)) from None
    return tuple(out) if len(out) != 1 else out[0]


def _index_array(t):
    if t._data.dtype.kind not in "iub":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return t._data


def _type_name(i):
    """What PyTorch calls the type of a bad index: float, numpy.float64."""
    module = type(i).__module__
    return type(i).__name__ if module == "builtins" else f"{module.split('.')[0]}.{type(i).__name__}"


def _int_slice(s):
    bounds = (s.start, s.stop, s.step)
    if any(v is not None and not isinstance(v, (int, np.integer)) and not (_is_tensor(v) and v.dim() == 0
                                                                          and v._data.dtype.kind in "iu")
           for v in bounds):
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    return slice(*(None if v is None else int(v) for v in bounds))
