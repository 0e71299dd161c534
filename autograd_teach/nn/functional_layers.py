"""torch.nn.functional's 1-D and adaptive max pooling, group_norm,
interpolate and conv_transpose2d (nn.functional re-exports them).

The 1-D poolings are the 2-D ones on x.unsqueeze(-2), squeezed back after,
as PyTorch records them (UnsqueezeBackward0, the 2-D node, SqueezeBackward1);
each first runs PyTorch's own 1-D argument checks, in its order, so that
a mistake gets PyTorch's message."""
import math
import warnings

from .. import ops as O
from ..compat import dtypes
from ..compat.creation import from_numpy


# --- 1-D pooling ---
def _one(value, fn, name):
    """A 1-D pooling's int[1] argument: an int, or a tuple or list of one."""
    values = list(value) if isinstance(value, (tuple, list)) else [value]
    if len(values) != 1:
        raise RuntimeError(f"{fn}() argument '{name}' should contain one int (got {len(values)})")
    return values[0]


def _check_dims(input, fn):
    """checkDimRange(fn, self, 2, 4): a 2-D (unbatched) or 3-D input."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {fn})")


def _max_pool1d_args(input, kernel_size, stride, padding, dilation, ceil_mode):
    """check_max_pool1d: PyTorch's messages, in its order; returns (k, s, p, d)."""
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(input.shape)}")
    args = []
    for value, name, what in ((kernel_size, "kernel_size", "an int, list of ints or tuple of ints"),
                              (stride, "stride", "None, an int, list of ints, or tuple of ints"),
                              (padding, "padding", "an int, list of ints, or tuple of ints"),
                              (dilation, "dilation", "an int, list of ints or tuple of ints")):
        values = [] if value is None else list(value) if isinstance(value, (tuple, list)) else [value]
        if len(values) != 1 and not (name == "stride" and not values):
            raise RuntimeError(f"max_pool1d() {name} must be {what} of size 1 but got size {len(values)}")
        args.append(values[0] if values else None)
    k, s, p, d = args
    s = k if s is None else s
    for ok, text in ((k > 0, f"kernel_size must be greater than zero, but got {k}"),
                     (s > 0, f"stride must be greater than zero, but got {s}"),
                     (p >= 0, f"padding must be non-negative, but got {p}"),
                     (p <= k // 2, f"padding should be at most half of kernel size, but got padding={p} and "
                                   f"kernel_size={k}"),
                     (d > 0, f"dilation must be greater than zero, but got {d}")):
        if not ok:
            raise RuntimeError("max_pool1d() " + text)
    out = O.pooling.output_size(input.shape[-1], k, p, s, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    return k, s, p, d


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The max of each window along the last dim; with return_indices, also where it was."""
    k, s, p, d = _max_pool1d_args(input, kernel_size, stride, padding, dilation, ceil_mode)
    if not input.is_floating_point():
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{input.dtype.legacy_name}'")
    x = input.unsqueeze(-2)
    out = O.MaxPool2DWithIndicesBackward0.apply(x, (1, k), (1, s), (0, p), (1, d), ceil_mode)
    if not return_indices:
        return out.squeeze(-2)
    indices = out.grad_fn.result1 if out.grad_fn is not None else O.pooling.max_pool2d_with_indices(
        x.detach().numpy(), (1, k), (1, s), (0, p), (1, d), ceil_mode)[1]
    return out.squeeze(-2), from_numpy(indices).squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each window along the last dim: avg_pool2d with (1, kernel_size) windows."""
    stride = kernel_size if stride is None or stride == () or stride == [] else stride
    _check_dims(input, "avg_pool1d")
    k, s, p = (_one(v, "avg_pool1d", n) for v, n in ((kernel_size, "kernel_size"), (stride, "stride"),
                                                     (padding, "padding")))
    x = input.unsqueeze(-2)
    O.pooling.check_pool(x, (1, k), (1, s), (0, p), (1, 1), ceil_mode, "avg_pool2d")
    return O.AvgPool2DBackward0.apply(x, (1, k), (1, s), (0, p), ceil_mode, count_include_pad, None).squeeze(-2)


def _non_empty(input, fn, first=1):
    for i in range(first, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"{fn}(): Expected input to have non-zero size for non-batch dimensions, but input has "
                               f"sizes {list(input.shape)} with dimension {i} being empty")


def adaptive_avg_pool1d(input, output_size):
    """The last dim cut into output_size windows as even as can be, each averaged."""
    _check_dims(input, "adaptive_avg_pool1d")
    size = _one(output_size, "adaptive_avg_pool1d", "output_size")
    x = input.unsqueeze(-2)
    _non_empty(x, "adaptive_avg_pool2d")
    if size < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{1, {size}}}")
    dtypes.check_floating(input.dtype, "adaptive_avg_pool2d")
    if size == 1:
        return x.mean((-1, -2), keepdim=True).squeeze(-2)
    return O.AdaptiveAvgPool2DBackward0.apply(x, (1, size)).squeeze(-2)


