"""Upsampling (F.interpolate, nn.Upsample) in modes nearest and (bi)linear,
over the last one or two dims of (N, C, W) or (N, C, H, W):

- nearest: output pixel i copies input pixel floor(i * scale), scale =
  1 / scale_factor when one was given, else in / out (PyTorch computes it in
  float32, so the same index comes out);
- linear: output pixel i sits at src = scale * (i + 0.5) - 0.5 of the input
  (align_corners: src = i * (in - 1) / (out - 1), the corner pixels meet),
  between pixels i0 = floor(src) and i0 + 1, weighted 1 - l and l, l = src - i0.
  Bilinear does this along H and along W.

Each output pixel is a fixed weighted sum of input pixels, so along each dim
the op is a matrix M (out, in), and the gradient is M^T times grad: the rules
are written so, as matmuls, and a double backward goes through them (PyTorch
records Upsample...BackwardBackward0 there instead: the names differ)."""
import numpy as np

from .. import kernels
from ..core.node import OpNode


def _scale(size, out, align_corners, scale, dtype):
    """PyTorch's area_pixel_compute_scale, in the input's float type."""
    t = np.dtype(dtype).type
    if align_corners:
        return t(size - 1) / t(out - 1) if out > 1 else t(0)
    return t(1.0 / scale) if scale is not None and scale > 0 else t(size) / t(out)


def nearest_index(size, out, scale):
    """Which input pixel each output pixel copies (float32 arithmetic, as PyTorch's nearest_idx)."""
    i = np.arange(out)
    if out == size:
        return i
    if out == 2 * size:
        return i >> 1
    s = np.float32(1.0 / scale) if scale is not None and scale > 0 else np.float32(size) / np.float32(out)
    return np.minimum(np.floor(i.astype(np.float32) * s).astype(np.int64), size - 1)


def linear_index(size, out, align_corners, scale, dtype):
    """(i0, i1, l0, l1): the two input pixels under each output pixel, and their weights."""
    i = np.arange(out)
    if out == size:
        return i, i, np.ones(out, dtype), np.zeros(out, dtype)
    t = np.dtype(dtype).type
    ratio = _scale(size, out, align_corners, scale, dtype)
    if align_corners:
        src = ratio * i.astype(dtype)
    else:
        src = np.maximum(ratio * (i.astype(dtype) + t(0.5)) - t(0.5), t(0))
    i0 = np.minimum(np.floor(src).astype(np.int64), size - 1)
    l1 = np.clip(src - i0.astype(dtype), t(0), t(1))
    return i0, i0 + (i0 < size - 1), t(1) - l1, l1


def interpolation_matrix(size, out, mode, align_corners, scale, dtype):
    """(out, size): row i holds the weights output pixel i gives each input pixel."""
    m = np.zeros((out, size), dtype)
    if mode == "nearest":
        m[np.arange(out), nearest_index(size, out, scale)] = 1
        return m
    i0, i1, l0, l1 = linear_index(size, out, align_corners, scale, dtype)
    np.add.at(m, (np.arange(out), i0), l0)
    np.add.at(m, (np.arange(out), i1), l1)
    return m


def upsample_backward(grad, input_size, mode, align_corners, scales):
    """M^T grad along each upsampled dim (as recorded matmuls)."""
    sizes, dtype = input_size[2:], grad._data.dtype
    mats = [grad._wrap(interpolation_matrix(n, o, mode, align_corners, s, dtype))
            for n, o, s in zip(sizes, grad.shape[2:], scales)]
    out = grad @ mats[-1]
    if len(mats) == 2:
        out = mats[0].mT @ out
    return out


def upsample_nearest_backward(grad, output_size, input_size, *scales):
    return upsample_backward(grad, input_size, "nearest", False, scales)


def upsample_linear_backward(grad, output_size, input_size, align_corners, *scales):
    return upsample_backward(grad, input_size, "linear", align_corners, scales)


def _nearest(x, output_size, scales):
    index = [nearest_index(n, o, s) for n, o, s in zip(x.shape[2:], output_size, scales)]
    return x[..., index[0]] if len(index) == 1 else x[..., index[0][:, None], index[1]]


def _linear(x, output_size, align_corners, scales):
    """PyTorch's CPU kernel: along W, t = x[i0] * l0 + x[i1] * l1; along H,
    t(h0) * l0 + t(h1) * l1; each sum a fused multiply-add onto the second product."""
    (*outer, (w0, w1, a0, a1)) = [linear_index(n, o, align_corners, s, x.dtype)
                                  for n, o, s in zip(x.shape[2:], output_size, scales)]
    if not outer:
        return _mix(x[..., w0], a0, x[..., w1], a1)
    (h0, h1, b0, b1), = outer
    rows = [x[..., h, :] for h in (h0, h1)]
    t0, t1 = [_mix(r[..., w0], a0, r[..., w1], a1) for r in rows]
    return _mix(t0, b0[:, None], t1, b1[:, None])


def _mix(x0, l0, x1, l1):
    return kernels.fma_as(x0, l0, x1 * l1, x0.dtype) if x0.dtype.kind == "f" else x0 * l0 + x1 * l1


def _add_back(grad, input_shape, mode, align_corners, scales):
    """The numpy backward: M^T grad along each dim (numpy's matmul)."""
    mats = [interpolation_matrix(n, o, mode, align_corners, s, grad.dtype)
            for n, o, s in zip(input_shape[2:], grad.shape[2:], scales)]
    out = grad @ mats[-1]
    return mats[0].T @ out if len(mats) == 2 else out


class _Upsample(OpNode):
    attrs = ("output_size", "self_sym_sizes")
    mode = "nearest"

    def forward(self, x, output_size, align_corners, scales):
        self.output_size, self.self_sym_sizes = tuple(output_size), x.shape
        self.scale_values, self.align_corners = tuple(scales), align_corners
        for name, s in zip(self.scale_names, scales):
            setattr(self, name, s)
        if self.mode == "nearest":
            return _nearest(x, output_size, scales)
        return _linear(x, output_size, align_corners, scales)

    def backward(self, grad):
        return _add_back(grad, self.self_sym_sizes, self.mode, self.align_corners, self.scale_values)


class UpsampleNearest1DBackward0(_Upsample):
    """out = upsample_nearest1d(self, output_size, scales)

    self: upsample_nearest_backward(grad, output_size, self_sym_sizes, scales)
    """
    attrs = ("output_size", "scales", "self_sym_sizes")
    scale_names = ("scales",)


class UpsampleNearest2DBackward0(_Upsample):
    """out = upsample_nearest2d(self, output_size, scales_h, scales_w)

    self: upsample_nearest_backward(grad, output_size, self_sym_sizes, scales_h, scales_w)
    """
    attrs = ("output_size", "scales_h", "scales_w", "self_sym_sizes")
    scale_names = ("scales_h", "scales_w")


class UpsampleLinear1DBackward0(_Upsample):
    """out = upsample_linear1d(self, output_size, align_corners, scales)

    self: upsample_linear_backward(grad, output_size, self_sym_sizes, align_corners, scales)
    """
    attrs = ("align_corners", "output_size", "scales", "self_sym_sizes")
    scale_names = ("scales",)
    mode = "linear"


class UpsampleBilinear2DBackward0(_Upsample):
    """out = upsample_bilinear2d(self, output_size, align_corners, scales_h, scales_w)

    self: upsample_linear_backward(grad, output_size, self_sym_sizes, align_corners, scales_h, scales_w)
    """
    attrs = ("align_corners", "output_size", "scales_h", "scales_w", "self_sym_sizes")
    scale_names = ("scales_h", "scales_w")
    mode = "linear"
