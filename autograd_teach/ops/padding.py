"""F.pad(x, pad, mode='constant', value): a border of `value` around the
last dims, or (negative pads) a crop. Its backward is the same op with the
pads negated: the gradient of the border is dropped, a cropped part gets 0."""
import numpy as np

from ..core.node import OpNode


def _pad(a, pad, value):
    """a with pad = (left, right) of the last dim, then of the one before, ...;
    a negative pad crops (as PyTorch's narrow, with its error)."""
    shape, src, dst = list(a.shape), [slice(None)] * a.ndim, [slice(None)] * a.ndim
    for k in range(len(pad) // 2):
        dim, left, right = a.ndim - 1 - k, pad[2 * k], pad[2 * k + 1]
        kept = a.shape[dim] + min(left, 0)
        if kept < 0 or kept + min(right, 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        start = max(-left, 0)
        stop = start + kept + min(right, 0)
        src[dim] = slice(start, stop)
        dst[dim] = slice(max(left, 0), max(left, 0) + stop - start)
        shape[dim] = a.shape[dim] + left + right
    out = np.full(shape, value, dtype=a.dtype)
    out[tuple(dst)] = a[tuple(src)]
    return out


class ConstantPadNdBackward0(OpNode):
    """out = constant_pad_nd(self, pad, value)

    self: constant_pad_nd_backward(grad, pad)

    The backward pads the gradient with the pads negated: a border is cropped
    away, a cropped part comes back as 0.
    """
    attrs = ("pad",)

    def forward(self, a, pad, value=0):
        self.pad = tuple(pad)
        return _pad(a, self.pad, a.dtype.type(value))

    def backward(self, grad):
        return _pad(grad, tuple(-p for p in self.pad), 0)


def constant_pad_nd_backward(grad, pad):
    """PyTorch's: constant_pad_nd(grad, -pad), recorded as one op."""
    return ConstantPadNdBackward0.apply(grad, [-p for p in pad])
