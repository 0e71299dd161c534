"""AsStridedBackward0: the grad_fn a view gets after an in-place op through it.

    b = x.t(); b.add_(1)   # b.grad_fn is AsStridedBackward0, x.grad_fn CopySlices

PyTorch re-derives such a view from its new base with as_strided (view replay
is off by default), so whichever op made the view, its new node is
AsStridedBackward0. Here the view is re-derived by replaying the chain of
view ops that made it; the derivative is the same: the gradient of the view
lands in the view's region of a zero tensor shaped like the base.

    d(view)/d(base): grad_base = zeros(base.shape); grad_base[view region] = grad
"""
import numpy as np

from ..node import OpNode
from .shape import replay_view


class AsStridedBackward0(OpNode):
    """out = self.as_strided(size, stride, storage_offset)   (here: the view's chain of view ops replayed)

    self: as_strided_backward(grad, self, view)

    PyTorch's rule is a C++ helper (as_strided_backward in FunctionsManual.cpp):
    the gradient lands in the view's region of a zero tensor shaped like self.
    """
    attrs = ("view",)
    is_view = True

    def forward(self, a, view):
        self.view, self.base_shape = view, a.shape
        return replay_view(a, view)

    def backward(self, grad):
        out = np.zeros(self.base_shape, dtype=grad.dtype)
        replay_view(out, self.view)[...] = grad   # a view written in place never overlaps itself
        return out
