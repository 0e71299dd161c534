"""nll_loss over positions: input (N, C, d1, d2, ...), target (N, d1, d2, ...),
one class per sample and position (a segmentation map, a sequence of tokens).

PyTorch runs every such input as the 4-D case, nll_loss2d: a 3-D or 5-D
input is viewed as (N, C, 1, d1 * d2 * ...) first (ViewBackward0), and a
'none' loss viewed back. nll_loss2d is nll_loss with each (sample,
position) a row, the class dim moved last: so the op below is
NllLossBackward0 on those rows, with the same weights, ignore_index and
summation order (the positions of a sample in a row, the samples one after another).
"""
import numpy as np

from ..compat import dtypes
from ..core.node import OpNode
from ..core.ops.selection import zeros_like  # noqa: F401  (the rules call it)
from .nn_ops import NllLossBackward0, NllLossBackwardBackward0


def nll_loss_nd(input, target, weight=None, reduction="mean", ignore_index=-100):
    """F.nll_loss of an input with more than 2 dims: PyTorch's nll_loss_nd."""
    if input.shape[0] != (target.shape[0] if target.dim() else 0):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 0}).")
    if input.dim() == 4:
        return NllLoss2DBackward0.apply(input, target, weight, reduction, ignore_index)
    n, c = input.shape[:2]
    out_size = (n,) + tuple(input.shape[2:])
    if tuple(target.shape[1:]) != tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {list(out_size)}, got {list(target.shape)}")
    input, target = input.contiguous(), target.contiguous()
    input = input.view(n, c, 1, -1) if input.numel() else input.view(n, c, 0, 0)
    target = target.view(n, 1, -1) if target.numel() else target.view(n, 0, 0)
    out = NllLoss2DBackward0.apply(input, target, weight, reduction, ignore_index)
    return out.view(out_size) if reduction == "none" else out


def check_nll_loss2d_args(input, target, weight):
    """PyTorch's checks (check_inputs_nll_loss2d, then the kernel's), in its order."""
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    if weight is not None and weight.numel() != input.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if input.shape[0] != target.shape[0] or tuple(input.shape[2:]) != tuple(target.shape[1:]):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name}")
    dtypes.check_floating(input.dtype, "nll_loss2d_forward_out_frame")
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")


class NllLoss2DBackward0(NllLossBackward0):
    """out = nll_loss2d(self, target, weight, reduction, ignore_index)   (nll_loss at every position)

    self: nll_loss2d_backward(grad, self, target, weight, reduction, ignore_index, total_weight)

    NllLossBackward0 on the rows (sample, position) of self with its class
    dim last; its gradient put back in self's layout.
    """

    @classmethod
    def apply(cls, input, target, weight=None, reduction="mean", ignore_index=-100):
        check_nll_loss2d_args(input, target, weight)
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        w = None if weight is None else weight._data
        return OpNode.apply.__func__(cls, input, target._data, w, reduction, ignore_index)

    def forward(self, x, target, weight, reduction, ignore_index):
        rows = np.moveaxis(x, 1, -1).reshape(-1, x.shape[1])
        out = super().forward(rows, target.reshape(-1), weight, reduction, ignore_index)
        self.target = target
        return out.reshape(target.shape) if reduction == "none" else out

    def backward(self, grad, _self=None):
        n, c, *positions = self.input_metadata[0][0]
        return np.moveaxis(self.per_row_backward(grad).reshape(n, *positions, c), -1, 1)


def nll_loss2d_backward(grad, self, target, weight, reduction, ignore_index, total_weight):
    """PyTorch's nll_loss2d_backward: -weight[target] * grad at each position's target."""
    return NllLoss2DBackwardBackward0.apply(grad, self, _array(target), _array(weight), reduction, ignore_index,
                                            _array(total_weight))


def nll_loss2d(grad, target, weight, reduction, ignore_index):
    """nll_loss2d of a gradient (the double backward of nll_loss2d_backward)."""
    w = None if weight is None else grad._wrap(_array(weight))
    return NllLoss2DBackward0.apply(grad, grad._wrap(_array(target)), w, reduction, ignore_index)


def _array(v):
    """A saved index array as the rules see it (a Tensor, as PyTorch shows it), back to numpy."""
    return v._data if hasattr(v, "_data") else v


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    """out = nll_loss2d_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight)

    grad_output: nll_loss2d(grad, target, weight, reduction, ignore_index)
    self: zeros_like(grad)

    NllLoss2DBackward0's backward as an op (recorded with create_graph=True).
    """
    loss = NllLoss2DBackward0
