"""The ops under torch.nn's layers and losses: addmm (what F.linear records),
log_softmax and softmax, nll_loss and binary_cross_entropy. Each is one
PyTorch node; the derivative is in the docstring, in PyTorch's Tensor API."""
import numpy as np

from .. import kernels
from ..compat import dtypes
from ..core.node import OpNode, quiet
from ..core.ops.arithmetic import maybe_multiply  # noqa: F401  (the rules call it)
from ..kernels.degenerate import accumulates_in_float32
from ..core.ops.selection import where, zeros_like  # noqa: F401  (the rules call them)
from ..core.ops.products import mm_mat1_backward, mm_mat2_backward, strides  # noqa: F401  (the rules call them)
from ..core.ops.shape import check_dim
from .bce_backward import binary_cross_entropy_backward  # noqa: F401  (the rule calls it)


class AddmmBackward0(OpNode):
    """out = beta * self + alpha * (mat1 @ mat2)

    self: maybe_multiply(grad, beta)
    mat1: maybe_multiply(mm_mat1_backward(grad, mat2, mat1_sym_sizes, mat1_sym_strides), alpha)
    mat2: maybe_multiply(mm_mat2_backward(grad, mat1, mat2_sym_sizes, mat2_sym_strides), alpha)

    maybe_multiply(t, s) is t * s, or t itself when s is 1; mm_mat1_backward and
    mm_mat2_backward are MmBackward0's: grad.mm(mat2.t()) and mat1.t().mm(grad).
    """
    inputs = ("self", "mat1", "mat2")
    saved = ("mat1", "mat2")
    needed_for = {"mat1": "mat2", "mat2": "mat1"}   # x @ w.t() with a constant x: x is not needed
    attrs = ("alpha", "beta", "mat1_sym_sizes", "mat1_sym_strides", "mat2_sym_sizes", "mat2_sym_strides")

    @classmethod
    def apply(cls, bias, mat1, mat2, beta=1, alpha=1):
        if mat1.dim() != 2:
            raise RuntimeError(f"mat1 must be a matrix, got {mat1.dim()}-D tensor")
        if mat2.dim() != 2:
            raise RuntimeError(f"mat2 must be a matrix, got {mat2.dim()}-D tensor")
        (m, k1), (k2, n) = mat1.shape, mat2.shape
        if k1 != k2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({m}x{k1} and {k2}x{n})")
        if bias.dtype is not mat2.dtype:     # PyTorch checks self first, then mat1
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {bias.dtype.legacy_name} and "
                               f"{mat2.dtype.legacy_name}")
        if mat1.dtype is not mat2.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {mat1.dtype.legacy_name} and "
                               f"{mat2.dtype.legacy_name}")
        try:
            np.broadcast_shapes(bias.shape, (m, n))
        except ValueError:
            raise RuntimeError(f"The expanded size of the tensor ({n}) must match the existing size "
                               f"({bias.shape[-1]}) at non-singleton dimension 1.  Target sizes: [{m}, {n}].  "
                               f"Tensor sizes: [{', '.join(map(str, bias.shape))}]") from None
        return super().apply(bias, mat1, mat2, beta, alpha)

    def forward(self, bias, a, b, beta=1, alpha=1):
        self.alpha, self.beta = alpha, beta
        self.mat1_sym_sizes, self.mat1_sym_strides = a.shape, strides(a)
        self.mat2_sym_sizes, self.mat2_sym_strides = b.shape, strides(b)
        self._transposed = (_transposed(a), _transposed(b))   # the layout the gradients are made in
        # PyTorch fills the output with the bias, then gemm adds the product into it
        prod = kernels.addmm_product(a, b)
        if alpha == 1 and beta == 1 and prod.dtype == getattr(bias, "dtype", None) \
                and np.broadcast_shapes(prod.shape, np.shape(bias)) == prod.shape:
            prod += bias        # F.linear: the same sums, into the product's fresh array
            return prod
        return (prod if alpha == 1 else alpha * prod) + (bias if beta == 1 else beta * bias)

    def backward(self, grad, a, b):
        need_bias, need_a, need_b = self.needs_input_grad
        ga = _product_like(self._transposed[0], grad, b.T) if need_a else None
        gb = _product_like(self._transposed[1], a.T, grad) if need_b else None
        if self.alpha != 1:     # (x * 1 is x: no copy of a weight-sized gradient for F.linear's alpha)
            ga, gb = (None if g is None else g * self.alpha for g in (ga, gb))
        return self._bias_grad(grad) if need_bias else None, ga, gb


    def _bias_grad(self, grad):
        # F.linear's 1-D bias: its gradient is the column sums, in the order of
        # PyTorch's sum kernel (kernels.sum), not numpy's
        g = grad if self.beta == 1 else grad * self.beta
        return kernels.sum(g, axis=0) if len(self.input_metadata[0][0]) == 1 else g


