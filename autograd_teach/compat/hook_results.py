"""What PyTorch checks of a hook's return value (torch/csrc/autograd/
python_hook.cpp: check_result, check_single_result), with its messages: the
engine passes on only gradients of their input's shape and dtype."""
from . import dtypes
from .messages import type_name


def checked_result(hook, out, grads, create_graph):
    """A hook's tuple in place of grads, checked as PyTorch checks it, as the
    engine's arrays (Tensors under create_graph)."""
    name = getattr(hook, "__name__", hook)
    if not isinstance(out, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type_name(out)}'")
    if len(out) != len(grads):
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values (got {len(out)}, "
                           f"but expected {len(grads)})")
    for before, g in zip(grads, out):
        if g is not None:
            check_single_result(name, before, g)
    return tuple(out) if create_graph else tuple(None if g is None else g._data for g in out)


def check_single_result(name, before, out):
    """PyTorch's check_single_result: what a hook returns in place of the
    gradient `before` (an array; a Tensor under create_graph) is a Tensor of
    its type and size, so every gradient the engine passes on is its input's."""
    if before is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not hasattr(out, "_data"):     # (a Tensor: this module cannot import tensor.py)
        raise TypeError(f"expected Variable, but hook returned '{type_name(out)}'")
    before = getattr(before, "_data", before)
    if out._data.dtype != before.dtype:
        was, got = (dtypes._BY_NUMPY[d].legacy_name + "Tensor" for d in (before.dtype, out._data.dtype))
        raise RuntimeError(f"hook '{name}' has changed the type of value (was torch.{was} got torch.{got})")
    if out._data.shape != before.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
