"""round(decimals=), div(rounding_mode=), logcumsumexp: the overloads d2l
reaches for, each its own node in PyTorch (RoundBackward1, DivBackward2/3,
LogcumsumexpBackward0)."""
import numpy as np

from ..compat import dtypes
from ..core.node import OpNode, quiet
from ..core.ops.selection import where, zeros_like  # noqa: F401  (the rules call them)

MODES = (None, "trunc", "floor")


class RoundBackward1(OpNode):
    """out = self.round(decimals=decimals)   (to a multiple of 10^-decimals, half to even)

    self: zeros_like(grad)
    """
    attrs = ("decimals",)

    def forward(self, a, decimals):
        if a.dtype.kind != "f":
            raise NotImplementedError(f"\"round_cpu\" not implemented for '{dtypes.from_numpy(a.dtype).legacy_name}'")
        self.decimals = decimals
        ten = a.dtype.type(10.0 ** abs(decimals))      # in the input's dtype, as PyTorch's kernel
        return np.rint(a / ten) * ten if decimals < 0 else np.rint(a * ten) / ten

    def backward(self, grad):
        return np.zeros_like(grad)


def _divided(a, b, mode):
    """a / b, then rounded as the mode says: trunc towards zero, floor down
    (Python's // for floats, as PyTorch's div_floor)."""
    if mode is None:
        return a / b
    if mode == "floor":
        return np.floor_divide(a, b)
    if a.dtype.kind == "f":
        return np.trunc(a / b)
    q = np.floor_divide(a, b)                       # integers: C's division, towards zero
    return q + ((q < 0) & (q * b != a))


class DivBackward2(OpNode):
    """out = self.div(other, rounding_mode=rounding_mode)

    self: grad / other if rounding_mode is None else zeros_like(grad)
    other: -grad * self / (other * other) if rounding_mode is None else zeros_like(grad)

    Rounded, the quotient is flat almost everywhere: its gradient is zero.
    """
    inputs = ("self", "other")
    elementwise = True
    saved = ("self", "other")
    needed_for = {"self": "other"}
    attrs = ("rounding_mode",)

    @quiet
    def forward(self, a, b, rounding_mode=None):
        self.rounding_mode = rounding_mode
        return _divided(a, b, rounding_mode)

    def out_dtype(self, dt):     # true division of integers is a float; rounded, it stays an integer
        return dtypes.default_float if self.rounding_mode is None and not dt.is_floating_point else dt

    @quiet
    def backward(self, grad, a, b):
        if self.rounding_mode is not None:
            return np.zeros_like(grad), np.zeros_like(grad)
        need_a, need_b = self.needs_input_grad
        return (grad / b if need_a else None), (-grad * a / (b * b) if need_b else None)


class DivBackward3(OpNode):
    """out = self.div(other, rounding_mode=rounding_mode)   (other is a number)

    self: grad / other if rounding_mode is None else zeros_like(grad)
    """
    promote_params = True
    attrs = ("other", "rounding_mode")

    @quiet
    def forward(self, a, other, rounding_mode=None):
        self.other, self.rounding_mode = other, rounding_mode
        return _divided(a, np.asarray(other, dtype=a.dtype), rounding_mode)

    out_dtype = DivBackward2.out_dtype

    def backward(self, grad):
        return np.zeros_like(grad) if self.rounding_mode is not None else grad / self.other


class LogcumsumexpBackward0(OpNode):
    """out = self.logcumsumexp(dim)   (log of the running sum of exp, along dim)

    self: logcumsumexp_backward(grad, self, result, dim)

    d out_i / d self_k = exp(self_k - out_i) for k <= i. PyTorch sums those
    in log space, positive and negative parts of grad apart, so that nothing
    overflows; so does logcumsumexp_backward.
    """
    saved = ("self", "result")
    attrs = ("dim",)
    to_float = True

    @quiet
    def forward(self, a, dim):
        self.dim = dim % max(a.ndim, 1)
        return np.logaddexp.accumulate(a, axis=self.dim) if a.ndim else a.copy()

    @quiet
    def backward(self, grad, a, result):
        if grad.ndim == 0:
            return grad
        lowest = np.finfo(grad.dtype).min
        reverse = lambda x: np.flip(np.logaddexp.accumulate(np.flip(x, self.dim), axis=self.dim), self.dim)  # noqa: E731
        log_abs = np.log(np.abs(grad))
        pos = np.exp(reverse(np.where(grad > 0, log_abs, lowest) - result) + a)
        neg = np.exp(reverse(np.where(grad < 0, log_abs, lowest) - result) + a)
        return pos - neg


def logcumsumexp_backward(grad, self, result, dim):
    """PyTorch's, on Tensors (for create_graph): the two log-space running sums, from the end."""
    if grad.dim() == 0:
        return grad
    lowest = float(np.finfo(grad._data.dtype).min)

    def reverse(x):
        return x.flip(dim).logcumsumexp(dim).flip(dim)
    log_abs = grad.abs().log()
    pos = (reverse(where(grad > 0, log_abs, lowest) - result) + self).exp()
    neg = (reverse(where(grad < 0, log_abs, lowest) - result) + self).exp()
    return pos - neg


def div(self, other, *, rounding_mode):
    """Tensor.div(other, rounding_mode=...): DivBackward2, a number too (PyTorch's
    Python binding wraps it as a tensor; DivBackward3 is what C++ records)."""
    if rounding_mode not in MODES:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    return DivBackward2.apply(self, other, rounding_mode)