def _transposed(m):
    """A matrix laid out column by column (F.linear's weight.t())."""
    return m.flags.f_contiguous and not m.flags.c_contiguous


def _product_like(transposed, x, y):
    """x @ y, the gradient of a matrix, computed in that matrix's layout as
    PyTorch's mm_mat1_backward/mm_mat2_backward do: for a transposed one it
    is (y.T @ x.T).T, whose sums run in another order."""
    return kernels.mm(y.T, x.T).T if transposed else kernels.mm(x, y)


def _softmax_dim(dim, ndim):
    return check_dim(dim, ndim)


class SoftmaxBackward0(OpNode):
    """out = (self - self.amax(dim, True)).exp() / (self - self.amax(dim, True)).exp().sum(dim, True)

    self: softmax_backward_data(grad, result, dim)

    softmax_backward_data(grad, result, dim) is result * (grad - (grad *
    result).sum(dim, True)), an op of its own (SoftmaxBackwardDataBackward0
    below), as in PyTorch.
    """
    saved = ("result",)
    attrs = ("dim",)
    to_float = True

    @accumulates_in_float32
    def forward(self, a, dim):
        self.dim = d = _softmax_dim(dim, a.ndim)
        if a.ndim == 0:
            return np.ones_like(a)
        if a.size == 0:       # nothing to normalise (an empty dim, or another one)
            return a.copy()
        return kernels.softmax(a, d)

    def backward(self, grad, result):
        if result.ndim == 0:
            return np.zeros_like(grad)
        return kernels.softmax_backward(grad, result, self.dim)    # result * (grad - (grad * result).sum(dim))


class LogSoftmaxBackward0(OpNode):
    """out = self - self.amax(dim, True) - (self - self.amax(dim, True)).exp().sum(dim, True).log()

    self: log_softmax_backward_data(grad, result, dim)

    log_softmax_backward_data(grad, result, dim) is grad - result.exp() *
    grad.sum(dim, True), an op of its own (LogSoftmaxBackwardDataBackward0
    below), as in PyTorch.
    """
    saved = ("result",)
    attrs = ("dim",)
    to_float = True

    @accumulates_in_float32
    def forward(self, a, dim):
        self.dim = d = _softmax_dim(dim, a.ndim)
        if a.ndim == 0:
            return np.zeros_like(a)
        if a.size == 0:
            return a.copy()
        return kernels.log_softmax(a, d)

    def backward(self, grad, result):
        if result.ndim == 0:
            return np.zeros_like(grad)
        return kernels.log_softmax_backward(grad, result, self.dim)    # grad - result.exp() * grad.sum(dim)


def check_nll_loss_args(input, target, weight):
    """PyTorch's checks, in its order: shapes (nll_loss_nd, then the kernel's),
    the target's dtype, then the input's and the weight's."""
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() != 1 and input.shape[0] != (target.shape[0] if target.dim() else 0):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 0}).")
    if input.dim() > 2:
        raise ValueError("autograd_teach: nll_loss of inputs with more than 2 dimensions is not implemented")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    classes = input.shape[-1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but "
                           f"got weight tensor of shape: [{', '.join(map(str, weight.shape))}]")
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name}")
    dtypes.check_floating(input.dtype, "nll_loss_out_frame")
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")