def _adaptive_max(x, size, return_indices):
    out = O.AdaptiveMaxPool2DBackward0.apply(x, tuple(size))
    if not return_indices:
        return out, None
    indices = out.grad_fn.result1 if out.grad_fn is not None else \
        O.adaptive_max_pool.adaptive_max_pool2d(x.detach().numpy(), tuple(size))[1]
    return out, from_numpy(indices)


def _check_output_size(input, size):
    if min(size) < 0:
        shape = list(input.shape[:-2]) + list(size)
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {shape}")


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The last dim cut into output_size windows as even as can be, each giving its max."""
    _check_dims(input, "adaptive_max_pool1d")
    size = _one(output_size, "adaptive_max_pool1d", "output_size")
    _non_empty(input, "adaptive_max_pool1d")
    x = input.unsqueeze(-2)
    _check_output_size(x, (1, size))
    dtypes.check_floating(input.dtype, "adaptive_max_pool2d")
    out, indices = _adaptive_max(x, (1, size), return_indices)
    return (out.squeeze(-2), indices.squeeze(-2)) if return_indices else out.squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The input cut into output_size windows as even as can be, each giving its max (and where it was)."""
    size = list(output_size) if isinstance(output_size, (tuple, list)) else [output_size, output_size]
    if isinstance(output_size, (tuple, list)):
        if input.dim() <= len(size):
            raise ValueError(f"Input dimension should be at least {len(size) + 1}")
        size = [input.shape[i - len(size)] if s is None else s for i, s in enumerate(size)]
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    _non_empty(input, "adaptive_max_pool2d")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    _check_output_size(input, size)
    dtypes.check_floating(input.dtype, "adaptive_max_pool2d")
    out, indices = _adaptive_max(input, size, return_indices)
    return (out, indices) if return_indices else out


# --- group_norm ---
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Each sample's channels in num_groups groups, each group normalised over
    its channels and pixels together, then each channel scaled and shifted."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    size = [input.shape[0] * input.shape[1] // num_groups, num_groups] + list(input.shape[2:])
    if math.prod([size[0]] + size[2:]) == 1:          # PyTorch's _verify_batch_size, in training or not
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    N, C = input.shape[:2]
    if C % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and (p.dim() != 1 or p.numel() != C):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(p.shape)} and input of shape {list(input.shape)}")
    if any(p is not None and p.dtype is not input.dtype for p in (weight, bias)):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float"
                           if input.dtype is dtypes.float32 else "mixed dtype (CPU): all inputs must share same datatype.")
    dtypes.check_floating(input.dtype, "GroupNormKernelImpl")
    return O.NativeGroupNormBackward0.apply(input, 1.0 if weight is None else weight, 0.0 if bias is None else bias,
                                            N, C, math.prod(input.shape[2:]), num_groups, eps)


# --- interpolate ---
_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_UPSAMPLE = {("nearest", 3): "UpsampleNearest1DBackward0", ("nearest", 4): "UpsampleNearest2DBackward0",
             ("linear", 3): "UpsampleLinear1DBackward0", ("bilinear", 4): "UpsampleBilinear2DBackward0"}


def _output_size(input, size, scale_factor, recompute_scale_factor):
    """(output sizes, scales): PyTorch's interpolate argument handling, with its messages."""
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)) and len(size) != dim:
            raise ValueError("Input and output must have the same number of spatial dimensions, but got input with "
                             f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please "
                             "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, "
                             "...,oK) format.")
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        return list(size) if isinstance(size, (list, tuple)) else [size] * dim, [None] * dim
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)) and len(scale_factor) != dim:
        raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input with "
                         f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. "
                         "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, "
                         "...,sK) format.")
    scales = [float(s) for s in scale_factor] if isinstance(scale_factor, (list, tuple)) else [float(scale_factor)] * dim
    sizes = [math.floor(float(n) * s) for n, s in zip(input.shape[2:], scales)]
    return sizes, ([None] * dim if recompute_scale_factor else scales)


