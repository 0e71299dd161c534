"""The op under nn.GroupNorm: the channels of each sample cut into `group`
groups, each group (its channels and all their pixels together) normalised
to mean 0 and variance 1, then each channel scaled and shifted:

    out[n, c] = (x[n, c] - mean[n, g]) * rstd[n, g] * weight[c] + bias[c],  g = c // (C / group)

It is layer_norm over each (sample, group) row, with the affine per channel.
The rules' functions are built from ops (mean and rstd recomputed from the
input), so that a second derivative sees how they depend on it; PyTorch
records NativeGroupNormBackwardBackward0 there instead (names differ)."""
import numpy as np

from .. import kernels
from ..core.node import OpNode


def _rows(t, N, group):
    """(N, group, C / group * HxW): one row per (sample, group)."""
    return t.reshape(N, group, t.numel() // max(N * group, 1))


def _per_channel(p, input):
    """weight (C,) shaped to broadcast over (N, C, *): (C, 1, ...); no weight (None) is 1."""
    if p is None:
        return 1.0
    return p.reshape((-1,) + (1,) * (input.dim() - 2)) if hasattr(p, "reshape") else p


def _xhat(input, N, group, eps):
    x = _rows(input, N, group)
    centered = x - x.mean(-1, keepdim=True)
    rstd = ((centered * centered).mean(-1, keepdim=True) + eps).rsqrt()
    return centered * rstd, rstd


def group_norm_input_backward(grad, input, weight, N, group, eps):
    """rstd * (g - mean(g) - xhat * mean(g * xhat)), g = grad * weight,
    the means over each (sample, group) row."""
    xhat, rstd = _xhat(input, N, group, eps)
    g = _rows(grad * _per_channel(weight, input), N, group)
    return (rstd * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))).reshape(input.shape)


def group_norm_weight_backward(grad, input, N, group, eps):
    """grad * xhat, summed over the batch and the pixels: one value per channel."""
    xhat, _ = _xhat(input, N, group, eps)
    return _per_channel_sum(grad * xhat.reshape(input.shape))


def group_norm_bias_backward(grad):
    """grad summed over the batch and the pixels: one value per channel."""
    return _per_channel_sum(grad)


def _per_channel_sum(t):
    return t.sum((0,) + tuple(range(2, t.dim())))


class NativeGroupNormBackward0(OpNode):
    """out = (input - mean) * rstd * weight + bias   (mean, rstd = result1, result2: (N, group), over each group)

    input: group_norm_input_backward(grad, input, weight, N, group, eps)
    weight: group_norm_weight_backward(grad, input, N, group, eps)
    bias: group_norm_bias_backward(grad)

    PyTorch's rule is one call, native_group_norm_backward(grad, input,
    result1, result2, weight, N, C, HxW, group, grad_input_mask). Without a
    weight or bias, 1 and 0 stand in their places (no edge).
    """
    inputs = ("input", "weight", "bias")
    saved = ("input", "weight")
    attrs = ("C", "HxW", "N", "eps", "group", "result1", "result2")
    saved_arrays = ("result1", "result2")

    def forward(self, x, weight, bias, N, C, HxW, group, eps):
        self.N, self.C, self.HxW, self.group, self.eps = N, C, HxW, group, eps
        rows = x.reshape(N * group, C // group * HxW)
        t = x.dtype.type
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            mean, var = kernels.rowwise_moments(rows) if rows.size else (np.zeros(N * group, x.dtype),) * 2
            # PyTorch's kernel adds eps as a double: var + eps, its root and 1 / it in float64
            rstd = (1 / np.sqrt(np.maximum(var, t(0)).astype(np.float64) + eps)).astype(x.dtype)
        self.result1, self.result2 = mean.reshape(N, group), rstd.reshape(N, group)
        per_group = (N, group, C // group) + (1,) * (x.ndim - 2)
        mean, rstd = mean.reshape(per_group[:2] + (1,) * (x.ndim - 1)), rstd.reshape(per_group[:2] + (1,) * (x.ndim - 1))
        if type(weight) is float and type(bias) is float:    # no affine: PyTorch's kernel takes this path
            return ((x.reshape(N, group, C // group * HxW) - mean.reshape(N, group, 1)) * rstd.reshape(N, group, 1)).reshape(x.shape)
        w = np.broadcast_to(np.asarray(weight, x.dtype), (C,)).reshape(per_group[1:])
        b = np.broadcast_to(np.asarray(bias, x.dtype), (C,)).reshape(w.shape)
        # PyTorch's kernel: scale = rstd * weight, shift = -scale * mean + bias, out = x * scale + shift
        scale = rstd * w
        shift = kernels.fma_as(-scale, mean, b, x.dtype)
        out = kernels.fma_as(x.reshape((N, group, C // group) + x.shape[2:]), scale, shift, x.dtype)
        return out.reshape(x.shape)

    def backward(self, grad, x, weight):
        need_input, need_weight, need_bias = self.needs_input_grad
        N, group, C = self.N, self.group, self.C
        lead = (N, group, C // group) + (1,) * (x.ndim - 2)
        mean = self.result1.reshape(lead[:2] + (1,) * (x.ndim - 1))
        rstd = self.result2.reshape(mean.shape)
        xhat = ((x.reshape((N, group, C // group) + x.shape[2:]) - mean) * rstd).reshape(x.shape)
        channels = (0,) + tuple(range(2, x.ndim))
        gx = None
        if need_input:
            w = np.broadcast_to(np.asarray(weight, x.dtype), (C,)).reshape((C,) + (1,) * (x.ndim - 2))
            g = (grad * w).reshape(N, group, C // group * self.HxW)
            xh = xhat.reshape(g.shape)
            r = self.result2.reshape(N, group, 1)
            gx = (r * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))).reshape(x.shape)
        return (gx, (grad * xhat).sum(channels) if need_weight else None,
                grad.sum(channels) if need_bias else None)


def _saved_weight(node):
    """grad_fn._saved_weight: None without a weight (the 1 standing in its place is not shown)."""
    values = node.saved_values
    return None if values is not None and type(values.get("weight")) is float else node.saved_value("weight")


NativeGroupNormBackward0._saved_weight = property(_saved_weight)
