"""prod, var and std: reductions whose derivative needs the input back."""
import math
import warnings

import numpy as np

from ..compat import dtypes
from ..core.node import OpNode, quiet
from ..kernels.degenerate import accumulates_in_float32
from ..core.ops.join import StackBackward0
from ..core.ops.reduction import _expand_back, normalize_dims
from ..core.ops.selection import where  # noqa: F401  (the rules call it)


def _prod_grad(a, axis):
    """d prod / d a_i = product of the others; computed without dividing, so
    zeros in the input are handled (PyTorch does the same)."""
    a = np.moveaxis(a, axis, -1)
    ones = np.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    before = np.cumprod(np.concatenate([ones, a[..., :-1]], axis=-1), axis=-1)
    after = np.flip(np.cumprod(np.flip(np.concatenate([a[..., 1:], ones], axis=-1), -1), axis=-1), -1)
    return np.moveaxis(before * after, -1, axis)


def _prod(a, axis, keepdims):
    """The product along axis. float16 multiplies left to right, each product
    rounded to float16, as PyTorch's CPU prod (unlike its sums, it does not
    accumulate float16 in float32; numpy's prod pairs them up)."""
    if a.dtype != np.float16 or a.shape[axis] == 0:
        return a.prod(axis=axis, keepdims=keepdims)
    with np.errstate(over="ignore"):
        return np.take(np.multiply.accumulate(a, axis=axis), [-1] if keepdims else -1, axis=axis)


class ProdBackward0(OpNode):
    """out = self.prod()

    self: grad * prod_others(self)

    prod_others: the product of the other elements at each position, as
    Tensor ops (result / self where no element is zero).
    """
    saved = ("self", "result")

    def forward(self, a):
        return _prod(a.reshape(-1), 0, False)

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    @quiet
    def backward(self, grad, a, result):
        if a.ndim == 0:
            return grad
        if not (a == 0).any():     # PyTorch: result / self, so a NaN or inf input spreads as there
            return grad * (result / a)
        return grad * _prod_grad(a.reshape(-1), 0).reshape(a.shape)


class ProdBackward1(OpNode):
    """out = self.prod(dim, keepdim)

    self: unsqueeze_to(grad, dim, keepdim) * prod_others(self, dim)

    prod_others: the product of the other elements along dim at each position.
    """
    saved = ("self", "result")
    attrs = ("dim", "keepdim")

    def forward(self, a, dim, keepdim=False):
        (self.dim,) = normalize_dims(dim, a.ndim)
        self.keepdim = keepdim
        return _prod(a, self.dim, keepdim) if a.ndim else a.copy()

    out_dtype = ProdBackward0.out_dtype

    def backward(self, grad, a, result):
        if a.ndim == 0:
            return grad
        grad = _expand_back(grad, a.shape, (self.dim,), self.keepdim)
        if not (a == 0).any():     # PyTorch: result / self where no element is 0
            with np.errstate(divide="ignore", invalid="ignore"):
                return grad * (_expand_back(result, a.shape, (self.dim,), self.keepdim) / a)
        return grad * _prod_grad(a, self.dim)


