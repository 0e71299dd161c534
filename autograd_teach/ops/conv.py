"""Convolution (nn.Conv1d, nn.Conv2d): each output pixel is a weighted sum
of the input window under it. PyTorch records one node for every kind,
ConvolutionBackward0, with a `transposed` flag (conv_transpose runs the same
sums backwards). Its two gradients are convolutions again:

- the input's is a transposed convolution of grad with the same weight
  (each input pixel collects grad from every window it was in);
- the weight's is a convolution of the input with grad as the kernel
  (each weight meets every input pixel under it, times grad there).

So the rules are written with the op itself, and a double backward records
more ConvolutionBackward0 nodes (PyTorch records one ConvolutionBackwardBackward0
with three outputs instead: the values agree, the names do not).

The numpy work is im2col: sliding_window_view finds each output position's
window, one copy lays them out as columns for the whole batch, and one
matmul call multiplies the weight into them; the transposed sums add the
columns back (col2im), one kernel offset at a time."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..core.node import OpNode


# -- the numpy kernels ------------------------------------------------------------
# Three functions do all the sums, each for the whole batch in one numpy call:
# _columns lays the input out as columns (im2col), _conv multiplies the weight
# into them, _col2im adds columns back into an input (the transposed sums).

def _windows(x, kernel, stride, padding, dilation):
    """(N, C, *out, *kernel): the input values under each kernel position."""
    nd = len(kernel)
    padded = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding]) if any(padding) else x
    span = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    windows = sliding_window_view(padded, span, axis=tuple(range(2, 2 + nd)))
    step = tuple(slice(None, None, s) for s in stride) + tuple(slice(None, None, d) for d in dilation)
    return windows[(slice(None), slice(None)) + step]


def _columns(x, kernel, stride, padding, dilation):
    """(N, C * K, P): for each sample, one row per (channel, kernel offset) and
    one column per output pixel (im2col, with the pixels last: the copy then
    runs along rows of the input, and the product's result is NCHW as it is)."""
    windows = _windows(x, kernel, stride, padding, dilation)            # (N, C, *out, *kernel)
    return _columns_of(windows, len(kernel)), windows.shape[2:2 + len(kernel)]


def _columns_of(windows, nd):
    """_columns' copy, from _windows' view (of the whole batch or of a block of it)."""
    n, c, out_size, kernel = windows.shape[0], windows.shape[1], windows.shape[2:2 + nd], windows.shape[2 + nd:]
    order = (0, 1) + tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(2, 2 + nd))
    return windows.transpose(order).reshape(n, c * int(np.prod(kernel)), int(np.prod(out_size)))


# The columns of a whole batch are many times the input (25x for a 5x5 kernel:
# 20 MB for LeNet's first layer at batch 256), and a product that streams them
# from memory waits on it. So they are made and used a block of samples at a
# time, about this many elements, which stay in the cache; every sample's
# sums are the same as in one pass.
BLOCK = 1 << 17


