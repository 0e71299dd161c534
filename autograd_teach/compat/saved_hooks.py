"""Hooks for saved tensors (torch.autograd.graph.saved_tensors_hooks): while a
`with saved_tensors_hooks(pack_hook, unpack_hook):` block is open, every
tensor an op saves for backward goes through pack_hook(tensor), and what it
returns is kept instead of the tensor; backward gets unpack_hook(packed)
back. A learner can watch what backward keeps (print it), or keep it
somewhere else (a copy, a file) to save memory, as PyTorch's tutorial does.

As in PyTorch the hooks belong to the thread that opened the block, the
innermost block wins, and a tensor saved under hooks is not version-checked
(the hooks decide what backward sees). Nothing is hooked until a block opens:
node.py looks at `in_use` (open blocks in any thread) before looking further.
"""
import threading


class _ThreadState(threading.local):
    def __init__(self):
        self.stack = []          # (pack_hook, unpack_hook) of the open blocks, innermost last
        self.disabled = None     # disable_saved_tensors_hooks' message, while one is open


_state = _ThreadState()
_lock = threading.Lock()
in_use = 0                       # open saved_tensors_hooks blocks, all threads together


def pack(t):
    """(packed, unpack_hook) for a tensor saved now, or None when this thread has no hooks.
    The pack hook runs with the hooks off, so that ops inside it do not pack again."""
    stack = _state.stack
    if not stack:
        return None
    pack_hook, unpack_hook = stack[-1]
    _state.stack = []
    try:
        return pack_hook(t), unpack_hook
    finally:
        _state.stack = stack


def unpack(hooks):
    packed, unpack_hook = hooks
    out = unpack_hook(packed)
    if not hasattr(out, "_data"):      # a Tensor (this module cannot import tensor.py)
        raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                        f"{type(out).__name__}")
    return out


class saved_tensors_hooks:
    """with saved_tensors_hooks(pack_hook, unpack_hook): ops in the block save
    pack_hook(tensor) for backward, which gets unpack_hook(packed) back."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        global in_use
        if _state.disabled is not None:
            raise RuntimeError(_state.disabled)
        _state.stack.append((self.pack_hook, self.unpack_hook))
        with _lock:
            in_use += 1
        return self

    def __exit__(self, *exc):
        global in_use
        _state.stack.pop()
        with _lock:
            in_use -= 1
        return False


class disable_saved_tensors_hooks:
    """with disable_saved_tensors_hooks(message): opening a saved_tensors_hooks
    block inside raises RuntimeError(message)."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        self.previous, _state.disabled = _state.disabled, self.error_message
        return self

    def __exit__(self, *exc):
        _state.disabled = self.previous
        return False
