"""numpy's floating-point warnings off while an op computes."""
import numpy as np

# PyTorch computes with inf and nan silently; numpy warns ("divide by zero
# encountered in log"). Every op's forward and backward runs with numpy's
# floating-point warnings off: numpy keeps that setting in a context variable,
# set here directly, as np.errstate sets it but at a tenth of the cost.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as _numpy_errors
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        _QUIET = _numpy_errors.get()
except ImportError:     # another numpy: the documented, slower way
    _numpy_errors = None


def quiet_call(fn, *args):
    """fn(*args) with numpy's floating-point warnings off."""
    if _numpy_errors is None:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return fn(*args)
    token = _numpy_errors.set(_QUIET)
    try:
        return fn(*args)
    finally:
        _numpy_errors.reset(token)
