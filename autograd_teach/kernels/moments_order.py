"""LayerNorm's statistics as PyTorch's CPU kernel computes them:
at::native::RowwiseMoments (ATen/native/cpu/moments_utils.h), reproduced so
that float32 results are PyTorch's bit for bit: Welford's running mean and
sum of squares, kept per SIMD lane in chunks of 16 vectors, chunks merged
in a binary cascade, the lanes merged last with the scalar tail. The lane
count is that of the AVX2 build PyTorch runs on this machine (8 floats): with
it, mean, rstd and the output matched the pinned torch in every element of
rows of 4 to 768 elements (tests/golden: nn_embedding_layernorm). The
compiled scalar merge fuses multiply-adds; the fused ones are fma_as here.
float64's fused multiply-add is emulated (two-product, two-sum): nearly
always PyTorch's last bit, not proven so."""
import numpy as np

_CHUNK = 16
_LANE_BYTES = 32


def fma_as(a, b, c, dt):
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
    return [n, m1 + c_delta, fma_as(delta * dt.type(m0), c_delta, m2 + m2_add, dt)]


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
            m1 = fma_as(inverse[j], delta, m1, dt)
            m2 = fma_as(delta, v - m1, m2, dt)
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
        m1 = fma_as(c, delta, m1, dt)
        m2 = m2 + fma_as(delta * delta * c, dt.type(m0), m2_add, dt)
        m0 = total
    return m1, m2 / dt.type(cols)