def _check_upsample(input, sizes):
    """upsample_1d/2d_common_check's messages."""
    names = ("H", "W")[-len(sizes):]
    if 0 in input.shape[1:] and input.shape[1] == 0:
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor with sizes "
                           f"{list(input.shape)}")
    if min(input.shape[2:]) <= 0 or min(sizes) <= 0:
        inputs = ", ".join(f"{n}: {s}" for n, s in zip(names, input.shape[2:]))
        outputs = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({inputs}) output "
                           f"({outputs})")


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """Resize the last one or two dims, to `size` or by `scale_factor`:
    mode 'nearest' copies the nearest pixel, 'linear' (3-D input) and
    'bilinear' (4-D) weigh the two nearest along each dim (ops/upsample.py)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear "
                             "| bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    sizes, scales = _output_size(input, size, scale_factor, recompute_scale_factor)
    node = _UPSAMPLE.get((mode, input.dim()))
    if node is None:
        if (mode, input.dim()) in (("bilinear", 3), ("linear", 4)):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                      f"{3 if mode == 'linear' else 4}D input")
        if input.dim() in (3, 4, 5) and mode in _MODES.split(" | "):
            raise NotImplementedError(f"autograd_teach: interpolate mode={mode!r} on {input.dim()}D input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                                  f"the modes: {_MODES} (got {mode})")
    _check_upsample(input, sizes)
    if not input.is_floating_point():
        kernel = "upsample_nearest2d" if mode == "nearest" else f"upsample_{mode}{input.dim() - 2}d"
        raise NotImplementedError(f"\"{kernel}_channels_last\" not implemented for '{input.dtype.legacy_name}'"
                                  if input.dim() == 4 else f"\"{kernel}\" not implemented for "
                                  f"'{input.dtype.legacy_name}'")
    return getattr(O, node).apply(input, tuple(sizes), bool(align_corners), tuple(scales))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated, as in PyTorch: interpolate."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


# --- conv_transpose2d ---
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transpose of conv2d: each input pixel spreads over a window of the
    output, weighted by weight (C_in, C_out / groups, kH, kW); PyTorch records
    ConvolutionBackward0 with transposed=True. Output size per dim:
    (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1."""
    if input.dim() not in (3, 4):
        raise RuntimeError("Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: "
                           f"{list(input.shape)}")
    if input.dim() == 3:
        return conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups,
                                dilation).squeeze(0)
    if isinstance(padding, str):
        raise TypeError("conv_transpose2d(): argument 'padding' must be tuple of ints, not str")
    k = weight.dim() - 2
    stride, padding, output_padding, dilation = (O.conv.expand_param(v, n, 2, k) for v, n in (
        (stride, "stride"), (padding, "padding"), (output_padding, "output_padding"), (dilation, "dilation")))
    _check_conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups)
    return O.ConvolutionBackward0.apply(input, weight, 0.0 if bias is None else bias, stride, padding, dilation,
                                        True, output_padding, groups)


def _check_conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups):
    """PyTorch's messages (at::convolution's, then slow_conv_transpose2d's), in its order."""
    for ok, text in ((min(stride) > 0, "non-positive stride is not supported"),
                     (min(padding) >= 0, "negative padding is not supported"),
                     (min(output_padding) >= 0, "negative output_padding is not supported"),
                     (groups > 0, "non-positive groups is not supported")):
        if not ok:
            raise RuntimeError(text)
    w = list(weight.shape)
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{w}] instead")
    if input.shape[1] != w[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {w}, expected input{list(input.shape)} to have {w[0]} "
                           f"channels, but got {input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[1] * groups):
        raise RuntimeError(f"Given transposed=1, weight of size {w}, expected bias to be 1-dimensional with "
                           f"{w[1] * groups} elements, but got bias of size {list(bias.shape)} instead")
    if 0 in input.shape[2:]:
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got input shape: "
                           f"{list(input.shape)}")
    for other in (weight, bias):
        if other is not None and other.dtype != input.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {other.dtype.legacy_name}")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dilation[0]}, "
                           f"dilation_width: {dilation[1]}")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got output_padding_"
                           f"height: {output_padding[0]} output_padding_width: {output_padding[1]} stride_height: "
                           f"{stride[0]} stride_width: {stride[1]} dilation_height: {dilation[0]} dilation_width: "
                           f"{dilation[1]}")
    out = [(i - 1) * s - 2 * p + d * (kk - 1) + op + 1 for i, s, p, d, kk, op in
           zip(input.shape[2:], stride, padding, dilation, w[2:], output_padding)]
    if min(out) < 1:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, input.shape[2:]))}). Calculated "
                           f"output size per channel: ({' x '.join(map(str, out))}). Output size is too small")
