"""The helpers that some derivative rules call, as PyTorch's rules call the
functions of torch/csrc/autograd/FunctionsManual.cpp (select_backward, ...).

They are written with Tensor ops, so a rule that calls one is differentiable
again (create_graph=True); `formulas` puts them in the namespace the rules are
evaluated in. Each takes what the rule names: the gradient and the node's
saved values.
"""
import numpy as np

from .loss import MseLossBackwardBackward0
from .pointwise import SigmoidBackwardBackward0, TanhBackwardBackward0, ThresholdBackwardBackward0
from .selection import IndexPutImplBackward0, ScatterBackward0, SelectBackwardBackward0, SliceBackwardBackward0


def _zeros(t, sizes):
    return t._wrap(np.zeros(sizes, dtype=t._data.dtype))


def _unsqueeze_dims(t, dims):
    for d in sorted(dims):
        t = t.unsqueeze(d)
    return t


def sum_backward(grad, sizes, dims, keepdim):
    """A sum over dims undone: the summed dims put back (unsqueeze), then expanded."""
    if not keepdim and len(sizes):
        grad = _unsqueeze_dims(grad, dims)
    return grad.expand(tuple(sizes))


def unsqueeze_to(grad, dim, sizes):
    """A squeeze undone: a size-1 dim put back at each place it was dropped
    (dim None: every size-1 dim of sizes)."""
    dims = range(len(sizes)) if dim is None else ((dim,) if isinstance(dim, int) else dim)
    for d in sorted(dims):
        if d < len(sizes) and sizes[d] == 1:     # a 0-d self had no dim to drop
            grad = grad.unsqueeze(d)
    return grad


def select_backward(grad, input_sizes, dim, index):
    """grad back into its row of zeros."""
    return SelectBackwardBackward0.apply(grad, tuple(input_sizes), dim, index)


def slice_backward(grad, input_sizes, dim, start, end, step):
    """grad back into its slice of zeros."""
    return SliceBackwardBackward0.apply(grad, tuple(input_sizes), dim, start, end, step)


def index_backward(zeros, indices, grad):
    """grad added into zeros at indices (repeated indices add up)."""
    return IndexPutImplBackward0.apply(zeros, grad, indices._data if hasattr(indices, "_data") else indices, True)


def value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim):
    """max(dim)/min(dim): grad to the element that was picked, zeros elsewhere."""
    if not len(sizes):
        return grad
    if not keepdim:
        grad, indices = grad.unsqueeze(dim), indices.unsqueeze(dim)
    return ScatterBackward0.apply(_zeros(grad, tuple(sizes)), grad, dim, indices._data)


def linalg_vector_norm_backward(grad, self, ord, result, dim, keepdim):
    """The gradient of a vector norm, one case per ord (PyTorch: norm_backward)."""
    from .selection import where
    if ord == 0:
        return None                    # a count of nonzeros is flat: no gradient at all
    if dim is not None and not keepdim and self.dim():
        grad, result = _unsqueeze_dims(grad, dim), _unsqueeze_dims(result, dim)
    sign = self._wrap(np.sign(self._data))    # sign(self) is flat: a constant of the graph
    if ord == 2:
        return self * where(result == 0, 0.0, grad / result)
    if ord == 1:
        return self.sgn() * grad
    if ord == float("inf"):
        mask = np.abs(self._data) == result._data
        return grad * self._wrap(np.sign(self._data) * mask / mask.sum(axis=dim, keepdims=True))
    return where(result == 0, 0.0, grad * sign * self.abs().pow(ord - 1) / result.pow(ord - 1))


def tanh_backward(grad_output, output):
    """grad_output * (1 - output * output), recorded as one op."""
    return TanhBackwardBackward0.apply(grad_output, output)


def sigmoid_backward(grad_output, output):
    """grad_output * output * (1 - output), recorded as one op."""
    return SigmoidBackwardBackward0.apply(grad_output, output)


def threshold_backward(grad_output, self, threshold):
    """grad_output where self > threshold, else 0, recorded as one op."""
    return ThresholdBackwardBackward0.apply(grad_output, self, threshold)


def mse_loss_backward(grad_output, self, target, reduction):
    """2 * (self - target) * grad_output, over the number of elements for 'mean': one op."""
    return MseLossBackwardBackward0.apply(grad_output, self, target, reduction)


def mse_loss_double_backward(grad, input, reduction):
    """The derivative of mse_loss_backward w.r.t. self (times grad)."""
    grad_input = 2 * grad
    return grad_input / input.numel() if reduction == "mean" else grad_input


HELPERS = {f.__name__: f for f in (
    sum_backward, unsqueeze_to, mse_loss_backward, mse_loss_double_backward, tanh_backward,
    sigmoid_backward, threshold_backward, select_backward, slice_backward, index_backward,
    value_selecting_reduction_backward, linalg_vector_norm_backward)}
