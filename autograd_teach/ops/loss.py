"""Losses: mse_loss and binary_cross_entropy_with_logits, the ones the
tutorials use, and smooth_l1_loss and huber_loss (d2l chapter 5). The base
computes the per-element loss and its two local derivatives; the reduction
('mean', 'sum' or 'none') is shared."""
import numpy as np

from .. import kernels
from ..core.node import OpNode, quiet
from ..core.ops.arithmetic import DivBackward1


class _Loss(OpNode):
    inputs = ("self", "target")
    elementwise = True
    saved = ("self", "target")
    attrs = ("reduction",)
    to_float = True

    def forward(self, a, t, reduction="mean"):
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        self.reduction = reduction
        per_element = self.loss(a, t)
        return kernels.mean(per_element) if reduction == "mean" else (
            kernels.sum(per_element) if reduction == "sum" else per_element)

    def backward(self, grad, a, t):
        count = np.broadcast(a, t).size if self.reduction == "mean" else 1
        return self.derivatives(a, t, grad, count)


class MseLossBackward0(_Loss):
    """out = ((self - target) ** 2).mean()   (.sum() for reduction='sum', no reduction for 'none')

    self: mse_loss_backward(grad, self, target, reduction)
    target: mse_loss_backward(grad, target, self, reduction)

    mse_loss_backward(grad, self, target, reduction) is 2 * (self - target) * grad,
    divided by the number of elements for reduction='mean': an op of its own
    (MseLossBackwardBackward0 below), as in PyTorch.
    """

    def loss(self, a, t):
        return (a - t) ** 2

    def derivatives(self, a, t, grad, count):
        # PyTorch's mse_loss_backward: (2 / count) * (self - target) * grad
        d = grad.dtype.type(2 / count) * (a - t) * grad
        return d, -d


class BinaryCrossEntropyWithLogitsBackward0(_Loss):
    """out = weight * ((1 - target) * self - log_weight * log_sigmoid(self)), reduced like mse_loss

    self: binary_cross_entropy_with_logits_backward(grad, self, target, weight, pos_weight, reduction)
    target: binary_cross_entropy_with_logits_target_backward(grad, self, target, weight, pos_weight, reduction)

    log_weight = 1 + (pos_weight - 1) * target weighs the positive term (1
    without pos_weight), and log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)), so
    that exp never overflows. weight and pos_weight broadcast against each
    element and are not differentiable (PyTorch refuses ones that require grad).
    """
    attrs = ("reduction", "weight", "pos_weight")

    def forward(self, x, t, reduction="mean", dtype=None, weight=None, pos_weight=None):
        # PyTorch computes the loss in place in (1 - target): it has target's dtype
        self.dtype, self.weight, self.pos_weight = dtype, weight, pos_weight
        out = super().forward(x, t, reduction)
        return out if dtype is None else out.astype(dtype.np)

    def out_dtype(self, dt):
        return dt if self.dtype is None else self.dtype

    @quiet
    def loss(self, x, t):
        # PyTorch's: log_sigmoid(x) *= (pos_weight - 1) * target + 1; (1 - target) * x - log_sigmoid(x); *= weight
        log_sigmoid = _log_sigmoid(x)
        if self.pos_weight is not None:
            log_sigmoid = log_sigmoid * ((_like(self.pos_weight, x) - 1) * t + 1)
        loss = (1 - t) * x - log_sigmoid
        return loss if self.weight is None else loss * _like(self.weight, x)

    @quiet
    def derivatives(self, x, t, grad, count):
        """PyTorch's binary_cross_entropy_with_logits_backward and _target_backward, in their order."""
        sigmoid = 1 / (1 + kernels.exp(-x))
        if self.pos_weight is None:
            d_x, d_t = sigmoid - t, -x
        else:
            pos_weight = _like(self.pos_weight, x)
            pt = pos_weight * t
            d_x = (pt + 1 - t) * sigmoid - pt
            d_t = _log_sigmoid(-x) - _log_sigmoid(x) * pos_weight
        d_x, d_t = d_x * grad, d_t * grad
        if self.weight is not None:
            d_x, d_t = d_x * _like(self.weight, x), d_t * _like(self.weight, x)
        return d_x / count, d_t / count


def _log_sigmoid(x):
    return np.minimum(x, 0) - kernels.log1p(kernels.exp(-np.abs(x)))


def _like(weight, x):
    """weight's values (a Tensor) in the loss's dtype."""
    return weight._data.astype(x.dtype, copy=False)


def binary_cross_entropy_with_logits_backward(grad, input, target, weight, pos_weight, reduction):
    """d loss / d input, times grad, as PyTorch's FunctionsManual.cpp under create_graph."""
    if pos_weight is not None:
        t = pos_weight.mul(target)
        grad_input = t.add(1).sub(target).mul(input.sigmoid()).sub(t)
    else:
        grad_input = input.sigmoid().sub(target)
    grad_input = grad_input.mul(grad)
    if weight is not None:
        grad_input = grad_input.mul(weight)
    if reduction == "mean":
        grad_input = _div_(grad_input, input.numel())
    return grad_input


