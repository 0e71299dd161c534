"""The ops under nn.Embedding and nn.LayerNorm: a table look-up, and the
normalisation of each row to mean 0 and variance 1 (then scaled and shifted).
Each is one PyTorch node; the derivative is in the docstring, in PyTorch's
Tensor API, and the functions the rules call are built from ops, so that a
second derivative goes through them."""
import numpy as np

from .. import kernels
from ..core.node import OpNode
from .rearrange import IndexSelectBackward0

_NONE_PADDING = 2 ** 64 - 1     # PyTorch stores "no padding_idx" as -1 in an unsigned SymInt: it shows this


def _padding_row(padding_idx, num_weights):
    """The row that gets no gradient, or -1 (no row) for "no padding_idx"."""
    return padding_idx if 0 <= padding_idx < num_weights else -1


def _array(x):
    return x._data if hasattr(x, "_data") else np.asarray(x)


# -- embedding -------------------------------------------------------------------

def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse):
    """PyTorch's embedding_backward: on CPU, embedding_dense_backward, an op
    of its own (so a double backward records EmbeddingDenseBackwardBackward0)."""
    return EmbeddingDenseBackwardBackward0.apply(grad, _array(indices), num_weights, padding_idx)


def embedding_dense_double_backward(grad, indices, padding_idx):
    """The rows of grad at the indices (the look-up again), the padding_idx
    rows zeroed: PyTorch's embedding_dense_double_backward."""
    index = _array(indices)
    rows = IndexSelectBackward0.apply(grad, 0, index.reshape(-1))
    padded = index.reshape(-1, 1) == _padding_row(padding_idx, grad.shape[0])
    if padded.any():
        rows = rows.masked_fill(grad._wrap(padded), 0)
    return rows.reshape(*index.shape, grad.shape[-1])


def _rows_into_table(grad, index, num_weights, padding_idx):
    """Each row of grad added into a zero table at its index (an index looked
    up twice gets both); the padding_idx row gets none."""
    index, rows = index.reshape(-1), grad.reshape(-1, grad.shape[-1])
    keep = index != _padding_row(padding_idx, num_weights)
    out = np.zeros((num_weights, grad.shape[-1]), dtype=grad.dtype)
    np.add.at(out, index[keep], rows[keep])
    return out


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
        return _rows_into_table(grad, self.indices, self.weight_sym_argsize_0, self.padding_idx)


class EmbeddingDenseBackwardBackward0(OpNode):
    """out = embedding_dense_backward(grad_output, indices, num_weights, padding_idx)   (embedding's backward)

    grad_output: embedding_dense_double_backward(grad, indices, padding_idx)

    Recorded when embedding's backward runs with create_graph=True.
    """
    inputs = ("grad_output",)
    attrs = ("indices", "padding_idx")
    saved_arrays = ("indices",)

    def forward(self, grad_output, indices, num_weights, padding_idx):
        self.indices, self.padding_idx = indices, padding_idx
        return _rows_into_table(grad_output, indices, num_weights, padding_idx)

    def backward(self, grad):
        rows = grad[self.indices]
        rows[self.indices == _padding_row(self.padding_idx, grad.shape[0])] = 0
        return rows


# -- layer_norm ------------------------------------------------------------------

def _normalized_axes(x, normalized_shape):
    return tuple(range(x.ndim - len(normalized_shape), x.ndim))


def _row_sum(a, dims):
    return a.astype(np.float64).sum(dims, keepdims=True).astype(a.dtype)


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
        if not shape:
            raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                               "one element, but got normalized_shape = []")
        if tuple(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
            raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                               f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
        for name, t in (("weight", weight), ("bias", bias)):
            if t is not None and tuple(t.shape) != shape:
                raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                                   f"shape {list(t.shape)} and normalized_shape = {list(shape)}")
        return super().apply(input, 1.0 if weight is None else weight, 0.0 if bias is None else bias, shape, eps)

    def forward(self, x, weight, bias, normalized_shape, eps):
        self.normalized_shape, self.eps = normalized_shape, eps
        work = x.astype(np.float32) if x.dtype == np.float16 else x    # float16 is computed in float32
        lead = x.shape[:x.ndim - len(normalized_shape)]
        rows = work.reshape(int(np.prod(lead, dtype=np.int64)), int(np.prod(normalized_shape, dtype=np.int64)))
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):   # inf and nan give nan, as PyTorch
            mean, var = kernels.rowwise_moments(rows)
            t = work.dtype.type
            rstd = t(1) / np.sqrt(np.maximum(var, t(0)) + t(eps))
        lead += (1,) * len(normalized_shape)
        self.result1, self.result2 = mean.reshape(lead), rstd.reshape(lead)
        # PyTorch's kernel: ((x - mean) * rstd), then times weight plus bias in one fused multiply-add
        return kernels.fma_as((work - self.result1) * self.result2, weight, bias, work.dtype).astype(x.dtype)

    def backward(self, grad, x, weight, bias):
        dims = _normalized_axes(x, self.normalized_shape)
        lead = tuple(range(x.ndim - len(dims)))
        xhat = (x - self.result1) * self.result2
        g = np.asarray(grad * weight, grad.dtype)
        need_input, need_weight, need_bias = self.needs_input_grad
        return (self._input_grad(g, x, dims) if need_input else None,
                (grad * xhat).sum(lead) if need_weight else None,
                grad.sum(lead) if need_bias else None)


    def _input_grad(self, g, x, dims):
        """rstd * (g - mean(g) - xhat * mean(g * xhat)), in the order of
        PyTorch's CPU kernel: dx = rstd * g + b * x + c, with the row sums
        ds = sum(g * x) and db = sum(g) (float32 results stay close to its)."""
        mean, rstd = self.result1, self.result2
        t = g.dtype.type
        scale = t(1) / t(np.prod([x.shape[d] for d in dims]))
        ds, db = _row_sum(g * x, dims), _row_sum(g, dims)
        b = (db * mean - ds) * rstd * rstd * rstd * scale
        c = -b * mean - db * rstd * scale
        return rstd * g + b * x + c
