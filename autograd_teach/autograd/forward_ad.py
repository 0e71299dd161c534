"""torch.autograd.forward_ad: forward-mode AD with dual tensors.

    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        x = fwAD.make_dual(primal, tangent)     # x + ε·tangent
        y = f(x)                                # every op carries the tangent along
        y_p, y_t = fwAD.unpack_dual(y)          # f(primal), and J·tangent

One forward pass gives the Jacobian-vector product J·v, where backward gives
vᵀ·J: a column of the Jacobian per pass instead of a row. How each op moves
a tangent is in jvp_rules.py; the levels and the bookkeeping in dual.py.
"""
from collections import namedtuple

from ..forward_mode import dual
from ..core.ops.alias import AliasBackward0
from ..core.tensor import Tensor

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"
UnpackedDualTensor.__doc__ = "What unpack_dual returns: the primal (a view) and the tangent (None if it has none)."


class _FwPrimal(AliasBackward0):
    """out = self   (the primal of a dual tensor: a view of it, without its tangent)

    self: grad
    """

    def name(self):
        return "torch::autograd::Identity"     # a C++ node in PyTorch, named with its namespace


_FwPrimal.__name__ = "Identity"     # PyTorch's node for it; nn.Identity owns the name as a class here


def enter_dual_level():
    """Enter a new forward-mode level; returns its index. Only one may exist, as in PyTorch."""
    return dual.enter_level().index


def exit_dual_level(*, level=None):
    if not dual.levels:
        raise RuntimeError("Dual level must be a positive number.")
    index = dual.levels[-1].index if level is None else level
    if index != dual.levels[-1].index:
        raise RuntimeError(dual.NOT_LAST)
    dual.exit_level(dual.levels[-1])


class dual_level:
    """Context manager: the level within which dual tensors live; on exit every
    tangent of the level is forgotten (make_dual's tensors become plain ones)."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


def _level(level):
    if not dual.levels:
        return None
    if level is None:
        return dual.levels[-1]
    return dual.levels[level] if 0 <= level < len(dual.levels) else None


def make_dual(tensor, tangent, *, level=None):
    """A view of tensor that carries tangent at the level (default: the current one)."""
    lvl = _level(level)
    if level is not None and lvl is None and dual.levels:
        raise RuntimeError("Invalid level given to _make_dual")
    if lvl is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    return make_dual_at(lvl, tensor, tangent)


def make_dual_at(lvl, tensor, tangent):
    """make_dual at a level given as itself (torch.func.jvp: its index may change under other threads)."""
    for name, t in (("primal", tensor), ("tangent", tangent)):
        if not t.is_floating_point():     # (complex tensors do not exist here)
            raise ValueError(f"Expected {name} to be floating point or complex, but got: {t.dtype}")
    if tangent.shape != tensor.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           "Tensor, this is not supported. Tensor is of size "
                           f"[{', '.join(map(str, tensor.shape))}] while the given forward gradient is of size "
                           f"[{', '.join(map(str, tangent.shape))}].")
    if lvl.tangent(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                           f"level {lvl.index} is not supported.")
    out = tensor.view_as(tensor)
    lvl.set(out, tangent)
    return out


def unpack_dual(tensor, *, level=None):
    """(primal, tangent): the primal is a view without this level's tangent;
    the tangent is None for a tensor that has none. With no level (none entered,
    or a negative one asked for) there is nothing to unpack: as in PyTorch, the
    argument comes back as it is, whatever it is, and no view is made."""
    index = (dual.levels[-1].index if dual.levels else -1) if level is None else level
    if index < 0:
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not {type(tensor).__name__}")
    lvl = _level(index)
    if lvl is None and any(lv.tangent(tensor) is not None for lv in dual.levels):
        raise RuntimeError("Invalid level given to _fw_primal")
    if lvl is None:         # no such level: no tangent there, but still a view, as PyTorch's _fw_primal
        return UnpackedDualTensor(_FwPrimal.apply(tensor), None)
    return unpack_dual_at(lvl, tensor)


def unpack_dual_at(lvl, tensor):
    with dual.suspended(lvl):
        primal = _FwPrimal.apply(tensor)
    return UnpackedDualTensor(primal, lvl.tangent(tensor))
