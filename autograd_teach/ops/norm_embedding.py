"""The ops under nn.Embedding and nn.LayerNorm: a table look-up, and the
normalisation of each row to mean 0 and variance 1 (then scaled and shifted).
Each is one PyTorch node; the derivative is in the docstring, in PyTorch's
Tensor API, and the functions the rules call are built from ops, so that a
second derivative goes through them."""
import numpy as np

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
            mean, var = rowwise_moments(rows)
            t = work.dtype.type
            rstd = t(1) / np.sqrt(np.maximum(var, t(0)) + t(eps))
        lead += (1,) * len(normalized_shape)
        self.result1, self.result2 = mean.reshape(lead), rstd.reshape(lead)
        # PyTorch's kernel: ((x - mean) * rstd), then times weight plus bias in one fused multiply-add
        return _fma((work - self.result1) * self.result2, weight, bias, work.dtype).astype(x.dtype)

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


# -- PyTorch's CPU kernel for the moments (off the reading path) ------------------
# at::native::RowwiseMoments (ATen/native/cpu/moments_utils.h), reproduced so
# that float32 results are PyTorch's bit for bit: Welford's running mean and
# sum of squares, kept per SIMD lane in chunks of 16 vectors, chunks merged
# in a binary cascade, the lanes merged last with the scalar tail. The lane
# count is that of the AVX2 build PyTorch runs on this machine (8 floats): with
# it, mean, rstd and the output matched the pinned torch in every element of
# rows of 4 to 768 elements (tests/golden: nn_embedding_layernorm). The
# compiled scalar merge fuses multiply-adds; the fused ones are _fma here.
# float64's fused multiply-add is emulated (two-product, two-sum): nearly
# always PyTorch's last bit, not proven so.
_CHUNK = 16
_LANE_BYTES = 32


def _fma(a, b, c, dt):
    """a * b + c rounded once (float32: exact in float64, then rounded;
    float64: the product's rounding error added back, Dekker's two-product)."""
    if dt == np.float32:
        return (np.asarray(a, np.float64) * b + c).astype(dt)
    a, b, c = np.asarray(a, dt), np.asarray(b, dt), np.asarray(c, dt)
    p = a * b
    with np.errstate(invalid="ignore", over="ignore"):
        err = _two_product_error(a, b, p)
        s = p + c
        bb = s - p
        sum_err = (p - (s - bb)) + (c - bb)      # Knuth's two-sum: s + sum_err == p + c exactly
        out = s + (sum_err + err)
    return np.where(np.isfinite(out), out, a * b + c)


def _split(a):
    t = a * 134217729.0                       # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = t - (t - a)
    return hi, a - hi


def _two_product_error(a, b, p):
    (ah, al), (bh, bl) = _split(a), _split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _merge_lanes(m0_add, m1_add, m2_add, acc, dt):
    """AddMomentsVec: the moments of m0_add more rows per lane merged into acc."""
    m0, m1, m2 = acc
    n = m0 + m0_add
    c = dt.type(0) if n == 0 else dt.type(m0_add) / dt.type(n)
    delta = m1_add - m1
    c_delta = c * delta
    return [n, m1 + c_delta, _fma(delta * dt.type(m0), c_delta, m2 + m2_add, dt)]


def _ceil_log2(x):
    return 1 if x <= 2 else int(x - 1).bit_length()


def rowwise_moments(x):
    """Mean and (biased) variance of each row of x (2-D), as PyTorch's kernel computes them."""
    dt, (rows, cols) = x.dtype, x.shape
    lanes = _LANE_BYTES // dt.itemsize
    n = cols // lanes                      # whole vectors per row
    chunks = -(-n // _CHUNK)
    depth = _ceil_log2(chunks)
    zero = np.zeros((rows, lanes), dt)
    stack = [[0, zero, zero] for _ in range(depth)]
    inverse = [dt.type(1) / dt.type(j + 1) for j in range(_CHUNK)]
    for i in range(chunks):
        count = min(_CHUNK, n - i * _CHUNK)
        m1, m2 = zero, zero
        for j in range(count):            # Welford within a chunk, per lane
            start = (i * _CHUNK + j) * lanes
            v = x[:, start:start + lanes]
            delta = v - m1
            m1 = _fma(inverse[j], delta, m1, dt)
            m2 = _fma(delta, v - m1, m2, dt)
        stack[0] = _merge_lanes(count, m1, m2, stack[0], dt)
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:   # the cascade: merge equal-sized partial results
            stack[j] = _merge_lanes(*stack[j - 1], stack[j], dt)
            stack[j - 1] = [0, zero, zero]
            mask, j = mask >> 1, j + 1
    for j in range(1, depth):
        stack[0] = _merge_lanes(*stack[j], stack[0], dt)
    m0, m1, m2 = 0, np.zeros(rows, dt), np.zeros(rows, dt)
    for i in range(n * lanes, cols):       # the elements after the last whole vector
        v = x[:, i]
        delta = v - m1
        m0 += 1
        m1 = m1 + delta / dt.type(m0)
        m2 = m2 + delta * (v - m1)
    for lane in range(lanes):               # AddMoments, lane by lane
        m1_add, m2_add = stack[0][1][:, lane], stack[0][2][:, lane]
        total = m0 + n
        c = dt.type(0) if total == 0 else dt.type(n) / dt.type(total)
        delta = m1_add - m1
        m1 = _fma(c, delta, m1, dt)
        m2 = m2 + _fma(delta * delta * c, dt.type(m0), m2_add, dt)
        m0 = total
    return m1, m2 / dt.type(cols)