class VarBackward0(OpNode):
    """out = ((self - self.mean(dim, True)) ** 2).sum(dim) / (N - correction)

    self: var_backward(grad, self, dim, correction, keepdim)

    var_backward: (2 / (N - correction)) * grad * (self - self.mean(dim, True)),
    grad unsqueezed back over dim; N is the number of elements reduced, or 1
    for dim=() (which reduces over all dims, as PyTorch's _safe_size counts
    it: the gradient is then infinite). With all dims and N <= correction:
    grad * (nan where self == mean, else inf).
    """
    saved = ("self",)
    attrs = ("correction", "dim", "keepdim")
    to_float = True

    @accumulates_in_float32
    @quiet
    def forward(self, a, dim=None, correction=1, keepdim=False):
        if a.dtype.kind != "f":
            raise RuntimeError(f"std and var only support floating point and complex dtypes")
        self.dim = None if dim is None else normalize_dims(dim, a.ndim)
        self.correction, self.keepdim = correction, keepdim
        axis = self.dim if a.ndim and self.dim else None     # dim=() reduces over all dims
        n = a.size if axis is None else int(np.prod([a.shape[d] for d in axis]))
        outputs = 1 if axis is None else a.size // n if n else 0
        if (a.size // outputs if outputs else 0) - correction <= 0:    # PyTorch: input numel / output numel
            name = type(self).__name__[:3].lower()
            warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                          "reduction factor (input numel divided by output numel). (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning, stacklevel=4)
        centered = a - a.mean(axis=axis, keepdims=True)
        return (centered * centered).sum(axis=axis, keepdims=keepdim) / max(n - correction, 0)

    @quiet
    def backward(self, grad, a):
        return _var_grad(grad, a, self.dim, self.correction, self.keepdim)


def _var_grad(grad, a, dim, correction, keepdim):
    """PyTorch's var_backward on arrays (see VarBackward0)."""
    t = a.dtype.type
    if not a.ndim or dim is None:
        mean = a.mean(keepdims=True)
        if a.size - correction <= 0:
            return grad * np.where(a == mean, t(np.nan), t(np.inf))
        return t(2.0 / (a.size - correction)) * grad * (a - mean)
    grad = _expand_back(grad, a.shape, dim, keepdim)
    n = int(np.prod([a.shape[d] for d in dim]))             # 1 for dim=()
    mean = a.mean(axis=dim or None, keepdims=True)
    return t(np.float64(2.0) / (n - correction)) * grad * (a - mean)


class StdBackward0(VarBackward0):
    """out = self.var(dim, correction, keepdim).sqrt()

    self: var_backward((grad / (result * 2)).masked_fill(result == 0, 0), self, dim, correction, keepdim)

    The derivative of sqrt(var) is var's over 2 * std; where std is 0 (a
    constant input) the gradient is 0, as PyTorch's std_backward masks it.
    """
    saved = ("self", "result")

    @accumulates_in_float32
    @quiet
    def forward(self, a, dim=None, correction=1, keepdim=False):
        return np.sqrt(super().forward(a, dim, correction, keepdim))

    @quiet
    def backward(self, grad, a, result):
        grad_var = np.where(result == 0, np.zeros((), grad.dtype), grad / (result * 2))
        return _var_grad(grad_var, a, self.dim, self.correction, self.keepdim)


class CumsumBackward0(OpNode):
    """out = self.cumsum(dim)

    self: grad.sum(dim, True) - grad.cumsum(dim) + grad

    The sums of grad from each position to the end (PyTorch: grad.flip(dim).cumsum(dim).flip(dim)).
    """
    attrs = ("dim",)

    @accumulates_in_float32
    def forward(self, a, dim):
        (self.dim,) = normalize_dims(dim, a.ndim)
        return np.cumsum(a, axis=self.dim) if a.ndim else a.copy()

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    @accumulates_in_float32
    def backward(self, grad):
        if grad.ndim == 0:
            return grad
        return np.flip(np.cumsum(np.flip(grad, self.dim), axis=self.dim), self.dim)



class CumprodBackward0(OpNode):
    """out = self.cumprod(dim)   (running products along dim)

    self: cumprod_backward(grad, self, dim, result)

    d out_j / d self_k is the product of self_0..self_j without self_k, for
    j >= k. Before the first zero z of a row that is out_j / self_k; at z it
    is the product before z times the running product after it; past z it is
    0 (PyTorch's cumprod_backward splits it the same way, in O(n)).
    PyTorch's helper also reads the result, so the node saves it: changing
    the output in place makes backward refuse.
    """
    saved = ("self", "result")
    attrs = ("dim",)

    @accumulates_in_float32
    def forward(self, a, dim):
        (self.dim,) = normalize_dims(dim, a.ndim)
        return np.cumprod(a, axis=self.dim) if a.ndim else a.copy()

    def out_dtype(self, dt):
        return dt if dt.is_floating_point else dtypes.int64

    def backward(self, grad, a, result):
        if a.ndim == 0:
            return grad
        x, g = np.moveaxis(a, self.dim, -1), np.moveaxis(grad, self.dim, -1)
        if x.shape[-1] == 0:
            return grad
        return np.moveaxis(_cumprod_grad(x, g), -1, self.dim)


def _cumprod_grad(x, g):
    """CumprodBackward0's gradient along the last axis, in O(n) per row."""
    n = x.shape[-1]
    pos = np.arange(n)
    zero = x == 0
    first = np.where(zero.any(-1), zero.argmax(-1), n)[..., None]      # the first zero of each row (n: none)
    out = np.cumprod(x, axis=-1)
    before = pos < first
    tail = np.flip(np.cumsum(np.flip(np.where(before, g * out, 0), -1), axis=-1), -1)   # sum over k <= j < first
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(before, tail / np.where(before, x, 1), 0)
    # at the first zero: the product before it times the running product after it
    prefix = np.take_along_axis(out, np.maximum(first - 1, 0), -1) * (first > 0) + (first == 0)
    after = np.cumprod(np.where(pos <= first, 1, x), axis=-1)
    at_zero = prefix[..., 0] * np.where(pos >= first, g * after, 0).sum(-1)
    return np.where(pos == first, at_zero[..., None], result).astype(g.dtype, copy=False)

# -- the functions the rules call (PyTorch: FunctionsManual's var_backward, prod_backward) --

def unsqueeze_to(grad, dim, keepdim):
    """grad with the reduced dims put back (size 1), so that it broadcasts over them."""
    if grad.dim() == 0 or keepdim or dim is None:
        return grad
    for d in sorted(dim if isinstance(dim, (tuple, list)) else (dim,)):
        grad = grad.unsqueeze(d)
    return grad


def var_backward(grad, self, dim, correction, keepdim):
    if self.dim() == 0 or dim is None:
        mean = self.mean()
        if self.numel() - correction <= 0:
            return grad * where(self == mean, math.nan, math.inf)
        return (2.0 / (self.numel() - correction)) * grad * (self - mean)
    n = int(np.prod([self.shape[d] for d in dim]))          # 1 for dim=(), as PyTorch's _safe_size
    mean = self.mean(tuple(dim), True) if dim else self.mean().reshape((1,) * self.dim())
    with np.errstate(divide="ignore"):
        scale = float(np.float64(2.0) / (n - correction))
    return scale * unsqueeze_to(grad, dim, keepdim) * (self - mean)


def prod_others(self, dim=None):
    """At each position, the product of the other elements (of all, or along dim)."""
    if self.dim() == 0:
        return self * 0 + 1
    if not (self._data == 0).any():
        return (self.prod() if dim is None else self.prod(dim, True)) / self
    flat = self.reshape(-1) if dim is None else self.transpose(dim, -1)
    eye = np.eye(flat.shape[-1], dtype=bool)
    others = [flat.masked_fill(flat._wrap(eye[i]), 1).prod(-1) for i in range(flat.shape[-1])]
    from_rows = StackBackward0.apply(others, -1)
    return from_rows.reshape(self.shape) if dim is None else from_rows.transpose(-1, dim)


def cumprod_backward(grad, self, dim, result):
    """The gradient of cumprod as Tensor ops: for each position k, the running
    products with self_k left out, weighted by grad from k on."""
    if self.dim() == 0:
        return grad
    n = self.shape[dim]
    eye = np.eye(n, dtype=bool)
    shape = [1] * self.dim()
    shape[dim] = n
    parts = []
    for k in range(n):
        without_k = self.masked_fill(self._wrap(eye[k].reshape(shape)), 1).cumprod(dim)
        from_k = self._wrap((np.arange(n) >= k).reshape(shape))
        parts.append((grad * without_k * from_k).sum(dim))
    return StackBackward0.apply(parts, dim)
