"""nll_loss over pixels (F.nll_loss and F.cross_entropy of an (N, C, H, W)
input and an (N, H, W) target, as d2l's fully convolutional network trains):
each pixel's loss is -weight[t] * input[n, t, h, w], t its target class,
and 0 where t is ignore_index. PyTorch records one node for it,
NllLoss2DBackward0; inputs of 3 or more than 4 dims are viewed as 4-D around
it (nll_loss_nd).

The gradient puts -weight[t] * grad at each pixel's target class (over the
total weight for 'mean'): with create_graph=True that is an op of its own,
NllLoss2DBackwardBackward0, linear in grad and flat in self, as in PyTorch."""
import numpy as np

from .. import kernels
from ..core.node import OpNode
from ..core.ops.selection import zeros_like  # noqa: F401  (the rules call it)
from .nn_ops import _array

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}     # PyTorch's Reduction enum, as grad_fn._saved_reduction shows it


def _mask(shape, target, weight, ignore_index, dtype):
    """(N, C, H, W): weight[t] at each pixel's target class, 0 elsewhere and at ignored pixels."""
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    w = np.ones(shape[1], dtype) if weight is None else np.asarray(weight, dtype)
    classes = np.arange(shape[1]).reshape(1, -1, 1, 1)
    return np.where((safe[:, None] == classes) & keep[:, None], w.reshape(1, -1, 1, 1), 0).astype(dtype)


def nll_loss2d_backward(grad, self, target, weight, reduction, ignore_index, total_weight):
    """PyTorch's nll_loss2d_backward: -weight[t] * grad at each pixel's target class."""
    return NllLoss2DBackwardBackward0.apply(grad, self, _array(target), _array(weight), reduction, ignore_index,
                                            _array(total_weight))


def nll_loss2d(grad, target, weight, reduction, ignore_index):
    """nll_loss2d of a gradient (the double backward of nll_loss2d_backward)."""
    return NllLoss2DBackward0.apply(grad, _array(target), _array(weight), _NAMES[reduction], _signed(ignore_index))


_NAMES = {number: name for name, number in REDUCTIONS.items()}


def _signed(ignore_index):
    return ignore_index - 2 ** 64 if ignore_index >= 2 ** 63 else ignore_index


class NllLoss2DBackward0(OpNode):
    """out = -weight[target] * self[n, target, h, w], reduced: 'mean' divides by total_weight

    self: nll_loss2d_backward(grad, self, target, weight, reduction, ignore_index, total_weight)

    reduction shows as PyTorch's enum (0 none, 1 mean, 2 sum), and a negative
    ignore_index as the unsigned number PyTorch shows.
    """
    saved = ("self",)
    attrs = ("ignore_index", "reduction", "target", "total_weight", "weight")
    saved_arrays = ("target", "total_weight", "weight")

    def forward(self, x, target, weight, reduction, ignore_index):
        t = target.astype(np.int64)
        keep = t != ignore_index
        bad = t[keep & ((t < 0) | (t >= x.shape[1]))]
        if bad.size:
            raise IndexError(f"Target {bad[0]} is out of bounds.")
        self.target, self.weight = target, weight
        self.reduction, self.ignore_index = REDUCTIONS[reduction], ignore_index % 2 ** 64
        safe = np.where(keep, t, 0)
        w_per = np.where(keep, (np.ones(x.shape[1], x.dtype) if weight is None else weight)[safe], 0).astype(x.dtype)
        picked = np.where(keep, -np.take_along_axis(x, safe[:, None], 1)[:, 0] * w_per, 0).astype(x.dtype)
        self.total_weight = np.asarray(keep.sum() if weight is None else kernels.loss_sum(w_per.reshape(-1),
                                                                                          keep.reshape(-1)), x.dtype)
        if reduction == "none":
            return picked
        total = kernels.loss_sum(picked.reshape(-1), keep.reshape(-1))
        return total / self.total_weight if reduction == "mean" else total

    def backward(self, grad, x):
        mask = _mask(x.shape, self.target.astype(np.int64), self.weight, _signed(self.ignore_index), grad.dtype)
        if self.reduction == REDUCTIONS["none"]:
            grad = grad[:, None]
        elif self.reduction == REDUCTIONS["mean"]:
            with np.errstate(divide="ignore", invalid="ignore"):
                grad = grad / self.total_weight
        # only the target slots are written, as PyTorch's kernel: the others stay +0
        return np.where(mask != 0, -mask * grad, 0).astype(mask.dtype)


def nll_loss_nd(input, target, weight, reduction, ignore_index):
    """PyTorch's nll_loss_nd for 3 or more dims: 4-D is nll_loss2d; other
    inputs are viewed as (N, C, 1, -1) around it (ViewBackward0 nodes)."""
    if input.dim() == 4:
        return _nll_loss2d(input, target, weight, reduction, ignore_index)
    out_size = [input.shape[0]] + list(input.shape[2:])
    if list(target.shape[1:]) != list(input.shape[2:]):
        raise RuntimeError(f"Expected target size {out_size}, got {list(target.shape)}")
    n, c = input.shape[:2]
    x = input.contiguous().view(n, c, 1, -1) if input.numel() else input.view(n, c, 0, 0)
    t = target.contiguous().view(n, 1, -1) if target.numel() else target.view(n, 0, 0)
    out = _nll_loss2d(x, t, weight, reduction, ignore_index)
    return out.view(out_size) if reduction == "none" else out


def _nll_loss2d(input, target, weight, reduction, ignore_index):
    """check_inputs_nll_loss2d's messages, then the op."""
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    if weight is not None and weight.numel() != input.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if (input.shape[0], *input.shape[2:]) != tuple(target.shape):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")
    if target.dtype.name not in ("int64", "uint8"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"nll_loss2d_forward_out_frame\" not implemented for '{input.dtype.legacy_name}'")
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return NllLoss2DBackward0.apply(input, target._data, None if weight is None else weight._data, reduction,
                                    ignore_index)


class NllLoss2DBackwardBackward0(OpNode):
    """out = nll_loss2d_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight)

    grad_output: nll_loss2d(grad, target, weight, reduction, ignore_index)
    self: zeros_like(grad)

    NllLoss2DBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "self")
    attrs = ("ignore_index", "reduction", "target", "weight")
    saved_arrays = ("target", "weight")

    def forward(self, g, s, target, weight, reduction, ignore_index, total_weight):
        self.target, self.weight, self.reduction, self.ignore_index = target, weight, reduction, ignore_index
        self.total_weight = total_weight
        return NllLoss2DBackward0.backward(self, g, s)     # as NllLoss2DBackward0's backward computes it

    def backward(self, grad):
        need_g, need_s = self.needs_input_grad
        loss = NllLoss2DBackward0.__new__(NllLoss2DBackward0)    # a scratch node: forward sets its fields
        gg = (loss.forward(grad, self.target, self.weight, _NAMES[self.reduction], _signed(self.ignore_index))
              if need_g else None)
        return gg, (np.zeros_like(grad) if need_s else None)
