"""nn.Module: a container that finds its parameters by attribute assignment.

`self.fc = nn.Linear(2, 1)` registers a submodule and `self.w =
nn.Parameter(...)` a parameter, so that `parameters()` can walk them all
and `named_parameters()` names them by their path ('fc.weight')."""
from collections import OrderedDict, namedtuple

from ...compat.device import check as check_device, device
from ...core import grad_mode
from ...core.tensor import Tensor
from ..parameter import Parameter, zero_grad_of
from . import hooks


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_, num_spaces):
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(s)


def _typename(obj):
    """torch.typename: 'torch.FloatTensor' for a tensor, 'int' for a
    builtin, 'module.Class' otherwise."""
    if isinstance(obj, Tensor):
        return obj.type()
    module, name = type(obj).__module__, type(obj).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


class Module:
    training: bool
    _version = 1     # saved in state_dict()'s metadata: a module whose keys change says how to read old ones

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        for name in ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
                     "_forward_hooks_with_kwargs", "_backward_hooks", "_backward_pre_hooks"):
            object.__setattr__(self, name, OrderedDict())

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or self._backward_pre_hooks:
            return hooks.call(self, args, kwargs, self._forward_pre_hooks, self._forward_pre_hooks_with_kwargs,
                              self._forward_hooks, self._forward_hooks_with_kwargs,    # nn/modules/hooks.py
                              self._backward_hooks.values(), self._backward_pre_hooks.values())
        return self.forward(*args, **kwargs)

    # -- forward hooks (nn/modules/hooks.py) --------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        return hooks.add(self._forward_pre_hooks, self._forward_pre_hooks_with_kwargs, hook, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        return hooks.add(self._forward_hooks, self._forward_hooks_with_kwargs, hook, prepend, with_kwargs)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        return hooks.add(self._backward_pre_hooks, None, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        return hooks.add(self._backward_hooks, None, hook, prepend)

    # -- registration ----------------------------------------------------------
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter "
                                f"'{name}' (torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            modules = self.__dict__.get("_modules")
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            modules[name] = value
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child "
                                f"module '{name}' (torch.nn.Module or None expected)")
            self._modules[name] = value
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name):
        for d in (self.__dict__, self._parameters, self._buffers, self._modules):
            d.pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to "
                            f"parameter '{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """A tensor that belongs to the module but is not a parameter (a
        running mean, a step count); in state_dict unless persistent=False."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def _persistent_buffers(self):
        return [(k, v) for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set]

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    # -- walking ---------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        memo = set() if memo is None else memo
        if self in memo and remove_duplicate:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, store, prefix, recurse, remove_duplicate):
        """Shared weights are listed once, under their first name, as in PyTorch."""
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients -----------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        zero_grad_of(self.parameters(), set_to_none)

    # -- saving and loading --------------------------------------------------------
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """name -> tensor, detached (sharing storage) unless keep_vars."""
        out = OrderedDict() if destination is None else destination
        metadata = vars(out).setdefault("_metadata", OrderedDict())   # PyTorch's: each module's version
        for name, module in self.named_modules(prefix=prefix.rstrip(".")):
            metadata[name] = {"version": module._version}
            head = name + "." if name else ""
            for key, value in list(module._parameters.items()) + module._persistent_buffers():
                if value is not None:
                    out[head + key] = value if keep_vars else value.detach()
        return out

    def _upgrade_state_dict(self, state_dict, prefix, version):
        """Fill in keys a checkpoint of an older version (None: it says none) lacks; most modules have none."""

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = dict(state_dict)     # a copy: a module may fill in keys old checkpoints lack
        for name, module in self.named_modules():
            version = None if metadata is None else metadata.get(name, {}).get("version")
            module._upgrade_state_dict(state_dict, name + "." if name else "", version)
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        with grad_mode.no_grad():
            for key, param in own.items():
                if key not in state_dict:
                    continue
                value = state_dict[key]
                if not isinstance(value, Tensor):
                    errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                  f"Tensor-like object from checkpoint but received {type(value)}")
                    continue
                if value.shape != param.shape:
                    errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {param.shape}.")
                    continue
                param.copy_(value)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # -- dtype -------------------------------------------------------------------
    def _cast_parameters(self, dtype):
        with grad_mode.no_grad():
            for p in self.parameters():     # as PyTorch's Module._apply: param.data = fn(param.data)
                p.data = p.data.to(dtype)
                if p.grad is not None:
                    p.grad.data = p.grad.data.to(dtype)
            for module in self.modules():   # floating-point buffers too (running_mean); integer ones stay
                for key, b in module._buffers.items():
                    if b is not None and b.is_floating_point():
                        module._buffers[key] = b.to(dtype)
        return self

    def double(self):
        from ...compat import dtypes
        return self._cast_parameters(dtypes.float64)

    def float(self):
        from ...compat import dtypes
        return self._cast_parameters(dtypes.float32)

    def to(self, *args, **kwargs):
        from ...compat import dtypes
        dtype = kwargs.get("dtype") or next((a for a in args if isinstance(a, dtypes.dtype)), None)
        check_device(kwargs.get("device") or next((a for a in args if isinstance(a, (str, device, int))
                                                   and not isinstance(a, bool)), None))
        return self if dtype is None else self._cast_parameters(dtype)

    def cuda(self, device=None):
        check_device("cuda" if device is None else device)
        return self

    def cpu(self):
        return self

    # -- printing ----------------------------------------------------------------
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            child_lines.append("(" + key + "): " + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"