def binary_cross_entropy_with_logits_target_backward(grad_output, self, target, weight, pos_weight, reduction):
    """d loss / d target, times grad_output, as PyTorch's FunctionsManual.cpp
    (log_sigmoid composed of differentiable ops: min(x, 0) - log1p(exp(-|x|)))."""
    if pos_weight is not None:
        def log_sigmoid(x):
            return x.minimum(x.new_zeros(())) - (-x.abs()).exp().log1p()
        grad_target = log_sigmoid(-self).sub(log_sigmoid(self).mul(pos_weight))
    else:
        grad_target = -self
    grad_target = grad_target.mul(grad_output)
    if weight is not None:
        grad_target = grad_target.mul(weight)
    if reduction == "mean":
        grad_target = _div_(grad_target, target.numel())
    return grad_target


def _div_(tensor, number):
    """C++'s tensor.div_(number): div.Scalar in place, DivBackward1 (Python's div_ wraps the number: DivBackward0)."""
    return tensor._inplace(lambda t: DivBackward1.apply(t, number))


class MseLossBackwardBackward0(OpNode):
    """out = mse_loss_backward(grad_output, self, target, reduction) = 2 * (self - target) * grad_output / n

    grad_output: mse_loss_backward(grad, self, target, reduction)
    self: mse_loss_double_backward(grad * grad_output, self, reduction)
    target: -mse_loss_double_backward(grad * grad_output, target, reduction)

    n is the number of elements for reduction='mean', else 1. MseLossBackward0's
    backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "self", "target")
    saved = ("grad_output", "self", "target")
    attrs = ("reduction",)
    to_float = True

    def forward(self, g, a, t, reduction):
        self.reduction = reduction
        return g.dtype.type(self._norm(a)) * (a - t) * g   # as MseLossBackward0: one rounding of 2/n

    def _norm(self, a):
        return 2 / a.size if self.reduction == "mean" else 2

    def backward(self, grad, g, a, t):
        norm = self._norm(a)
        return norm * (a - t) * grad, norm * grad * g, -norm * grad * g


# -- the functions the rules call, as PyTorch's -------------------------------------

def mse_loss_backward(grad_output, self, target, reduction):
    """2 * (self - target) * grad_output, over the number of elements for 'mean': one op."""
    return MseLossBackwardBackward0.apply(grad_output, self, target, reduction)


def mse_loss_double_backward(grad, input, reduction):
    """The derivative of mse_loss_backward w.r.t. self (times grad)."""
    grad_input = 2 * grad
    return grad_input / input.numel() if reduction == "mean" else grad_input


# -- smooth_l1_loss and huber_loss (d2l chapter 5) ------------------------------------
# Both are quadratic near 0 and linear beyond a threshold (beta, delta): their
# backward is an op of its own, as mse_loss's, so a double backward records
# SmoothL1LossBackwardBackward0 / HuberLossBackwardBackward0.

def _norm(a, reduction):
    return 1 / a.size if reduction == "mean" else 1


def _smooth_l1_grad(g, a, t, reduction, beta):
    """PyTorch's kernel: x = self - target; -norm * g where x <= -beta,
    norm * g where x >= beta, norm * x * g / beta in between."""
    x, norm = a - t, g.dtype.type(_norm(np.broadcast(a, t), reduction))
    return np.where(x <= -beta, -norm * g, np.where(x >= beta, norm * g, norm * x * g / g.dtype.type(beta)))


def _huber_grad(g, a, t, reduction, delta):
    """PyTorch's kernel: x = self - target; -norm * g * delta where x < -delta,
    norm * g * delta where x > delta, norm * x * g in between."""
    x, norm, d = a - t, g.dtype.type(_norm(np.broadcast(a, t), reduction)), g.dtype.type(delta)
    return np.where(x < -delta, -norm * g * d, np.where(x > delta, norm * g * d, norm * x * g))


class SmoothL1LossBackward0(_Loss):
    """out = where(|self - target| < beta, 0.5 * (self - target) ** 2 / beta, |self - target| - 0.5 * beta).mean()

    self: smooth_l1_loss_backward(grad, self, target, reduction, beta)
    target: smooth_l1_loss_backward(grad, target, self, reduction, beta)

    (.sum() for reduction='sum', no reduction for 'none'.) beta = 0 is
    l1_loss, which F.smooth_l1_loss calls instead (no division by 0).
    """
    attrs = ("reduction", "beta")

    def forward(self, a, t, reduction, beta):
        self.beta = beta
        return super().forward(a, t, reduction)

    def loss(self, a, t):
        z, beta = np.abs(a - t), a.dtype.type(self.beta)
        return np.where(z < beta, a.dtype.type(0.5) * z * z / beta, z - a.dtype.type(0.5) * beta)

    def backward(self, grad, a, t):
        d = _smooth_l1_grad(np.asarray(grad, a.dtype), a, t, self.reduction, self.beta)
        return d, -d


class HuberLossBackward0(_Loss):
    """out = where(|self - target| < delta, 0.5 * (self - target) ** 2, delta * (|self - target| - 0.5 * delta)).mean()

    self: huber_loss_backward(grad, self, target, reduction, delta)
    target: huber_loss_backward(grad, target, self, reduction, delta)

    (.sum() for reduction='sum', no reduction for 'none'.) smooth_l1_loss
    with beta = delta, times delta.
    """
    attrs = ("reduction", "delta")

    def forward(self, a, t, reduction, delta):
        self.delta = delta
        return super().forward(a, t, reduction)

    def loss(self, a, t):
        z, delta = np.abs(a - t), a.dtype.type(self.delta)
        return np.where(z < delta, a.dtype.type(0.5) * z * z, delta * (z - a.dtype.type(0.5) * delta))

    def backward(self, grad, a, t):
        d = _huber_grad(np.asarray(grad, a.dtype), a, t, self.reduction, self.delta)
        return d, -d


class SmoothL1LossBackwardBackward0(OpNode):
    """out = smooth_l1_loss_backward(grad_output, self, target, reduction, beta)

    grad_output: smooth_l1_loss_backward(grad, self, target, reduction, beta)
    self: smooth_l1_loss_double_backward(grad * grad_output, self, target, reduction, beta)
    target: -smooth_l1_loss_double_backward(grad * grad_output, self, target, reduction, beta)

    SmoothL1LossBackward0's backward as an op (recorded with create_graph=True):
    linear in grad_output; its derivative in self is 1 / beta inside the
    quadratic zone (over n for 'mean'), 0 outside.
    """
    inputs = ("grad_output", "self", "target")
    saved = ("grad_output", "self", "target")
    attrs = ("reduction", "beta")
    to_float = True

    def forward(self, g, a, t, reduction, beta):
        self.reduction, self.beta = reduction, beta
        return _smooth_l1_grad(g, a, t, reduction, beta)

    def backward(self, grad, g, a, t):
        inside = (np.abs(a - t) < self.beta).astype(grad.dtype)   # a product, not a where: -0 stays -0
        d = grad * g * inside / grad.dtype.type(self.beta)
        if self.reduction == "mean":
            d = d / grad.dtype.type(np.broadcast(a, t).size)
        return _smooth_l1_grad(grad, a, t, self.reduction, self.beta), d, -d


class HuberLossBackwardBackward0(OpNode):
    """out = huber_loss_backward(grad_output, self, target, reduction, delta)

    grad_output: huber_loss_double_backward_grad_output(grad, grad_output, self, target, reduction, delta)
    self: huber_loss_double_backward(grad * grad_output, self, target, reduction, delta)
    target: -huber_loss_double_backward(grad * grad_output, self, target, reduction, delta)

    HuberLossBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "self", "target")
    saved = ("grad_output", "self", "target")
    attrs = ("reduction", "delta")
    to_float = True

    def forward(self, g, a, t, reduction, delta):
        self.reduction, self.delta = reduction, delta
        return _huber_grad(g, a, t, reduction, delta)

    def backward(self, grad, g, a, t):
        d = grad * g * (np.abs(a - t) < self.delta).astype(grad.dtype)
        if self.reduction == "mean":
            d = d / grad.dtype.type(np.broadcast(a, t).size)
        return _huber_grad(grad, a, t, self.reduction, self.delta), d, -d


