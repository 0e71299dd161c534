"""numpy's floating-point warnings off while an op computes.

PyTorch computes with inf and nan silently; numpy warns ("divide by zero
encountered in log"). Every op's forward runs with numpy's floating-point
warnings off (OpNode.apply), and so does a whole backward run (the engine's
GraphTask), learner's hooks included. numpy keeps that setting in a context
variable: `numpy_errors.set(QUIET)` switches the warnings off and returns a
token, `numpy_errors.reset(token)` puts back what was there, as np.errstate
does but at a tenth of the cost (a Python call costs as much as a small op).
"""
import contextvars
import threading

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as numpy_errors
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        QUIET = numpy_errors.get()
except ImportError:     # another numpy: the documented, slower way, with the same two calls
    class _Seterr:
        @staticmethod
        def set(quiet):
            return np.seterr(**quiet)

        @staticmethod
        def reset(old):
            np.seterr(**old)

    numpy_errors, QUIET = _Seterr(), dict(divide="ignore", invalid="ignore", over="ignore")


def quiet_call(fn, *args):
    """fn(*args) with numpy's floating-point warnings off."""
    token = numpy_errors.set(QUIET)
    try:
        return fn(*args)
    finally:
        numpy_errors.reset(token)


# The fast paths (ops/fast_paths.py) do it more cheaply still: entering a
# Context costs less than setting and resetting a variable. Each thread gets
# its own copy of its context with the warnings off (a Context may be entered
# by one thread at a time), and an op's arithmetic runs in it:
#     data = (quiet_contexts.get(get_ident()) or quiet_context()).run(forward, ...)
# (a Context is falsy when empty; these always hold numpy's variable)
quiet_contexts = {}
get_ident = threading.get_ident


class _QuietCall:
    """What quiet_context gives where numpy's setting is not a context variable."""
    run = staticmethod(quiet_call)


def quiet_context():
    """The calling thread's Context with numpy's warnings off, made on first use."""
    if not isinstance(numpy_errors, contextvars.ContextVar):
        return _QuietCall
    context = contextvars.copy_context()
    context.run(numpy_errors.set, QUIET)
    quiet_contexts[get_ident()] = context
    return context
