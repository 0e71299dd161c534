"""Hooks of nn.Module: functions called around a module's forward, and
during backward with the gradients of its inputs and outputs.

    module.register_forward_pre_hook(hook)   hook(module, args) -> None or new args
    module.register_forward_hook(hook)       hook(module, args, output) -> None or new output

With with_kwargs=True the hooks also get the keyword arguments
(hook(module, args, kwargs) -> None or (args, kwargs); hook(module, args,
kwargs, output)). prepend=True puts a hook before the others. Each returns a
handle whose remove() takes the hook away. Module.__call__ goes through
`call` only when a hook is registered, so a module without hooks pays nothing.

    module.register_full_backward_pre_hook(hook)  hook(module, grad_output) -> None or new grad_output
    module.register_full_backward_hook(hook)      hook(module, grad_input, grad_output) -> None or new grad_input

(see BackwardHook below for how they are set up, as PyTorch sets them up).
"""
import warnings

from ...core import grad_mode
from ...autograd.function import Function
from ...core.node import RemovableHandle
from ...core.tensor import Tensor


def add(hooks, with_kwargs_ids, hook, prepend, with_kwargs=False):
    """Put hook into the dict of hooks, under its handle's id (first if prepend);
    with_kwargs_ids (None for the backward hooks) notes the hooks that take kwargs."""
    handle = RemovableHandle(hooks, None, *([] if with_kwargs_ids is None else [with_kwargs_ids]))
    hooks[handle.id] = hook
    if prepend:
        for key in [k for k in hooks if k != handle.id]:
            hooks[key] = hooks.pop(key)         # the others go behind it, in their order
    if with_kwargs:
        with_kwargs_ids[handle.id] = True
    return handle


def call(module, args, kwargs, pre_hooks, pre_with_kwargs, hooks, with_kwargs, backward_hooks=(),
         backward_pre_hooks=()):
    """module(*args, **kwargs) with its forward hooks, and its backward hooks
    set up around the forward, in PyTorch's order (Module._call_impl)."""
    for key, hook in list(pre_hooks.items()):
        if key in pre_with_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                       f"but got {result}.")
                args, kwargs = result
        else:
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
    bw_hook = None
    if backward_hooks or backward_pre_hooks:
        bw_hook = BackwardHook(module, list(backward_hooks), list(backward_pre_hooks))
        args = bw_hook.setup_input_hook(args)
    output = module.forward(*args, **kwargs)
    for key, hook in list(hooks.items()):
        result = hook(module, args, kwargs, output) if key in with_kwargs else hook(module, args, output)
        if result is not None:
            output = result
    return output if bw_hook is None else bw_hook.setup_output_hook(output)


# -- full backward hooks: register_full_backward_hook / register_full_backward_pre_hook ---------
#
# As in PyTorch (torch/utils/hooks.py: BackwardHook), a module with backward
# hooks passes its tensor inputs, and then its outputs, through an identity
# custom Function. Its node, BackwardHookFunctionBackward, is where the hooks
# sit: on the outputs' node a node hook (grad_fn.register_hook) catches the
# gradients of the outputs (and runs the pre-hooks, which may change them); on
# the inputs' node another catches the gradients of the inputs and calls
# hook(module, grad_input, grad_output), which may change grad_input.

class BackwardHookFunction(Function):
    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


def _pack_with_none(indices, values, size):
    res = [None] * size
    for i, v in zip(indices, values):
        res[i] = v
    return tuple(res)


def _unpack_none(indices, values):
    return tuple(values[i] for i in indices)


class BackwardHook:
    """One forward call's backward hooks (PyTorch's torch.utils.hooks.BackwardHook)."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module, self.user_hooks, self.user_pre_hooks = module, user_hooks, user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index = self.output_tensors_index = None

    def _apply_on_tensors(self, fn, args):
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in idx]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        new = BackwardHookFunction.apply(*tensors)
        if len(new) == 0:
            raise RuntimeError("Cannot set Module backward hook for a Module with no input Tensors.")
        grad_fns = [t.grad_fn for t in new if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"]
        if not grad_fns:
            raise RuntimeError("Error while setting up backward hooks. Please open an issue with a code sample to "
                               "reproduce this.")
        fn(grad_fns[0])
        out = list(args)
        for i, t in zip(idx, new):
            out[i] = t
        return tuple(out), idx

    def setup_input_hook(self, args):
        def hook(grad_input, _):
            if self.grad_outputs is None:    # the gradient reached the inputs without passing the outputs
                return None
            res = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got {len(out)}, "
                                       f"but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return _unpack_none(self.input_tensors_index, res)

        res, self.input_tensors_index = self._apply_on_tensors(lambda grad_fn: grad_fn.register_hook(hook), args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, args):
        def hook(_, grad_output):
            self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
            for pre_hook in self.user_pre_hooks:
                out = pre_hook(self.module, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(self.grad_outputs):
                    raise RuntimeError(f"Backward pre hook returned an invalid number of grad_output, got {len(out)}, "
                                       f"but expected {len(self.grad_outputs)}")
                self.grad_outputs = out
            local = self.grad_outputs
            if self.input_tensors_index is None:     # no input needs a gradient: call the hooks now
                warnings.warn(NO_INPUT_GRAD, UserWarning, stacklevel=2)
                grad_inputs = _pack_with_none([], [], self.n_inputs)
                for user_hook in self.user_hooks:
                    res = user_hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                        raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                           "always return None or None for all gradients.")
                self.grad_outputs = None
            if local is not None:
                return tuple(local[i] for i in self.output_tensors_index)
            return None

        is_tuple = isinstance(args, tuple)
        args = args if is_tuple else (args,)
        res, self.output_tensors_index = self._apply_on_tensors(lambda grad_fn: grad_fn.register_hook(hook), args)
        self.n_outputs = len(args)
        return res if is_tuple else res[0]


NO_INPUT_GRAD = ("Full backward hook is firing when gradients are computed with respect to module outputs since no "
                 "inputs require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                 "#torch.nn.Module.register_full_backward_hook for more details.")
