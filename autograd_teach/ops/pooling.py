"""Pooling (nn.MaxPool2d, nn.AvgPool2d, nn.AdaptiveAvgPool2d): each output
pixel is the max, or the mean, of the input window under it, channel by
channel. The windows are found as convolution finds them (sliding_window_view);
the input is (C, H, W) or (N, C, H, W), and only the last two dims slide.

- max: the gradient goes to the one input pixel that was the max (the first
  one, where several tie), remembered as its index (PyTorch's result1);
- avg: each input pixel gets grad / divisor from every window it was in: a
  transposed convolution with a kernel of ones (numpy: the columns of
  convolution's col2im, one kernel offset at a time);
- adaptive avg: windows of varying sizes (start = floor(i*H/oh), end =
  ceil((i+1)*H/oh)); a mean over a rectangle is a mean over rows then over
  columns, so it is two matrix products.

The rules are written with recorded ops (index_add, a transposed convolution,
matmuls), so a double backward works; PyTorch records one node of its own
there instead (MaxPool2DWithIndicesBackwardBackward0, ...): the values agree,
the names do not."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..core.node import OpNode
from .conv import ConvolutionBackward0, _col2im
from .rearrange import IndexAddBackward0


def output_size(size, kernel, pad, stride, dilation, ceil_mode):
    """PyTorch's pooling_output_shape: how many windows fit; with ceil_mode a
    last, partial window too, unless it would start in the right padding."""
    span = dilation * (kernel - 1) + 1
    out = (size + 2 * pad - span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _windows(x, kernel, stride, padding, dilation, out_size, fill):
    """(..., oh, ow, kh, kw): the input values under each window, `fill`
    where a window reaches into the padding (or past it, with ceil_mode)."""
    pads = [(0, 0)] * (x.ndim - 2)
    for size, k, s, p, d, o in zip(x.shape[-2:], kernel, stride, padding, dilation, out_size):
        pads.append((p, max((o - 1) * s + d * (k - 1) + 1 - size - p, 0)))
    padded = np.pad(x, pads, constant_values=fill) if any(map(any, pads)) else x    # no padding: no copy
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    windows = sliding_window_view(padded, spans, axis=(-2, -1))
    lead = (slice(None),) * (x.ndim - 2)
    steps = tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(out_size, stride))
    return windows[lead + steps + tuple(slice(None, None, d) for d in dilation)]


# -- max ------------------------------------------------------------------------------

def max_pool2d_with_indices_backward(grad, self, result1):
    """grad added into a zero input at the index of each window's max
    (a pixel that was the max of several windows gets all their grads)."""
    height, width = self.shape[-2:]
    planes = int(np.prod(self.shape[:-2], dtype=np.int64))
    index = _flat_index(_array(result1), planes, height * width)
    flat = grad._wrap(np.zeros(planes * height * width, grad._data.dtype))
    return IndexAddBackward0.apply(flat, grad.reshape(-1), 0, index, 1).reshape(self.shape)


def _array(x):
    return x._data if hasattr(x, "_data") else np.asarray(x)


def _flat_index(indices, planes, plane_size):
    """Each plane's index into H*W, made an index into all planes one after another."""
    per_plane = indices.shape[-2] * indices.shape[-1]
    return (indices.reshape(planes, per_plane) + np.arange(planes).reshape(-1, 1) * plane_size).reshape(-1)