def _blocks(n, per_sample):
    """Slices of the batch whose columns (per_sample elements a sample) fill about BLOCK."""
    step = max(1, BLOCK // max(per_sample, 1))
    return [slice(start, start + step) for start in range(0, n, step)]


def _conv(x, w, stride, padding, dilation, groups):
    """out[n, o, p] = sum over c, k of x_padded[n, c, p*stride + k*dilation] * w[o, c, k],
    c running over o's group: the weight (O, C * K) times each sample's columns."""
    n, g, o, nd = x.shape[0], groups, w.shape[0], w.ndim - 2
    windows = _windows(x, w.shape[2:], stride, padding, dilation)         # (N, C, *out, *kernel)
    out_size = windows.shape[2:2 + nd]
    pixels, rows = int(np.prod(out_size)), w[0].size * g                   # rows: C * K
    weight = w.reshape(g, o // g, -1)
    out = np.empty((n, o, pixels), np.result_type(x, w))
    for part in _blocks(n, rows * pixels):
        cols = _columns_of(windows[part], nd)
        out[part] = (weight @ cols.reshape(len(cols), g, rows // g, pixels)).reshape(len(cols), o, pixels)
    return out.reshape(n, o, *out_size)


def _block_rows(windows, g):
    """(g, C/g * K, nb * P): the columns of a block of samples, one row per
    (channel, kernel offset), the block's pixels one sample after another."""
    nd = (windows.ndim - 2) // 2
    order = (1,) + tuple(range(2 + nd, 2 + 2 * nd)) + (0,) + tuple(range(2, 2 + nd))
    return windows.transpose(order).reshape(g, windows.shape[1] // g * int(np.prod(windows.shape[2 + nd:])), -1)


def _col2im(cols, size, stride, padding, dilation):
    """The transpose of _columns: cols (N, C, *kernel, *out) added back into a
    zero input of spatial `size`, each kernel offset's slab in one step; the
    offsets run last to first, so that an input pixel under several windows
    collects them in the windows' order (as PyTorch's pooling backward adds)."""
    nd = len(size)
    kernel, out_size = cols.shape[2:2 + nd], cols.shape[2 + nd:]
    padded = np.zeros(cols.shape[:2] + tuple(s + 2 * p for s, p in zip(size, padding)), cols.dtype)
    if tuple(stride) == tuple(kernel) and set(dilation) == {1}:     # windows side by side: one add does it
        _add_tiles(padded, cols, kernel, out_size)
    else:
        _add_offsets(padded, cols, kernel, out_size, stride, dilation)
    return padded[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, size))]


def _add_offsets(padded, cols, kernel, out_size, stride, dilation):
    for offset in reversed(list(np.ndindex(*kernel))):
        at = tuple(slice(k * d, k * d + (o - 1) * s + 1, s) for k, d, o, s in zip(offset, dilation, out_size, stride))
        padded[(slice(None), slice(None)) + at] += cols[(slice(None), slice(None)) + offset]


def _add_tiles(padded, cols, kernel, out_size):
    """Windows that tile the input (stride = kernel): each pixel is under one
    window, so all offsets are added at once, as (..., out, kernel) pairs of axes."""
    nd = len(kernel)
    region = padded[(slice(None), slice(None)) + tuple(slice(0, o * k) for o, k in zip(out_size, kernel))]
    tiles = np.reshape(region, cols.shape[:2] + tuple(v for pair in zip(out_size, kernel) for v in pair), copy=False)
    order = (0, 1) + tuple(v for i in range(nd) for v in (2 + nd + i, 2 + i))
    tiles += cols.transpose(order)


def _conv_transpose(x, w, stride, padding, output_padding, dilation, groups):
    """The transpose of _conv: each x pixel spreads over a window of the output,
    weighted by w (C_in, C_out/g, *kernel): the weight's transpose times x's
    pixels gives the columns, and _col2im adds them into the output."""
    n, c, g, kernel, in_size = x.shape[0], x.shape[1], groups, w.shape[2:], x.shape[2:]
    size = tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1
                 for i, s, p, d, k, op in zip(in_size, stride, padding, dilation, kernel, output_padding))
    if set(stride) == {1} and not any(output_padding) and np.isfinite(w).all() and n * c:
        return _conv_transpose_rows(x, w, size, padding, dilation, groups)
    wt = w.reshape(g, c // g, -1).transpose(0, 2, 1)                      # (g, o/g * K, c/g)
    cols = wt @ x.reshape(n, g, c // g, int(np.prod(in_size)))            # (N, g, o/g * K, P)
    cols = cols.reshape(n, w.shape[1] * g, *kernel, *in_size)
    return np.ascontiguousarray(_col2im(cols, size, stride, padding, dilation))


def _conv_transpose_rows(x, w, size, padding, dilation, groups):
    """_conv_transpose at stride 1, with the same sums in the same order, on
    whole rows: x is widened with zero columns to the padded output's width
    (and depth), so that each kernel offset's columns land on one contiguous
    run of the flattened output, added in one step. The zero columns add
    0 * w = 0 elsewhere, which changes no sum (the output starts at +0, so
    it never holds -0); a weight with inf or nan takes the other way."""
    n, c, g, kernel, in_size = x.shape[0], x.shape[1], groups, w.shape[2:], x.shape[2:]
    full = tuple(s + 2 * p for s, p in zip(size, padding))              # the padded output
    pitch = [int(np.prod(full[d + 1:])) for d in range(len(full))]       # flat step of each dim
    run, k = in_size[0] * pitch[0], int(np.prod(kernel))
    weight = w.reshape(g, c // g, -1).transpose(0, 2, 1)                 # (g, o/g * K, c/g)
    starts = [sum(i * d * p for i, d, p in zip(offset, dilation, pitch)) for offset in np.ndindex(*kernel)]
    flat = np.zeros((n, w.shape[1] * g, (full[0] + 1) * pitch[0]), x.dtype)   # a row more: the last runs spill over
    for part in _blocks(n, w.size // c * g * run):                           # (the columns: o * K * run a sample)
        wide = np.zeros((len(flat[part]), c, in_size[0]) + full[1:], x.dtype)
        wide[(slice(None), slice(None)) + tuple(slice(0, i) for i in in_size)] = x[part]
        cols = (weight @ wide.reshape(len(wide), g, c // g, run)).reshape(len(wide), -1, k, run)
        into = flat[part]
        for i in reversed(range(k)):
            into[:, :, starts[i]:starts[i] + run] += cols[:, :, i]
    out = flat[:, :, :full[0] * pitch[0]].reshape(n, -1, *full)
    return np.ascontiguousarray(out[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, size))])


SMALL_COLUMNS = 1 << 18   # up to this many column elements the weight's gradient takes PyTorch's order


def _conv_weight(x, grad, kernel, stride, padding, dilation, groups):
    """The weight's gradient of out = _conv(x, w): each weight times the input
    pixels it met, times grad there, summed over the batch and the pixels
    together (one product per group, N * P long).

    Small inputs lay the columns out pixel by pixel, a product whose sums
    give PyTorch's bits (measured against torch 2.13); for large ones that
    copy costs more than the product, so the columns are copied along the
    input's rows, a block of samples at a time, and handed to the product
    transposed: the same sums in another order (BLAS's within a block, the
    blocks' added in turn; docs/float32.md)."""
    n, c, o, g, nd, k = x.shape[0], x.shape[1], grad.shape[1], groups, len(kernel), int(np.prod(kernel))
    windows = _windows(x, kernel, stride, padding, dilation)            # (N, C, *out, *kernel)
    per_sample = int(np.prod(grad.shape[2:]))
    spatial, kernel_axes = tuple(range(2, 2 + nd)), tuple(range(2 + nd, 2 + 2 * nd))
    if windows.size <= SMALL_COLUMNS:
        pixels = n * per_sample
        grads = grad.reshape(n, g, o // g, per_sample).transpose(1, 2, 0, 3).reshape(g, o // g, pixels)
        rows = windows.transpose((1, 0) + spatial + kernel_axes).reshape(g, c // g, pixels, k)
        rows = rows.transpose(0, 2, 1, 3).reshape(g, pixels, c // g * k)  # (g, N * P, c/g * K)
        return (grads @ rows).reshape(o, c // g, *kernel)
    total = 0
    for part in _blocks(n, c * k * per_sample):     # the sums a block at a time, the blocks' sums added in turn
        rows = _block_rows(windows[part], g)
        block = grad[part].reshape(-1, g, o // g, per_sample).transpose(1, 2, 0, 3).reshape(g, o // g, -1)
        total = total + block @ rows.swapaxes(1, 2)
    return total.reshape(o, c // g, *kernel)


def _full(values, dims):
    """padding='valid' is kept as (0,), as PyTorch shows it: one value for every dim."""
    return tuple(values) * dims if len(values) == 1 else tuple(values)


def _backward_output_padding(input_size, grad_size, kernel, stride, padding, dilation):
    """The output_padding that makes conv_transpose(grad) input_size again
    (the pixels the last window's stride stepped over)."""
    padding = _full(padding, len(kernel))
    return tuple(s + 2 * p - ((o - 1) * st + d * (k - 1) + 1)
                 for s, o, k, st, p, d in zip(input_size, grad_size, kernel, stride, padding, dilation))


# -- the rules' functions: the same sums, as recorded ops ---------------------------

def convolution_backward_input(grad, input, weight, stride, padding, dilation, transposed, output_padding, groups):
    """The input's gradient: a convolution the other way, with the same weight."""
    if transposed:
        return ConvolutionBackward0.apply(grad, weight, 0.0, stride, padding, dilation, False,
                                          (0,) * len(stride), groups)
    extra = _backward_output_padding(input.shape[2:], grad.shape[2:], weight.shape[2:], stride, padding, dilation)
    return ConvolutionBackward0.apply(grad, weight, 0.0, stride, padding, dilation, True, extra, groups)


def convolution_backward_weight(grad, input, weight, stride, padding, dilation, transposed, groups):
    """The weight's gradient. For conv_transpose, input and grad swap roles."""
    if transposed:
        input, grad = grad, input
    return weight_as_convolution(input, grad, weight.shape[2:], stride, padding, dilation, groups)


def weight_as_convolution(input, grad, kernel, stride, padding, dilation, groups):
    """_conv_weight as a convolution: the channels become the batch, the batch
    the channels, and grad is the kernel (stride and dilation trade places);
    the result may be longer than the kernel (pixels no window reached), and
    is cut to it."""
    n, c, o, g, nd = input.shape[0], input.shape[1], grad.shape[1], groups, len(kernel)
    spatial = tuple(range(3, 3 + nd))
    size, grad_size = input.shape[2:], grad.shape[2:]
    x = input.reshape(n, g, c // g, *size).permute(2, 1, 0, *spatial).reshape(c // g, g * n, *size)
    k = grad.reshape(n, g, o // g, *grad_size).permute(1, 2, 0, *spatial).reshape(o, n, *grad_size)
    out = ConvolutionBackward0.apply(x, k, 0.0, dilation, padding, stride, False, (0,) * nd, g)
    out = out[(slice(None), slice(None)) + tuple(slice(0, size) for size in kernel)]
    return out.reshape(c // g, g, o // g, *kernel).permute(1, 2, 0, *spatial).reshape(o, c // g, *kernel)


def convolution_backward_bias(grad):
    """grad summed over the batch and the pixels: one value per channel."""
    return grad.sum((0,) + tuple(range(2, grad.dim())))


class ConvolutionBackward0(OpNode):
    """out = convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)

    input: convolution_backward_input(grad, input, weight, stride, padding, dilation, transposed,
        output_padding, groups)
    weight: convolution_backward_weight(grad, input, weight, stride, padding, dilation, transposed, groups)
    bias: convolution_backward_bias(grad)

    PyTorch's rule is one call, convolution_backward(grad, input, weight,
    bias_sizes, ...), which returns the three. Without a bias, 0 stands in
    its place (no edge), and bias_sym_sizes_opt shows (0,) as PyTorch's does.
    """
    inputs = ("input", "weight", "bias")
    saved = ("input", "weight")
    attrs = ("bias_sym_sizes_opt", "dilation", "groups", "output_padding", "padding", "stride", "transposed")

    def forward(self, x, w, bias, stride, padding, dilation, transposed, output_padding, groups):
        self.stride, self.padding, self.dilation = tuple(stride), tuple(padding), tuple(dilation)
        self.transposed, self.output_padding, self.groups = transposed, tuple(output_padding), groups
        self.bias_sym_sizes_opt = bias.shape if isinstance(bias, np.ndarray) else (0,)
        padding, output_padding = _full(padding, w.ndim - 2), _full(output_padding, w.ndim - 2)
        if transposed:
            out = _conv_transpose(x, w, stride, padding, output_padding, dilation, groups)
        else:
            out = _conv(x, w, stride, padding, dilation, groups)
        if isinstance(bias, np.ndarray):
            out += bias.reshape((1, -1) + (1,) * (out.ndim - 2))
        return out

    def backward(self, grad, x, w):
        need_input, need_weight, need_bias = self.needs_input_grad
        args = self.stride, _full(self.padding, w.ndim - 2), self.dilation, self.groups
        if self.transposed:
            gx = _conv(grad, w, *args) if need_input else None
            gw = _conv_weight(grad, x, w.shape[2:], *args) if need_weight else None
        else:
            extra = _backward_output_padding(x.shape[2:], grad.shape[2:], w.shape[2:], *args[:3])
            gx = _conv_transpose(grad, w, *args[:2], extra, *args[2:]) if need_input else None
            gw = _conv_weight(x, grad, w.shape[2:], *args) if need_weight else None
        gb = grad.sum((0,) + tuple(range(2, grad.ndim))) if need_bias else None
        return gx, gw, gb


# -- PyTorch's argument checks (at::convolution), off the reading path -------------

def expand_param(value, name, given, dims):
    """stride=2 -> (2, 2) (conv2d's int[2]: `given` copies); a list of one
    value is repeated; else it must have one value per dim of the weight."""
    values = list(value) if isinstance(value, (tuple, list)) else [value] * given
    if len(values) == 1:
        return tuple(values) * dims
    if len(values) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} values to match the "
                           f"convolution dimensions, but got {name}={values}")
    return tuple(values)


_C_TYPE = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int"}


def check_convolution(input, weight, bias, stride, padding, dilation, groups):
    """PyTorch's messages, in its order, for arguments no convolution fits."""
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    w = list(weight.shape)
    if w[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {w} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{w}] instead")
    if input.shape[1] != w[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {w}, expected input{list(input.shape)} to have "
                           f"{w[1] * groups} channels, but got {input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[0]):
        raise RuntimeError(f"Given weight of size {w}, expected bias to be 1-dimensional with {w[0]} elements, but "
                           f"got bias of size {list(bias.shape)} instead")
    padded = [s + 2 * p for s, p in zip(input.shape[2:], padding)]
    span = [d * (k - 1) + 1 for k, d in zip(w[2:], dilation)]
    if any(k > s for k, s in zip(span, padded)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, span))}). Kernel size can't be greater than actual input size")
    if bias is not None and bias.dtype != input.dtype:      # PyTorch checks the bias first
        raise RuntimeError(f"Input type ({_C_TYPE.get(input.dtype.np.name, input.dtype.np.name)}) and bias type "
                           f"({_C_TYPE.get(bias.dtype.np.name, bias.dtype.np.name)}) should be the same")
    if weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")
