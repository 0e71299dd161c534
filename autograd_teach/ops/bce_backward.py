"""binary_cross_entropy's backward as an op of its own, recorded when that
backward runs under create_graph=True, as PyTorch records
BinaryCrossEntropyBackwardBackward0: its derivatives are PyTorch's
closed forms (FunctionsManual.cpp's binary_cross_entropy_double_backward...),
which add eps = 1e-12 to self and to 1 - self where the first backward
clamps (1 - self) * self, so a second derivative is not the derivative of
the clamp."""
import numpy as np

from ..core.grad_mode import no_grad
from ..core.node import OpNode, quiet

EPS = 1e-12


def _per_element(grad_output, x, reduction):
    """grad_output spread over the elements, divided by their number for 'mean'."""
    g = np.broadcast_to(grad_output, x.shape) if reduction != "none" else grad_output
    return g / x.size if reduction == "mean" else g


class BinaryCrossEntropyBackwardBackward0(OpNode):
    """out = binary_cross_entropy_backward(grad_output, self, target, reduction)

    grad_output: bce_double_backward_grad_output(grad, self, target, reduction)
    self: bce_double_backward(grad_output, grad, self, target, reduction)
    target: bce_double_backward_target(grad, grad_output, self, reduction)

    binary_cross_entropy_backward is grad_output * (self - target) /
    ((1 - self) * self).clamp_min(1e-12), over numel for 'mean'.
    """
    inputs = ("grad_output", "self", "target")
    saved = ("grad_output", "self", "target")
    attrs = ("reduction",)

    @quiet
    def forward(self, g, x, t, reduction):
        self.reduction = reduction
        return _per_element(g, x, reduction) * (x - t) / np.maximum((1 - x) * x, EPS)

    @quiet
    def backward(self, grad, g, x, t):
        need_g, need_x, need_t = self.needs_input_grad
        red = self.reduction
        gg = gx = gt = None
        if need_g:
            per = (x - t) / ((x + EPS) * (1 - x + EPS)) * grad
            gg = per if red == "none" else per.sum() / (x.size if red == "mean" else 1)
        g_each = np.broadcast_to(g, x.shape)         # grad_output, for each element
        if need_x:
            gi = (x * x - 2 * x * t + t) / ((x + EPS) ** 2 * (1 - x + EPS) ** 2)
            gx = gi * (grad * g_each)
            gx = gx / x.size if red == "mean" else gx
        if need_t:
            gt = -grad * g_each / np.maximum((1 - x) * x, EPS)
            gt = gt / x.size if red == "mean" else gt
        return gg, gx, gt


def binary_cross_entropy_backward(grad, self, target, reduction):
    return BinaryCrossEntropyBackwardBackward0.apply(grad, self, target, reduction)


def bce_double_backward_grad_output(grad, self, target, reduction):
    per = (self - target) / ((self + EPS) * (1 - self + EPS)) * grad
    return per if reduction == "none" else per.sum() / (self.numel() if reduction == "mean" else 1)


def bce_double_backward(grad_output, grad, self, target, reduction):
    gi = (self * self - 2 * self * target + target) / ((self + EPS).pow(2) * (1 - self + EPS).pow(2))
    gi = gi * (grad * grad_output)
    return gi / self.numel() if reduction == "mean" else gi


def bce_double_backward_target(grad, grad_output, self, reduction):
    denom = (1 - self) * self
    with no_grad():           # the values clamped, the graph of (1 - self) * self kept, as PyTorch does
        denom.clamp_(min=EPS)
    res = -grad * grad_output / denom
    return res / self.numel() if reduction == "mean" else res
