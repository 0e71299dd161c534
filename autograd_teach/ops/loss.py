"""Losses: mse_loss, the one the tutorials use (torch.nn.MSELoss)."""
import numpy as np

from ..function import Function


class MseLossBackward0(Function):
    """mean((self - target) ** 2); reduction 'mean', 'sum' or 'none'"""
    inputs = ("self", "target")
    elementwise = True
    saved = ("self", "target")
    attrs = ("reduction",)
    to_float = True

    def forward(self, a, t, reduction="mean"):
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        self.reduction = reduction
        sq = (a - t) ** 2
        return sq.mean() if reduction == "mean" else (sq.sum() if reduction == "sum" else sq)

    def backward(self, grad, a, t):
        g = 2 * (a - t) * grad
        if self.reduction == "mean":
            g = g / np.broadcast(a, t).size
        return g, -g
