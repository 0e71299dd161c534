"""The ops under nn.Embedding and nn.LayerNorm: a table look-up, and the
normalisation of each row to mean 0 and variance 1 (then scaled and shifted).
Each is one PyTorch node; the derivative is in the docstring, in PyTorch's
Tensor API, and the functions the rules call are built from ops, so that a
second derivative goes through them."""
import numpy as np

from ..node import OpNode
from .rearrange import IndexSelectBackward0
from .selection import index_backward, new_zeros

_NONE_PADDING = 2 ** 64 - 1     # PyTorch stores "no padding_idx" as -1 in an unsigned SymInt: it shows this


def _array(x):
    return x._data if hasattr(x, "_data") else np.asarray(x)


# -- embedding -------------------------------------------------------------------

def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse):
    """Each looked-up row's gradient added into a zero table at its index (an
    index looked up twice gets both); the padding_idx row gets none.
    PyTorch's embedding_dense_backward, as index_put_ with accumulate=True."""
    index = _array(indices).reshape(-1).astype(np.int64)
    rows = grad.reshape(-1, grad.shape[-1]) if grad.dim() else grad
    if 0 <= padding_idx < num_weights:
        keep = np.flatnonzero(index != padding_idx)
        rows, index = IndexSelectBackward0.apply(rows, 0, keep), index[keep]
    return index_backward(new_zeros(grad, (num_weights, grad.shape[-1])), (index,), rows)


class EmbeddingBackward0(OpNode):
    """out = embedding(weight, indices, padding_idx)   (out[i] = weight[indices[i]])

    weight: embedding_backward(grad, indices, weight_sym_argsize_0, padding_idx, scale_grad_by_freq, sparse)

    indices take no gradient (they are integers): the node has one edge, to weight.
    """
    inputs = ("weight",)
    attrs = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")
    saved_arrays = ("indices",)

    @classmethod
    def apply(cls, weight, indices, padding_idx=None):
        if indices.dtype.name not in ("int64", "int32"):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                               f"types: Long, Int; but got torch.{indices.dtype.legacy_name}Tensor instead "
                               "(while checking arguments for embedding)")
        if weight.dim() != 2:
            raise RuntimeError("'weight' must be 2-D")
        return super().apply(weight, indices._data, padding_idx)

    def forward(self, weight, indices, padding_idx=None):
        self.indices, self.weight_sym_argsize_0 = indices.astype(np.int64), weight.shape[0]
        self.padding_idx = _NONE_PADDING if padding_idx is None else padding_idx
        self.scale_grad_by_freq, self.sparse = False, False
        if self.indices.size and (self.indices.min() < 0 or self.indices.max() >= weight.shape[0]):
            raise IndexError("index out of range in self")     # no negative indices, unlike weight[i]
        return weight[self.indices]

    def backward(self, grad):
        index, rows = self.indices.reshape(-1), grad.reshape(-1, grad.shape[-1])
        if 0 <= self.padding_idx < self.weight_sym_argsize_0:
            keep = index != self.padding_idx
            index, rows = index[keep], rows[keep]
        out = np.zeros((self.weight_sym_argsize_0, grad.shape[-1]), dtype=grad.dtype)
        np.add.at(out, index, rows)
        return out


# -- layer_norm ------------------------------------------------------------------

def _moments(x, axes):
    """Mean and 1/sqrt(var + eps) over the normalized dims, as arrays: the
    mean and (biased) variance in float64, rounded to x's dtype (PyTorch's
    RowwiseMoments, a Welford sum, is that close), rstd in x's dtype."""
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    return mean.astype(x.dtype), var.astype(x.dtype)


def _normalized_axes(x, normalized_shape):
    return tuple(range(x.ndim - len(normalized_shape), x.ndim))


def layer_norm_input_backward(grad, input, normalized_shape, weight, eps):
    """d out / d input for out = (input - mean) * rstd * weight + bias:
    rstd * (g - mean(g) - xhat * mean(g * xhat)), g = grad * weight, means
    over the normalized dims. Built from ops, mean and rstd recomputed from
    input, so that the second derivative sees how they depend on it."""
    dims = _normalized_axes(input, normalized_shape)
    centered = input - input.mean(dims, keepdim=True)
    rstd = ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()
    xhat = centered * rstd
    g = grad * weight
    return rstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


def layer_norm_weight_backward(grad, input, normalized_shape, eps):
    """grad * xhat, summed over the leading (not normalized) dims."""
    dims = _normalized_axes(input, normalized_shape)
    centered = input - input.mean(dims, keepdim=True)
    xhat = centered * ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()
    return _sum_leading(grad * xhat, input.dim() - len(normalized_shape))


def layer_norm_bias_backward(grad, normalized_shape):
    """grad summed over the leading (not normalized) dims."""
    return _sum_leading(grad, grad.dim() - len(normalized_shape))


def _sum_leading(t, n):
    return t.sum(tuple(range(n))) if n else t    # sum(()) would sum everything


class NativeLayerNormBackward0(OpNode):
    """out = (input - mean) * rstd * weight + bias   (mean, rstd = result1, result2: over the normalized dims)

    input: layer_norm_input_backward(grad, input, normalized_shape, weight, eps)
    weight: layer_norm_weight_backward(grad, input, normalized_shape, eps)
    bias: layer_norm_bias_backward(grad, normalized_shape)

    PyTorch's rule is one call, native_layer_norm_backward(grad, input,
    normalized_shape, result1, result2, weight, bias, grad_input_mask); here
    the three gradients are written apart. Without a weight or bias, 1 and
    0 stand in their places (no edge, as PyTorch's (None, 0)).
    """
    inputs = ("input", "weight", "bias")
    saved = ("input", "weight", "bias")
    attrs = ("normalized_shape", "eps", "result1", "result2")
    saved_arrays = ("result1", "result2")

    @classmethod
    def apply(cls, input, normalized_shape, weight=None, bias=None, eps=1e-5):
        shape = tuple(normalized_shape)
        if not shape or tuple(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
            raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                               f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
        for name, t in (("weight", weight), ("bias", bias)):
            if t is not None and tuple(t.shape) != shape:
                raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                                   f"shape {list(t.shape)} and normalized_shape = {list(shape)}")
        return super().apply(input, 1.0 if weight is None else weight, 0.0 if bias is None else bias, shape, eps)

    def forward(self, x, weight, bias, normalized_shape, eps):
        self.normalized_shape, self.eps = normalized_shape, eps
        mean, var = _moments(x, _normalized_axes(x, normalized_shape))
        t = x.dtype.type
        rstd = t(1) / np.sqrt(var + t(eps))
        self.result1, self.result2 = mean, rstd
        # PyTorch's kernel: y = (x * rstd + (-rstd * mean)) * weight + bias
        return (x * rstd + (-rstd * mean)) * weight + bias

    def backward(self, grad, x, weight, bias):
        dims = _normalized_axes(x, self.normalized_shape)
        lead = tuple(range(x.ndim - len(dims)))
        xhat = (x - self.result1) * self.result2
        g = grad * weight
        need_input, need_weight, need_bias = self.needs_input_grad
        return (self.result2 * (g - g.mean(dims, keepdims=True) - xhat * (g * xhat).mean(dims, keepdims=True))
                if need_input else None,
                (grad * xhat).sum(lead) if need_weight else None,
                grad.sum(lead) if need_bias else None)