def max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode):
    """The max of each window (numpy), and where it was in its plane (h * W + w)."""
    step = stride or kernel_size
    out_size = [output_size(*a, ceil_mode) for a in zip(x.shape[-2:], kernel_size, padding, step, dilation)]
    lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    windows = _windows(x, kernel_size, step, padding, dilation, out_size, lowest)
    windows = windows.reshape(windows.shape[:-2] + (kernel_size[0] * kernel_size[1],))
    (h, h_inside), (w, w_inside) = [_positions(*a) for a in zip(out_size, kernel_size, step, padding, dilation,
                                                                 x.shape[-2:])]
    inside = (h_inside[:, None, :, None] & w_inside[None, :, None, :]).reshape(*out_size, -1)
    where = _first_max(windows, inside)
    rows = h[np.arange(out_size[0]).reshape(-1, 1), where // kernel_size[1]]
    cols = w[np.arange(out_size[1]), where % kernel_size[1]]
    return np.take_along_axis(windows, where[..., None], -1)[..., 0], rows * x.shape[-1] + cols


def _positions(out, kernel, stride, pad, dilation, size):
    """(out, kernel): the input row (or column) under each kernel offset of each window, and whether it is inside."""
    at = np.arange(out).reshape(-1, 1) * stride - pad + np.arange(kernel) * dilation
    return at, (at >= 0) & (at < size)


def _first_max(windows, inside):
    """Where each window's max is, as PyTorch's kernel finds it: the first of
    tied maxima among the input pixels (never the padding, even when all are
    -inf); a NaN wins, the last NaN if several."""
    best = windows.max(-1, keepdims=True)
    first = ((windows == best) & inside).argmax(-1)
    if windows.dtype.kind != "f":
        return first
    nan = np.isnan(windows) & inside
    last_nan = windows.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
    return np.where(nan.any(-1), last_nan, first)


class MaxPool2DWithIndicesBackward0(OpNode):
    """out = max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)   (and result1)

    self: max_pool2d_with_indices_backward(grad, self, result1)

    result1 holds, for each output pixel, where its max was: an index into
    its input plane (h * W + w). stride shows () when it defaulted to kernel_size.
    """
    saved = ("self",)
    attrs = ("ceil_mode", "dilation", "kernel_size", "padding", "result1", "stride")
    saved_arrays = ("result1",)

    def forward(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.ceil_mode = dilation, ceil_mode
        out, self.result1 = max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode)
        return out

    def backward(self, grad, x):
        planes, plane_size = int(np.prod(x.shape[:-2], dtype=np.int64)), x.shape[-2] * x.shape[-1]
        out = np.zeros(planes * plane_size, grad.dtype)
        np.add.at(out, _flat_index(self.result1, planes, plane_size), grad.reshape(-1))
        return out.reshape(x.shape)


# -- avg ------------------------------------------------------------------------------

def _window_sums(windows):
    """Each window's sum, row by row, left to right, as PyTorch's kernel adds
    (so that float32 sums round as its do; the zeros of the padding change nothing)."""
    total = np.zeros(windows.shape[:-2], windows.dtype)
    for i in range(windows.shape[-2]):
        for j in range(windows.shape[-1]):
            total += windows[..., i, j]
    return total


def _divisors(size, kernel, stride, padding, out_size, ceil_mode, count_include_pad, divisor_override):
    """What each window's sum is divided by: divisor_override; else the
    window's size inside the padded input (count_include_pad); else only
    the input pixels in it. PyTorch's avg_pool2d kernel, for all windows at once."""
    if divisor_override:
        return np.full(out_size, divisor_override)
    both = []
    for n, k, s, p, o in zip(size, kernel, stride, padding, out_size):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        both.append(end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0))
    return both[0].reshape(-1, 1) * both[1]


def _spread_shape(grad, input_shape, kernel, stride, padding):
    """The planes, and the output_padding for spreading each output pixel's
    grad over its window (a transposed convolution of each plane with a
    kernel of ones) to at least the input's size: ceil_mode's last windows
    may reach past it, and the result is then cut to it."""
    planes = int(np.prod(input_shape[:-2], dtype=np.int64))
    extra = [max(n - ((o - 1) * s + k - 2 * p), 0)
             for n, o, k, s, p in zip(input_shape[-2:], grad.shape[-2:], kernel, stride, padding)]
    return planes, extra


