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

from ..core.node import OpNode
from ..core.ops.selection import index_backward, new_zeros
from ..core.ops.shape import ViewBackward0, replay_view


class AsStridedBackward0(OpNode):
    """out = self.as_strided(size, stride, storage_offset)   (here: the view's chain of view ops replayed)

    self: as_strided_backward(grad, self_sym_sizes, view)

    PyTorch's rule is a C++ helper (as_strided_backward in FunctionsManual.cpp,
    given self's geometry): the gradient lands in the view's region of a zero
    tensor shaped like self; the helper below does it with Tensor ops.
    """
    attrs = ("view",)
    is_view = True

    def forward(self, a, view):
        self.view, self.base_shape = view, a.shape
        return replay_view(a, view)

    def backward(self, grad):
        out = np.zeros(self.base_shape, dtype=grad.dtype)
        region = replay_view(out, self.view)
        if region.flags.writeable:      # each element of the base read once
            region[...] = grad
            return out
        # an expand reads an element several times (numpy makes it read-only):
        # that element gets the sum of their gradients
        positions = replay_view(np.arange(out.size).reshape(self.base_shape), self.view)
        np.add.at(out.reshape(-1), positions.reshape(-1), grad.reshape(-1))
        return out

    @property
    def _saved_self_sym_sizes(self):
        """The base's shape, for the rule (PyTorch's rule reads it off self's geometry)."""
        return self.input_metadata[0][0]


def as_strided_backward(grad, self_sym_sizes, view):
    """grad put back where the view reads the base, as Tensor ops (differentiable again).

    Each element of the view is numbered by the flat position it reads in the
    base (the view chain replayed on 0, 1, 2, ...); grad is added at those
    positions of a flat zero tensor, so a position read twice (an expanded
    view) gets both gradients, and the result takes the base's shape."""
    numel = int(np.prod(self_sym_sizes, dtype=np.int64))
    positions = replay_view(np.arange(numel).reshape(self_sym_sizes), view).reshape(-1)
    flat = index_backward(new_zeros(grad, (numel,)), (positions,), grad.reshape(-1))
    # PyTorch's helper ends with as_strided of its flat storage: so does its grad_fn
    return AsStridedBackward0.apply(flat, ((ViewBackward0, (tuple(self_sym_sizes),)),))
