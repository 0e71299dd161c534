"""Grad mode: whether ops record a graph. In PyTorch this is thread-local state
toggled by torch.no_grad / torch.enable_grad / torch.set_grad_enabled; each
works as a context manager and as a decorator."""
import functools

_enabled = True


def is_grad_enabled():
    return _enabled


def _set(mode):
    global _enabled
    _enabled = bool(mode)


class _GradMode:
    def __init__(self, mode):
        self.mode = bool(mode)

    def __enter__(self):
        self._prev = _enabled
        _set(self.mode)

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with _GradMode(mode):   # a fresh context per call: calls may nest
                return fn(*args, **kwargs)
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


class set_grad_enabled(_GradMode):
    """Takes effect at once, so `torch.set_grad_enabled(False)` works as a plain
    call; a `with` block or a decorated call restores the previous mode."""

    def __init__(self, mode):
        super().__init__(mode)
        self._prev = _enabled
        _set(self.mode)

    def __enter__(self):
        pass

    def __call__(self, fn):
        _set(self._prev)   # as a decorator, the mode applies inside calls only
        return super().__call__(fn)


inference_mode = no_grad
