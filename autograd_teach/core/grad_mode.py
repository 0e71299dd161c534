"""Grad mode: whether ops record a graph. torch.no_grad / torch.enable_grad /
torch.set_grad_enabled / torch.inference_mode toggle it; each works as a
context manager and as a decorator (of functions and of generator functions).

As in PyTorch, both flags (grad mode and inference mode) belong to the thread
that sets them: a `with torch.no_grad():` in a background thread (a widget
callback, a learner's `threading` loop) does not switch recording off in the
main thread, and every new thread starts with grad mode on.
"""
import functools
import inspect
import threading


class _ThreadState(threading.local):
    """One copy per thread: __init__ runs again in each new thread, so every
    thread starts here. (Instance attributes, not class defaults: every op
    reads them, and a thread-local finds its own attributes faster.)"""

    def __init__(self):
        self.enabled = True       # grad mode: do ops record a graph?
        self.inference = False    # inference mode: are new tensors inference tensors?
        self.no_grad_entry = self.inference_entry = None   # _Counted, while the mode is off / on


_state = _ThreadState()
# The calling thread's flags, read-only for the rest of the core.
flags = _state

# Which threads have grad mode off, and which are in inference mode: one entry
# each. Reading a thread-local costs about as much as a small op's arithmetic,
# so an op first asks these: while no thread has switched grad mode off (a
# forward pass, nearly always), grad mode is on in every thread and the op
# reads no flag (node.py, tensor.py).
threads_without_grad = []
threads_in_inference = []


class _Counted:
    """A thread's entry in one of the lists above, held by its state while the
    thread has grad mode off (or inference mode on). Dropping it takes the
    entry out: when the thread switches back, or when the thread ends (its
    thread-local state is freed then), so a thread that ends with grad mode
    off leaves nothing behind.
    (list.append and list.pop are atomic: threads need no lock.)"""
    __slots__ = ("entries",)

    def __init__(self, entries):
        self.entries = entries
        entries.append(None)

    def __del__(self):
        if self.entries:      # (always, unless someone emptied the list by hand)
            self.entries.pop()


def is_grad_enabled():
    return _state.enabled


def is_inference_mode_enabled():
    return _state.inference


def _set(mode):
    swap_grad_enabled(mode)


def _set_inference(mode):
    if mode != _state.inference:
        _state.inference_entry = _Counted(threads_in_inference) if mode else None
        _state.inference = mode


def swap_grad_enabled(mode):
    """Set grad mode and return the previous one: what the engine does around
    a backward run (set_grad_enabled would make an object for it, twice)."""
    state = _state.__dict__   # this thread's flags: one thread-local lookup (each costs a small op's time), not three
    previous, mode = state["enabled"], bool(mode)   # (bool: create_graph=2 must not pop another thread's entry)
    if mode != previous:      # the one place grad mode changes: keep threads_without_grad in step
        state["no_grad_entry"] = None if mode else _Counted(threads_without_grad)
        state["enabled"] = mode
    return previous


class _GradMode:
    """Sets grad mode to `self.mode` on entry and restores the previous mode on
    exit (also when the block raises)."""

    def __init__(self, mode):
        self.mode = bool(mode)

    def __enter__(self):
        self._prev = _state.enabled
        _set(self.mode)

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def _fresh(self):
        return _GradMode(self.mode)

    def __call__(self, fn):
        fresh = self._fresh   # a new context per call: calls may nest
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(fresh, fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with fresh():
                return fn(*args, **kwargs)
        return wrapper


def _wrap_generator(fresh, gen_fn):
    """Run the generator's body under the mode, but give the caller back its
    own mode at every `yield` (as PyTorch's torch.utils._contextlib does)."""

    @functools.wraps(gen_fn)
    def wrapper(*args, **kwargs):
        gen = gen_fn(*args, **kwargs)
        try:
            with fresh():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with fresh():
                        gen.close()
                    raise
                except BaseException as exc:      # thrown in by the caller: pass it on
                    with fresh():
                        response = gen.throw(exc)
                else:
                    with fresh():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value
    return wrapper


class no_grad(_GradMode):
    def __new__(cls, orig_func=None):
        self = super().__new__(cls)
        if orig_func is not None:      # `@torch.no_grad` without parentheses
            self.__init__()
            return self(orig_func)
        return self

    def __init__(self, orig_func=None):
        super().__init__(False)


class enable_grad(no_grad):
    def __init__(self, orig_func=None):
        _GradMode.__init__(self, True)


class inference_mode(_GradMode):
    """no_grad that also marks the tensors made inside as inference tensors
    (PyTorch's also skips version counters and view tracking for them).
    inference_mode(False) *enables* grad, even inside no_grad, as PyTorch's
    does."""

    def __new__(cls, mode=True):
        self = super().__new__(cls)
        if not isinstance(mode, bool):   # `@torch.inference_mode` without parentheses
            self.__init__()
            return self(mode)
        return self

    def __init__(self, mode=True):
        super().__init__(not mode)
        self.inference = bool(mode)

    def __enter__(self):
        self._prev_inference = _state.inference
        _set_inference(self.inference)
        super().__enter__()

    def __exit__(self, *exc):
        _set_inference(self._prev_inference)
        return super().__exit__(*exc)

    def _fresh(self):
        return inference_mode(self.inference)


class set_grad_enabled(_GradMode):
    """Takes effect at once, so `torch.set_grad_enabled(False)` works as a plain
    call. As PyTorch's, the object remembers the mode from when it was made:
    every `with` block on it sets its mode and, on exit, restores that
    remembered mode. A decorated call restores the mode from before the call."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        super().__init__(mode)
        self._prev = _state.enabled
        _set(mode)

    def __enter__(self):
        _set(self.mode)

    def __call__(self, fn):
        _set(self._prev)   # as a decorator, the mode applies inside calls only
        return super().__call__(fn)