class NllLossBackward0(OpNode):
    """out = -self[range(N), target] (times weight[target]), reduced: 'mean' divides by total_weight

    self: nll_loss_backward(grad, self, target, weight, reduction, ignore_index, total_weight)

    PyTorch's nll_loss_backward: -weight[target] * grad (over total_weight for
    'mean') at each row's target, zeros elsewhere and at ignore_index; an op
    of its own (NllLossBackwardBackward0 below), as in PyTorch."""
    saved = ("self",)
    attrs = ("ignore_index", "reduction", "target", "weight", "total_weight")
    saved_arrays = ("target", "total_weight")

    @classmethod
    def apply(cls, input, target, weight=None, reduction="mean", ignore_index=-100):
        check_nll_loss_args(input, target, weight)
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        w = None if weight is None else weight._data
        return super().apply(input, target._data, w, reduction, ignore_index)

    @quiet     # all rows ignored: 0 / 0 is nan, silently, as in PyTorch
    def forward(self, x, target, weight, reduction, ignore_index):
        x2 = x.reshape(1, -1) if x.ndim == 1 else x
        t = target.reshape(-1).astype(np.int64)
        classes = x2.shape[1]
        keep = t != ignore_index
        bad = t[keep & ((t < 0) | (t >= classes))]
        if bad.size:
            raise IndexError(f"Target {bad[0]} is out of bounds.")
        safe = np.where(keep, t, 0)
        w = np.ones(classes, dtype=x.dtype) if weight is None else weight.astype(x.dtype)
        w_per = np.where(keep, w[safe], 0).astype(x.dtype)
        picked = -x2[np.arange(len(t)), safe] * w_per
        self.ignore_index, self.reduction, self.weight = ignore_index, reduction, weight
        self.target, self._w_per, self._classes = target, w_per, x2.shape
        # summed in the order of PyTorch's kernel (kernels.loss_sum): a batch's
        # mean loss then prints with PyTorch's last digit
        self.total_weight = np.asarray(w_per.sum() if weight is None else kernels.loss_sum(w_per, keep), x.dtype)
        if reduction == "none":
            return picked.reshape(target.shape)
        total = kernels.loss_sum(picked, keep)
        return total / self.total_weight if reduction == "mean" else total

    @quiet
    def backward(self, grad, _self=None):
        g = np.asarray(grad)
        if self.reduction == "mean":
            per = -self._w_per * (g / self.total_weight)
        elif self.reduction == "sum":
            per = -self._w_per * g
        else:
            per = -self._w_per * g.reshape(-1)
        # only the rows not ignored are written, as PyTorch's kernel: with every
        # row ignored the gradient is 0, not 0 * (grad / 0)
        out = np.zeros(self._classes, dtype=g.dtype)
        target = self.target.reshape(-1)
        rows = np.flatnonzero(target != self.ignore_index)
        out[rows, target[rows]] = np.broadcast_to(per, target.shape)[rows]
        return out.reshape(self.input_metadata[0][0])


# -- the backward of softmax, log_softmax and nll_loss as ops of their own ------------------
# As TanhBackwardBackward0 (pointwise.py): recorded when those backwards run under
# create_graph=True, so that a double backward shows PyTorch's nodes.

def softmax_backward_data(grad, output, dim):
    """PyTorch's _softmax_backward_data: output * (grad - (grad * output).sum(dim, True))."""
    return SoftmaxBackwardDataBackward0.apply(grad, output, dim)


def log_softmax_backward_data(grad, output, dim):
    """PyTorch's _log_softmax_backward_data: grad - output.exp() * grad.sum(dim, True)."""
    return LogSoftmaxBackwardDataBackward0.apply(grad, output, dim)


def nll_loss_backward(grad, self, target, weight, reduction, ignore_index, total_weight):
    """PyTorch's nll_loss_backward: -weight[target] * grad at each row's target."""
    return NllLossBackwardBackward0.apply(grad, self, _array(target), _array(weight), reduction, ignore_index,
                                          _array(total_weight))


def nll_loss(grad, target, weight, reduction, ignore_index):
    """nll_loss of a gradient (the double backward of nll_loss_backward)."""
    w = None if weight is None else grad._wrap(_array(weight))
    return NllLossBackward0.apply(grad, grad._wrap(_array(target)), w, reduction, ignore_index)


def _array(v):
    """A saved index array as the rules see it (a Tensor, as PyTorch shows it), back to numpy."""
    return v._data if hasattr(v, "_data") else v


class SoftmaxBackwardDataBackward0(OpNode):
    """out = softmax_backward_data(grad_output, output, dim) = output * (grad_output - (grad_output * output).sum(dim, True))

    grad_output: softmax_backward_data(grad, output, dim)
    output: grad_output * grad - (output * grad_output).sum(dim, True) * grad - grad_output * (output * grad).sum(dim, True)

    SoftmaxBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "output")
    saved = ("grad_output", "output")
    needed_for = {"grad_output": "output"}
    attrs = ("dim",)
    elementwise = True

    def forward(self, g, out, dim):
        self.dim = dim
        return SoftmaxBackward0.backward(self, g, out)     # as SoftmaxBackward0's backward computes it

    def backward(self, grad, g, out):
        need_g, need_out = self.needs_input_grad
        d = self.dim
        gg = SoftmaxBackward0.backward(self, grad, out) if need_g else None
        go = (g * grad - (out * g).sum(axis=d, keepdims=True) * grad - g * (out * grad).sum(axis=d, keepdims=True)
              if need_out else None)
        return gg, go


class LogSoftmaxBackwardDataBackward0(OpNode):
    """out = log_softmax_backward_data(grad_output, output, dim) = grad_output - output.exp() * grad_output.sum(dim, True)

    grad_output: grad - (grad * output.exp()).sum(dim, True)
    output: -grad_output.sum(dim, True) * output.exp() * grad

    LogSoftmaxBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "output")
    saved = ("grad_output", "output")
    needed_for = {"grad_output": "output"}
    attrs = ("dim",)
    elementwise = True

    def forward(self, g, out, dim):
        self.dim = dim
        return LogSoftmaxBackward0.backward(self, g, out)  # as LogSoftmaxBackward0's backward computes it

    def backward(self, grad, g, out):
        need_g, need_out = self.needs_input_grad
        e = kernels.sleef_exp(out)
        gg = grad - (grad * e).sum(axis=self.dim, keepdims=True) if need_g else None
        go = -g.sum(axis=self.dim, keepdims=True) * e * grad if need_out else None
        return gg, go