def smooth_l1_loss_backward(grad_output, self, target, reduction, beta):
    """d smooth_l1_loss / d self, times grad_output: one op."""
    return SmoothL1LossBackwardBackward0.apply(grad_output, self, target, reduction, beta)


def smooth_l1_loss_double_backward(grad, input, target, reduction, beta):
    """The derivative of smooth_l1_loss_backward w.r.t. self (times grad)."""
    inside = ((input - target).abs() < beta).to(grad.dtype)
    grad_input = grad * inside / beta
    return grad_input / input.numel() if reduction == "mean" else grad_input


def huber_loss_backward(grad_output, self, target, reduction, delta):
    """d huber_loss / d self, times grad_output: one op."""
    return HuberLossBackwardBackward0.apply(grad_output, self, target, reduction, delta)


def huber_loss_double_backward(grad, input, target, reduction, delta):
    """The derivative of huber_loss_backward w.r.t. self (times grad)."""
    grad_input = grad * ((input - target).abs() < delta).to(grad.dtype)
    return grad_input / input.numel() if reduction == "mean" else grad_input


def huber_loss_double_backward_grad_output(grad, grad_output, input, target, reduction, delta):
    """huber_loss_backward is linear in grad_output: for 'none' the same
    function of grad; else the sum of grad times it at grad_output = 1."""
    if reduction == "none":
        return huber_loss_backward(grad, input, target, reduction, delta)
    ones = grad_output.new_ones(grad_output.shape)
    return (huber_loss_backward(ones, input, target, reduction, delta) * grad).sum()
