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
    """(self - target) ** 2"""

    def loss(self, a, t):
        return (a - t) ** 2

    def derivatives(self, a, t):
        return 2 * (a - t), -2 * (a - t)


class BinaryCrossEntropyWithLogitsBackward0(_Loss):
    """-(target * log(sigmoid(x)) + (1 - target) * log(1 - sigmoid(x))), written
    so that exp never overflows: max(x, 0) - x * target + log(1 + exp(-|x|))"""

    @quiet
    def loss(self, x, t):
        return np.maximum(x, 0) - x * t + np.log1p(np.exp(-np.abs(x)))

    def derivatives(self, x, t):
        e = np.exp(-np.abs(x))
        sigmoid = np.where(x >= 0, 1 / (1 + e), e / (1 + e))
        return sigmoid - t, -x
