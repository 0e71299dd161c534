"""The Optimizer base: parameter groups, per-parameter state, zero_grad,
state_dict. Subclasses say how one parameter is updated (`_update`): PyTorch's
single-tensor loop, in Tensor ops, run under no_grad as PyTorch runs it
(`param.add_(grad, alpha=-lr)` writes the parameter in place and bumps its
version). The rounding PyTorch's kernels do, fused multiply-adds in add with
an alpha, lerp and addcmul, is those ops' business (kernels/float32.py,
ops/ternary.py), so 100 steps give PyTorch's bits."""
import warnings

from ..core.grad_mode import no_grad
from ..nn.parameter import zero_grad_of
from ..core.tensor import Tensor

_required = object()


def _cast(param, key, value):
    """A loaded state tensor as PyTorch takes it: "step" as it is, the others in
    the parameter's dtype; neither is copied when it has that dtype already, so
    the loaded state shares its tensors with the dict it came from (a dict
    from torch.load is a copy; one from another optimizer's state_dict() is not)."""
    if not isinstance(value, Tensor) or key == "step" or not param.is_floating_point():
        return value
    return value.to(dtype=param.dtype)


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
        if len({id(p) for p in group["params"]}) != len(group["params"]):   # each is then updated twice
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
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
        with no_grad():
            for group in self.param_groups:
                params = [p for p in group["params"] if p.grad is not None]
                states = [self._state_for_step(p) for p in params]
                for p, state in zip(params, states):
                    self._update(p, p.grad, state, group)
                for p, state in zip(params, states):
                    if state:
                        self.state[p] = state
        return loss

    # Whether a step reads every parameter's state before updating any, and
    # stores it after (SGD's momentum_buffer_list): then a parameter listed
    # twice starts two buffers on its first step, and one without state (plain
    # SGD) has none in state_dict. Otherwise (Adam...) the state is created
    # as each parameter comes, and a parameter listed twice shares it.
    reads_state_first = False

    def _state_for_step(self, p):
        return dict(self.state.get(p, ())) if self.reads_state_first else self.state.setdefault(p, {})

    def _update(self, param, grad, state, group):
        raise NotImplementedError(f"{type(self).__name__} must say how one parameter is updated")

    # -- saving and loading ---------------------------------------------------------
    def state_dict(self):
        index, groups, start = {}, [], 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            # numbered as PyTorch numbers them: by position, a parameter listed
            # twice in a group under its last position
            index.update({id(p): i for i, p in enumerate(group["params"], start) if id(p) not in index})
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
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
        self.state = {params[i]: {k: _cast(params[i], k, v) for k, v in s.items()}
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