class NllLossBackwardBackward0(OpNode):
    """out = nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight)

    grad_output: nll_loss(grad, target, weight, reduction, ignore_index)
    self: zeros_like(grad)

    NllLossBackward0's backward as an op (recorded with create_graph=True):
    linear in grad_output, flat in self.
    """
    inputs = ("grad_output", "self")
    attrs = ("ignore_index", "reduction", "target", "weight")
    saved_arrays = ("target",)

    def forward(self, g, s, target, weight, reduction, ignore_index, total_weight):
        self.target, self.weight, self.reduction, self.ignore_index = target, weight, reduction, ignore_index
        first = NllLossBackward0.__new__(NllLossBackward0)      # NllLossBackward0's backward, on these values
        first.forward(s, target, weight, reduction, ignore_index)
        first.input_metadata = ((s.shape, s.dtype),)
        return first.backward(g)

    @quiet
    def backward(self, grad):
        need_g, need_s = self.needs_input_grad
        loss = NllLossBackward0.__new__(NllLossBackward0)
        gg = loss.forward(grad, self.target, self.weight, self.reduction, self.ignore_index) if need_g else None
        return gg, (np.zeros_like(grad) if need_s else None)


class BinaryCrossEntropyBackward0(OpNode):
    """out = -(target * self.log().clamp_min(-100) + (1 - target) * (1 - self).log().clamp_min(-100)), reduced

    self: binary_cross_entropy_backward(grad, self, target, reduction)
    target: grad * ((1 - self).log().clamp(min=-100) - self.log().clamp(min=-100))
            / (self.numel() if reduction == "mean" else 1)

    binary_cross_entropy_backward: grad * (self - target) / ((1 - self) * self).clamp(min=1e-12),
    over numel for 'mean': an op of its own (ops/bce_backward.py), as in PyTorch."""
    inputs = ("self", "target")
    saved = ("self", "target")
    attrs = ("reduction",)
    elementwise = True
    to_float = True

    @quiet
    def forward(self, x, t, reduction="mean"):
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        if ((x < 0) | (x > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        self.reduction = reduction
        per = (t - 1) * np.maximum(np.log1p(-x), -100) - t * np.maximum(np.log(x), -100)
        return per.mean() if reduction == "mean" else per.sum() if reduction == "sum" else per

    @quiet
    def backward(self, grad, x, t):
        if self.reduction == "mean":
            grad = grad / x.size
        need_x, need_t = self.needs_input_grad
        dx = grad * (x - t) / np.maximum((1 - x) * x, 1e-12) if need_x else None
        dt = grad * (np.maximum(np.log1p(-x), -100) - np.maximum(np.log(x), -100)) if need_t else None
        return dx, dt


class LeakyReluBackward0(OpNode):
    """out = where(self > 0, self, self * negative_slope)

    self: leaky_relu_backward(grad, self, negative_slope)"""
    saved = ("self",)
    attrs = ("negative_slope",)

    def forward(self, a, negative_slope=0.01):
        self.negative_slope = negative_slope
        return np.where(a > 0, a, a * a.dtype.type(negative_slope))

    def backward(self, grad, a):
        return grad * np.where(a > 0, np.ones((), grad.dtype), grad.dtype.type(self.negative_slope))


class LeakyReluBackward1(LeakyReluBackward0):
    """out = leaky_relu_(self, negative_slope): in place, so the input is gone; the result is saved

    self: leaky_relu_backward(grad, result, negative_slope)"""
    saved = ("result",)


def leaky_relu_backward(grad, self, negative_slope):
    """grad where self > 0, else grad * negative_slope (in grad's dtype)."""
    return where(self > 0, grad, grad * negative_slope)
