"""The Optimizer base: parameter groups, per-parameter state, zero_grad,
state_dict. Subclasses say how one parameter is updated (`_update`).

The updates run on the numpy arrays, outside autograd (as PyTorch's run under
no_grad), and each writes the parameter in place and bumps its version, as
`param.add_(...)` does. They repeat PyTorch's float operations in PyTorch's
order, including its fused multiply-adds, so 100 steps give the same bits."""
import numpy as np

from ..compat import random
from ..nn.parameter import zero_grad_of
from ..core.tensor import Tensor

_required = object()


def fma(a, b, c):
    """a * b + c rounded once, in a's precision: what PyTorch's CPU kernels
    compute for `c.add_(a, alpha=b)` and for lerp."""
    if a.dtype == np.float64:
        return random.fma64(a, b, c)
    return random.fma32(a, b, c).astype(a.dtype)


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {type(params).__module__}.{type(params).__name__}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        group = dict(param_group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is "
                                f"{type(p).__module__}.{type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is _required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required optimization "
                                 f"parameter {name}")
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        zero_grad_of((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            from ..core.grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state.setdefault(p, {})
                new = self._update(p._data, p.grad._data, state, group)
                p._data[...] = new
                p._bump_version()         # an in-place update, as PyTorch counts it
        return loss

    # -- saving and loading ---------------------------------------------------------
    def state_dict(self):
        index, groups = {}, []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        params = [p for g in self.param_groups for p in g["params"]]
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
            mine.update({k: v for k, v in saved.items() if k != "params"})
        self.state = {params[i]: {k: (v.clone() if isinstance(v, Tensor) else v) for k, v in s.items()}
                      for i, s in state_dict["state"].items()}

    def __repr__(self):
        out = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            out += "\n"
            out += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    out += f"    {key}: {group[key]}\n"
        return out + ")"
