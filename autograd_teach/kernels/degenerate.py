"""What PyTorch's derivatives do where the textbook formula divides by zero
or meets a NaN, in one place for the ops that share the case:

- sign(x) is 0 at NaN (ATen's sign: (0 < x) - (x < 0)), so abs, l1 and the
  1-norm send no gradient to a NaN;
- a gradient shared among the elements equal to a reduction's result
  (max(), min(), median()) goes to the NaNs when the result is NaN
  (evenly_distribute_backward);
- a division by a spread of zero (std of a constant, the angle of (0, 0))
  gives 0, not 0/0 (std_backward's masked_fill_(result == 0, 0)).
"""
import functools

import numpy as np


def sign(a):
    """-1, 0 or 1; 0 at NaN, as ATen's sign (numpy's np.sign gives NaN)."""
    return ((0 < a).astype(a.dtype) - (a < 0)).astype(a.dtype, copy=False) if a.dtype.kind == "f" else np.sign(a)


def evenly_distribute(grad, a, result):
    """grad shared evenly among the elements equal to result, or among the
    NaNs when result is NaN; 0 elsewhere (a masked fill, so a NaN or inf
    grad does not leak into the other elements)."""
    mask = np.isnan(a) if np.isnan(result) else a == result
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(mask, grad / mask.sum(), np.zeros((), grad.dtype)).astype(grad.dtype, copy=False)


def divide_or_zero(num, den):
    """num / den, 0 where den is 0 (PyTorch masks these: std of a constant,
    atan2 at the origin)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, np.zeros((), num.dtype), num / den).astype(num.dtype, copy=False)


def accumulates_in_float32(method):
    """For a reduction's forward (or backward): float16 arrays are reduced
    in float32 and the result rounded to float16 once, as PyTorch's CPU
    kernels accumulate reduced precision (acc_type<Half> is float):
    ones(5000, dtype=float16).cumsum(0)[-1] is 5000, not float16's 2048."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if not any(type(a) is np.ndarray and a.dtype == np.float16 for a in args):
            return method(self, *args, **kwargs)
        wide = [a.astype(np.float32) if type(a) is np.ndarray and a.dtype == np.float16 else a for a in args]
        out = method(self, *wide, **kwargs)
        with np.errstate(over="ignore"):        # beyond float16's range: inf, as in PyTorch
            return _to_half(out)
    return wrapper


def _to_half(out):
    if isinstance(out, tuple):
        return tuple(None if o is None else np.asarray(o).astype(np.float16) for o in out)
    return np.asarray(out).astype(np.float16)
