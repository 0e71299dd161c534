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

The numpy work is im2col: sliding_window_view puts each output position's
window in a row, and one matmul per group does all the sums."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..core.node import OpNode
from .padding import _pad


# -- the numpy kernels ------------------------------------------------------------

def _windows(x, kernel, stride, padding, dilation):
    """(N, C, *out, *kernel): the input values under each kernel position."""
    nd = len(kernel)
    padded = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    span = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    windows = sliding_window_view(padded, span, axis=tuple(range(2, 2 + nd)))
    step = tuple(slice(None, None, s) for s in stride) + tuple(slice(None, None, d) for d in dilation)
    return windows[(slice(None), slice(None)) + step]


def _conv(x, w, stride, padding, dilation, groups):
    """out[n, o, p] = sum over c, k of x_padded[n, c, p*stride + k*dilation] * w[o, c, k],
    c running over o's group: a matmul of the windows (im2col) by the weight."""
    n, c, g, o, kernel = x.shape[0], x.shape[1], groups, w.shape[0], w.shape[2:]
    windows = _windows(x, kernel, stride, padding, dilation)
    out_size = windows.shape[2:2 + len(kernel)]
    rows = np.moveaxis(windows.reshape(n, g, c // g, *out_size, *kernel), 2, 2 + len(kernel))
    rows = rows.reshape(n, g, int(np.prod(out_size)), c // g * int(np.prod(kernel)))   # (N, g, pixels, c/g * k)
    out = rows @ w.reshape(g, o // g, -1).transpose(0, 2, 1)           # (N, g, pixels, o/g)
    return out.transpose(0, 1, 3, 2).reshape(n, o, *out_size)


def _conv_transpose(x, w, stride, padding, output_padding, dilation, groups):
    """The transpose of _conv: each x pixel spreads over a window of the output.
    Written as a convolution: x with stride-1 zeros between its pixels,
    padded by dilation*(k-1) - padding (a crop where negative), convolved
    with the weight flipped and its two channel dims swapped."""
    n, c, g, kernel = x.shape[0], x.shape[1], groups, w.shape[2:]
    spread = np.zeros((n, c) + tuple((s - 1) * st + 1 for s, st in zip(x.shape[2:], stride)), x.dtype)
    spread[(slice(None), slice(None)) + tuple(slice(None, None, st) for st in stride)] = x
    pads = []
    for k, p, op, d in reversed(list(zip(kernel, padding, output_padding, dilation))):
        pads += [d * (k - 1) - p, d * (k - 1) - p + op]
    spread = _pad(spread, pads, x.dtype.type(0))
    flipped = np.flip(w, axis=tuple(range(2, w.ndim)))
    swapped = flipped.reshape(g, c // g, -1, *kernel).swapaxes(1, 2).reshape(-1, c // g, *kernel)
    return _conv(spread, swapped, (1,) * len(kernel), (0,) * len(kernel), dilation, groups)


def _conv_weight(x, grad, kernel, stride, padding, dilation, groups):
    """The weight's gradient of out = _conv(x, w): each weight times the input
    pixels it met, times grad there, summed over the batch and the pixels."""
    n, c, o, g = x.shape[0], x.shape[1], grad.shape[1], groups
    pixels, k = int(np.prod(grad.shape[2:])), int(np.prod(kernel))
    windows = _windows(x, kernel, stride, padding, dilation)
    rows = windows.reshape(n, g, c // g, pixels, k)                    # (N, g, c/g, pixels, k)
    rows = rows.transpose(1, 0, 3, 2, 4).reshape(g, n * pixels, c // g * k)
    grads = grad.reshape(n, g, o // g, pixels).transpose(1, 2, 0, 3).reshape(g, o // g, n * pixels)
    return (grads @ rows).reshape(o, c // g, *kernel)


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
    if weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_C_TYPE.get(input.dtype.np.name, input.dtype.np.name)}) and bias type "
                           f"({_C_TYPE.get(bias.dtype.np.name, bias.dtype.np.name)}) should be the same")
