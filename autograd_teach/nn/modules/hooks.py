"""Forward hooks of nn.Module: functions called around a module's forward.

    module.register_forward_pre_hook(hook)   hook(module, args) -> None or new args
    module.register_forward_hook(hook)       hook(module, args, output) -> None or new output

With with_kwargs=True the hooks also get the keyword arguments
(hook(module, args, kwargs) -> None or (args, kwargs); hook(module, args,
kwargs, output)). prepend=True puts a hook before the others. Each returns a
handle whose remove() takes the hook away. Module.__call__ goes through
`call` only when a hook is registered, so a module without hooks pays nothing.
"""
from ...node import RemovableHandle


def add(hooks, with_kwargs_ids, hook, prepend, with_kwargs):
    """Put hook into the dict of hooks, under its handle's id (first if prepend)."""
    handle = RemovableHandle(hooks, None, with_kwargs_ids)
    hooks[handle.id] = hook
    if prepend:
        for key in [k for k in hooks if k != handle.id]:
            hooks[key] = hooks.pop(key)         # the others go behind it, in their order
    if with_kwargs:
        with_kwargs_ids[handle.id] = True
    return handle


def call(module, args, kwargs, pre_hooks, pre_with_kwargs, hooks, with_kwargs):
    """module(*args, **kwargs) with its forward hooks, in PyTorch's order."""
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
    output = module.forward(*args, **kwargs)
    for key, hook in list(hooks.items()):
        result = hook(module, args, kwargs, output) if key in with_kwargs else hook(module, args, output)
        if result is not None:
            output = result
    return output
