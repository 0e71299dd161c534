"""x[index] and x[index] = value, recorded the way PyTorch records them.

Basic indexing (ints, slices, None, ...) is a chain of views, one node per
indexed dim: x[0, 1:] is SelectBackward0 then SliceBackward0. Anything with a
list, an index tensor or a mask is advanced indexing: one IndexBackward0, a
copy. Writing, x[index] = value, is an in-place op (see views.py): the node is
CopySlices.
"""
import numpy as np

from . import ops as O

INVALID_INDEX = "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices"


def _is_tensor(x):
    return hasattr(x, "_data")


def getitem(t, index):
    if t.dim() == 0 and isinstance(index, (int, np.integer, slice)) and not isinstance(index, bool):
        # PyTorch sends a lone int or slice straight to select / slice, which refuse a 0-d tensor
        if isinstance(index, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        return O.SelectBackward0.apply(t, 0, int(index))   # "invalid index of a 0-dim tensor..."
    index = index if isinstance(index, tuple) else (index,)
    if any(_is_advanced(i) for i in index):
        return O.IndexBackward0.apply(t, np_index(index))
    return _basic(t, index)


def _basic(t, index):
    """One view node per indexed dim, as PyTorch records it."""
    n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
    if n_real > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    out, dim = t, 0
    for i in index:
        if i is Ellipsis:
            dim += t.dim() - n_real
        elif i is None:
            out, dim = O.UnsqueezeBackward0.apply(out, dim), dim + 1
        elif isinstance(i, slice):
            if i != slice(None):
                out = O.SliceBackward0.apply(out, dim, _int_slice(i))
            dim += 1
        elif isinstance(i, (int, np.integer)) or (_is_tensor(i) and i.dim() == 0):
            out = O.SelectBackward0.apply(out, dim, int(i))
        else:
            raise IndexError(f"{INVALID_INDEX} (got {type(i).__name__})")
    if out is not t:
        return out
    return O.SliceBackward0.apply(t, 0, slice(None)) if t.dim() else t   # x[...] is still a new view


def setitem(t, index, value):
    idx = np_index(index if isinstance(index, tuple) else (index,))
    t._inplace(lambda src, v: O.CopySlices.apply(src, v, (), idx), value, view=True)


def _is_advanced(i):
    return (isinstance(i, (list, range, np.ndarray)) or (_is_tensor(i) and i.dim() > 0)
            or isinstance(i, (bool, np.bool_)))


def np_index(index):
    """The same index for a numpy array."""
    out = []
    for i in index:
        if _is_tensor(i):
            out.append(i._data)
        elif isinstance(i, (list, range)):
            out.append(np.asarray(i))
        elif isinstance(i, float):
            raise IndexError(f"{INVALID_INDEX} (got float)")
        else:
            out.append(i)
    return tuple(out) if len(out) != 1 else out[0]


def _int_slice(s):
    return slice(*(None if v is None else int(v) for v in (s.start, s.stop, s.step)))
