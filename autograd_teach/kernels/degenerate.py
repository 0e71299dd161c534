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


# -- the cases the core's ops delegate here (core/ops/reduction.py, arithmetic.py, node.py) --

def reduced_axes(dims, ndim):
    """The numpy axis of a reduction over dims: dim=() and dim=[] reduce
    over every dim in PyTorch (numpy's axis=() reduces over none)."""
    return dims if dims and ndim else None


def check_amax_dims(name, a, dim, dims):
    """amax/amin over nothing: PyTorch's two errors, naming the dim as given."""
    if a.size == 0 and not dims:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")
    given = (dim,) if isinstance(dim, int) else tuple(dim)
    for d, g in zip(dims, sorted(given, key=lambda x: x % max(a.ndim, 1))):
        if a.ndim and a.shape[d] == 0:     # (a 0-d tensor has one element along its dim 0 or -1)
            raise IndexError(f"{name}(): Expected reduction dim {g} to have non-zero size.")


def check_inf_norm_dims(a, ord, dim, dims):
    """The inf norm is a max: over an empty dim it has no value."""
    empty = [d for d in (dims or range(a.ndim)) if a.ndim and a.shape[d] == 0]
    if ord == float("inf") and empty:
        raise RuntimeError(f"linalg.vector_norm cannot compute the inf norm on the dimension "
                           f"{dim if isinstance(dim, int) else empty[0]}because this dimension is empty and "
                           "the operation does not have an identity")


def logsumexp_dims(dims, ndim, keepdim):
    """logsumexp(dim=()) reduces over all dims, but only with keepdim:
    without, PyTorch's out= check fails."""
    if dims or not ndim:
        return dims
    if not keepdim:
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape [{', '.join(['1'] * ndim)}]")
    return tuple(range(ndim))


def evenly_distribute_backward(grad, self, result):
    """max()/min()/median() (Tensors): grad shared among the elements equal
    to the result, or among the NaNs when it is NaN (PyTorch's form for
    tensor subclasses: differentiable in grad)."""
    mask = self.isnan() if result.isnan().item() else self == result
    return mask * (grad / mask.sum())


def atan2_recip(a, b):
    """1 / (a * a + b * b), 0 where that is infinite (at the origin: the
    angle of (0, 0) has gradient 0, PyTorch's atan2_backward). Arrays or Tensors."""
    if isinstance(a, np.ndarray):
        with np.errstate(divide="ignore"):
            recip = 1 / (a * a + b * b)
        return np.where(np.isinf(recip), recip.dtype.type(0), recip)
    recip = (a * a + b * b).reciprocal()
    return recip.masked_fill(recip.isinf(), 0)


def size_mismatch(old, new):
    """PyTorch's message when a saved tensor's data was replaced (`.data =`)
    by one of another shape and backward's formula meets the two."""
    k = next((i for i in range(1, min(len(new), len(old)) + 1) if new[-i] != old[-i]), 1)
    a, b = (old[-k] if old else 1), (new[-k] if new else 1)
    return (f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
            f"non-singleton dimension {max(len(new), len(old)) - k}")


def live_data(data, ref):
    """What backward sees of a saved input (core/node.py's SavedTensor: its
    data, and a weak reference to its tensor): in PyTorch the tensor itself,
    so `t.data = new` after the forward (which changes no version) is seen;
    a new shape meets the old one's gradient."""
    t = None if ref is None else ref()      # (a saved output has no ref: it is the data)
    if t is None or t._data is data or t._data.shape == data.shape:
        return data if t is None else t._data
    raise RuntimeError(size_mismatch(data.shape, t._data.shape))
