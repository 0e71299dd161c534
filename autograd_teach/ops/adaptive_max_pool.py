"""Adaptive max pooling (nn.AdaptiveMaxPool1d, nn.AdaptiveMaxPool2d): the
input cut into output_size windows as even as can be (window i runs from
floor(i*H/oh) to ceil((i+1)*H/oh), as adaptive avg pooling's), each giving
its max, and where the max was in its plane (h * W + w). 1-D is 2-D on
x.unsqueeze(-2), as PyTorch records it.

The gradient goes to the one pixel that was the max, as max pooling's: the
same rule, with the indices this op found (ops/pooling.py)."""
import numpy as np

from ..core.node import OpNode
from .pooling import _first_max, max_pool2d_with_indices_backward


def _window_rows(size, out):
    """(out, longest window): the input row under each offset of each window
    (clamped to the input), and whether the offset is inside its window."""
    i = np.arange(out)
    start, end = i * size // out, -(-(i + 1) * size // out)
    longest = int((end - start).max(initial=0))
    at = start.reshape(-1, 1) + np.arange(longest)
    return np.minimum(at, size - 1), at < end.reshape(-1, 1)


def adaptive_max_pool2d(x, output_size):
    """The max of each window (numpy), and its index h * W + w in its plane:
    PyTorch's kernel keeps the first of tied maxima, and a NaN wins (the last NaN)."""
    if 0 in x.shape or 0 in output_size:
        shape = x.shape[:-2] + tuple(output_size)
        return np.zeros(shape, x.dtype), np.zeros(shape, np.int64)
    (rows, row_in), (cols, col_in) = [_window_rows(n, o) for n, o in zip(x.shape[-2:], output_size)]
    windows = x[..., rows[:, None, :, None], cols[None, :, None, :]]      # (..., oh, ow, kh, kw)
    inside = row_in[:, None, :, None] & col_in[None, :, None, :]
    windows = np.where(inside, windows, np.array(-np.inf, x.dtype)).reshape(windows.shape[:-2] + (-1,))
    where = _first_max(windows, np.broadcast_to(inside.reshape(inside.shape[:2] + (-1,)), windows.shape))
    h = rows[np.arange(output_size[0]).reshape(-1, 1), where // cols.shape[1]]
    w = cols[np.arange(output_size[1]), where % cols.shape[1]]
    return np.take_along_axis(windows, where[..., None], -1)[..., 0], h * x.shape[-1] + w


def adaptive_max_pool2d_backward(grad, self, result1):
    """grad added into a zero input at each window's max (max pooling's backward)."""
    return max_pool2d_with_indices_backward(grad, self, result1)


class AdaptiveMaxPool2DBackward0(OpNode):
    """out = adaptive_max_pool2d(self, output_size)   (and result1, where each max was: h * W + w)

    self: adaptive_max_pool2d_backward(grad, self, result1)
    """
    saved = ("self",)
    attrs = ("result1",)
    saved_arrays = ("result1",)

    def forward(self, x, output_size):
        out, self.result1 = adaptive_max_pool2d(x, output_size)
        return out

    def backward(self, grad, x):
        planes, plane_size = int(np.prod(x.shape[:-2], dtype=np.int64)), x.shape[-2] * x.shape[-1]
        out = np.zeros(planes * plane_size, grad.dtype)
        flat = self.result1.reshape(planes, grad.shape[-2] * grad.shape[-1]) + np.arange(planes).reshape(-1, 1) * plane_size
        np.add.at(out, flat.reshape(-1), grad.reshape(-1))
        return out.reshape(x.shape)
