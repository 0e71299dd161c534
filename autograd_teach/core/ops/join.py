"""cat and stack: one node with any number of inputs. The gradient of each
input is its slice of the output's gradient."""
import numpy as np

from ...compat import dtypes
from ..node import OpNode
from .shape import check_dim


class _Join(OpNode):
    """The number of inputs is known only at the call, while OpNode.apply
    reads it from the class (`inputs`): each arity gets a subclass with
    PyTorch's name, made once and cached. Every input is named `tensors`, so
    the rule of `tensors` gives a list, one gradient per tensor."""
    _arity = {}
    inputs = ("tensors",)

    @property
    def _saved_tensors_args_sizes(self):
        """The inputs' shapes, for the rule (PyTorch: to_args_sizes(tensors))."""
        return [meta[0] for meta in self.input_metadata]

    @classmethod
    def apply(cls, tensors, dim=0):
        tensors = tuple(tensors)
        if not tensors:
            raise RuntimeError(f"{cls._fn}(): expected a non-empty list of Tensors")
        key = (cls, len(tensors))
        sub = _Join._arity.get(key)
        if sub is None:
            sub = type(cls.__name__, (cls,), {"inputs": ("tensors",) * len(tensors), "__doc__": cls.__doc__,
                                              "__module__": cls.__module__})
            _Join._arity[key] = sub
        dt = dtypes.result_type(*tensors)
        tensors = tuple(t if t.dtype is dt else t.to(dt) for t in tensors)
        return OpNode.apply.__func__(sub, *tensors, dim)


class CatBackward0(_Join):
    """out = cat(tensors, dim)

    tensors: cat_tensors_backward(grad, tensors_args_sizes, dim)

    Each tensor's gradient is its slice of grad along dim.
    """
    attrs = ("dim",)
    _fn = "torch.cat"

    def forward(self, *args):
        *arrays, dim = args
        ref = next((a for a in arrays if a.ndim), arrays[0])
        if ref.ndim == 0:
            raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
        d = check_dim(dim, ref.ndim)
        for i, a in enumerate(arrays):
            if a.ndim == 0:
                raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
            if a.ndim != ref.ndim:
                raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}")
            for k in range(ref.ndim):
                if k != d and a.shape[k] != ref.shape[k]:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                       f"{ref.shape[k]} but got size {a.shape[k]} for tensor number {i} in "
                                       "the list.")
        self.dim = d
        self._sizes = [a.shape[d] for a in arrays]
        return np.concatenate(arrays, axis=d)

    def backward(self, grad):
        return tuple(np.split(grad, np.cumsum(self._sizes)[:-1], axis=self.dim))


class StackBackward0(_Join):
    """out = stack(tensors, dim)

    tensors: stack_tensors_backward(grad, dim)

    The i-th tensor's gradient is grad.select(dim, i).
    """
    attrs = ("dim",)
    _fn = "stack"

    def forward(self, *args):
        *arrays, dim = args
        for i, a in enumerate(arrays):
            if a.shape != arrays[0].shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                                   f"[{', '.join(map(str, arrays[0].shape))}] at entry 0 and "
                                   f"[{', '.join(map(str, a.shape))}] at entry {i}")
        self.dim = check_dim(dim, arrays[0].ndim + 1)
        return np.stack(arrays, axis=self.dim)

    def backward(self, grad):
        return tuple(np.moveaxis(grad, self.dim, 0))


# -- the functions the rules call (PyTorch: cat_tensors_backward, stack's unbind) --

def cat_tensors_backward(grad, sizes, dim):
    out, start = [], 0
    for size in sizes:
        out.append(grad[(slice(None),) * dim + (slice(start, start + size[dim]),)])
        start += size[dim]
    return out


def stack_tensors_backward(grad, dim):
    return [grad[(slice(None),) * dim + (i,)] for i in range(grad.shape[dim])]
