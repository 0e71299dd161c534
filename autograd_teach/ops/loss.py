"""Losses: mse_loss and binary_cross_entropy_with_logits, the ones the
tutorials use. The base computes the per-element loss and its two local
derivatives; the reduction ('mean', 'sum' or 'none') is shared."""
import numpy as np

from ..node import OpNode, quiet


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
        return per_element.mean() if reduction == "mean" else (
            per_element.sum() if reduction == "sum" else per_element)

    def backward(self, grad, a, t):
        if self.reduction == "mean":
            grad = grad / np.broadcast(a, t).size
        d_input, d_target = self.derivatives(a, t)
        return d_input * grad, d_target * grad


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

    def derivatives(self, a, t):
        return 2 * (a - t), -2 * (a - t)


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
        return np.maximum(x, 0) - x * t + np.log1p(np.exp(-np.abs(x)))

    def derivatives(self, x, t):
        e = np.exp(-np.abs(x))
        sigmoid = np.where(x >= 0, 1 / (1 + e), e / (1 + e))
        return sigmoid - t, -x


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
        return self._norm(a) * (a - t) * g

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