def avg_pool2d_backward(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """grad / divisor, spread back over each window (as recorded ops)."""
    step = stride or kernel_size
    div = _divisors(self.shape[-2:], kernel_size, step, padding, grad.shape[-2:], ceil_mode, count_include_pad,
                    divisor_override)
    planes, extra = _spread_shape(grad, self.shape, kernel_size, step, padding)
    g = (grad / grad._wrap(div.astype(grad._data.dtype))).reshape(planes, 1, *grad.shape[-2:])
    ones = grad._wrap(np.ones((1, 1) + tuple(kernel_size), grad._data.dtype))
    out = ConvolutionBackward0.apply(g, ones, 0.0, step, padding, (1, 1), True, extra, 1)
    return out[:, :, :self.shape[-2], :self.shape[-1]].reshape(self.shape)


class AvgPool2DBackward0(OpNode):
    """out = avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

    self: avg_pool2d_backward(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
        divisor_override)

    Each output is its window's sum divided by a divisor (see _divisors).
    """
    saved = ("self",)
    attrs = ("ceil_mode", "count_include_pad", "divisor_override", "kernel_size", "padding", "stride")

    def forward(self, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
        self.kernel_size, self.stride, self.padding, self.ceil_mode = kernel_size, stride, padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        step = stride or kernel_size
        out_size = [output_size(*a, 1, ceil_mode) for a in zip(x.shape[-2:], kernel_size, padding, step)]
        sums = _window_sums(_windows(x, kernel_size, step, padding, (1, 1), out_size, 0))
        div = _divisors(x.shape[-2:], kernel_size, step, padding, out_size, ceil_mode, count_include_pad,
                        divisor_override)
        if x.dtype.kind != "f":             # integers: C++'s division, toward zero
            return (np.sign(sums) * (np.abs(sums) // div)).astype(x.dtype)
        return sums / div.astype(x.dtype)

    def backward(self, grad, x):
        step = self.stride or self.kernel_size
        div = _divisors(x.shape[-2:], self.kernel_size, step, self.padding, grad.shape[-2:], self.ceil_mode,
                        self.count_include_pad, self.divisor_override)
        return _spread(grad / div.astype(grad.dtype), x.shape, self.kernel_size, step, self.padding)


def _spread(g, input_shape, kernel, stride, padding):
    """Each window's g added back over the window (col2im of g repeated over
    the kernel, never copied), on an input at least as large as the windows
    reach (ceil_mode's last ones may go past it), then cut to the input."""
    planes, extra = _spread_shape(g, input_shape, kernel, stride, padding)
    size = tuple(n + e for n, e in zip(input_shape[-2:], extra))
    size = tuple(max(n, (o - 1) * s + k - 2 * p) for n, o, s, k, p in zip(size, g.shape[-2:], stride, kernel, padding))
    cols = np.broadcast_to(g.reshape(planes, 1, 1, 1, *g.shape[-2:]), (planes, 1, *kernel, *g.shape[-2:]))
    out = _col2im(cols, size, stride, padding, (1, 1))
    return out[:, 0, :input_shape[-2], :input_shape[-1]].reshape(input_shape)


# -- adaptive avg ----------------------------------------------------------------------

def _starts_and_sizes(size, out):
    """Where each window starts, and how long it is."""
    i = np.arange(out)
    start = i * size // out
    return start, -(-(i + 1) * size // out) - start


def _window_matrix(size, out, dtype):
    """(out, size): row i has 1 over window i, start = floor(i*size/out), end = ceil((i+1)*size/out)."""
    i = np.arange(out).reshape(-1, 1)
    start, end = i * size // out, -(-(i + 1) * size // out)
    return ((np.arange(size) >= start) & (np.arange(size) < end)).astype(dtype)


def _adaptive_matrices(in_size, out_size, dtype):
    rows, cols = _window_matrix(in_size[0], out_size[0], dtype), _window_matrix(in_size[1], out_size[1], dtype)
    counts = rows.sum(1).reshape(-1, 1) * cols.sum(1)
    return rows, cols, counts


def adaptive_avg_pool2d_backward(grad, self):
    """Each window's grad / its size, back over the window: rows.T @ (grad / counts) @ cols."""
    rows, cols, counts = _adaptive_matrices(self.shape[-2:], grad.shape[-2:], grad._data.dtype)
    return grad._wrap(rows.T.copy()) @ (grad / grad._wrap(counts)) @ grad._wrap(cols)


class AdaptiveAvgPool2DBackward0(OpNode):
    """out = _adaptive_avg_pool2d(self, output_size)

    self: adaptive_avg_pool2d_backward(grad, self)

    The window sums are rows @ self @ cols.T, each then divided by its window's size.
    """
    saved = ("self",)

    def forward(self, x, out_size):
        (h0, kh), (w0, kw) = [_starts_and_sizes(n, o) for n, o in zip(x.shape[-2:], out_size)]
        total = np.zeros(x.shape[:-2] + tuple(out_size), x.dtype)
        for i in range(kh.max(initial=0)):       # row by row, left to right, as PyTorch's kernel adds
            for j in range(kw.max(initial=0)):
                inside = (i < kh).reshape(-1, 1) & (j < kw)
                rows, cols = np.minimum(h0 + i, x.shape[-2] - 1), np.minimum(w0 + j, x.shape[-1] - 1)
                total += np.where(inside, x[..., rows.reshape(-1, 1), cols], 0)
        return total / kh.reshape(-1, 1).astype(x.dtype) / kw.astype(x.dtype)

    def backward(self, grad, x):
        rows, cols, _ = _adaptive_matrices(x.shape[-2:], grad.shape[-2:], grad.dtype)
        (_, kh), (_, kw) = [_starts_and_sizes(n, o) for n, o in zip(x.shape[-2:], grad.shape[-2:])]
        return rows.T @ (grad / kh.reshape(-1, 1).astype(grad.dtype) / kw.astype(grad.dtype)) @ cols


# -- PyTorch's argument checks, off the reading path ------------------------------------

def pair(value, name, what, allow_empty=False):
    """2 -> (2, 2); a tuple of one or two ints; stride may be None or () (then: kernel_size)."""
    if allow_empty and (value is None or (isinstance(value, (tuple, list)) and len(value) == 0)):
        return ()
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if len(values) not in (1, 2):
        raise RuntimeError(f"{name}: {what}")
    return values * 2 if len(values) == 1 else values


def check_pool(x, kernel, stride, padding, dilation, ceil_mode, name):
    """pool2d_shape_check's messages, in its order."""
    if any(s == 0 for s in stride or kernel):
        raise RuntimeError("stride should not be zero")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
                           f"dilationW: {dilation[1]}")
    if x.dim() not in (3, 4) or 0 in x.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{list(x.shape)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    out = [output_size(*a, ceil_mode) for a in zip(x.shape[-2:], kernel, padding, stride or kernel, dilation)]
    if min(out) < 1:
        c, (h, w) = x.shape[-3], x.shape[-2:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")
