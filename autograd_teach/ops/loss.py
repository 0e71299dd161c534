"""Losses: mse_loss and binary_cross_entropy_with_logits, the ones the
tutorials use. The base computes the per-element loss and its two local
derivatives; the reduction ('mean', 'sum' or 'none') is shared."""
import numpy as np

from ..node import OpNode, quiet
from .float32 import cascade_mean, cascade_sum, via_float64


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
        return cascade_mean(per_element) if reduction == "mean" else (
            cascade_sum(per_element) if reduction == "sum" else per_element)

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
    """out = -(target * log(sigmoid(self)) + (1 - target) * log(1 - sigmoid(self))), reduced like mse_loss

    self: (self.sigmoid() - target) * grad / ((self - target).numel() if reduction == "mean" else 1)
    target: -self * grad / ((self - target).numel() if reduction == "mean" else 1)

    The forward is computed as max(self, 0) - self * target + log(1 + exp(-|self|)),
    so that exp never overflows. PyTorch: binary_cross_entropy_with_logits_backward
    and binary_cross_entropy_with_logits_target_backward.
    """

    @quiet
    def loss(self, x, t):
        # PyTorch's: (1 - target) * x - log_sigmoid(x), log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|))
        log_sigmoid = np.minimum(x, 0) - via_float64(np.log1p, via_float64(np.exp, -np.abs(x)))
        return (1 - t) * x - log_sigmoid

    @quiet
    def derivatives(self, x, t, grad, count):
        sigmoid = 1 / (1 + via_float64(np.exp, -x))
        return (sigmoid - t) * grad / count, -x * grad / count


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
