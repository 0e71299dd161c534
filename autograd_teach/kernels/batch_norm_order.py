"""BatchNorm's statistics as PyTorch's CPU kernels compute them:
batch_norm_cpu_collect_stats (ATen/native/cpu/batch_norm_kernel.cpp) and
batch_norm_cpu_update_stats_template (ATen/native/Normalization.cpp): the sum
of each channel accumulated in double, the mean rounded to the input's dtype,
then the sum of squared deviations (each computed in the input's dtype)
accumulated in double; the running averages in float with momentum rounded
to float, the unbiased variance's share in double."""
import numpy as np

from .moments_order import fma_as


def batch_norm_moments(x):
    """Per channel: the mean and the sum of squared deviations (var_sum)."""
    if x.ndim == 2 or x.size == x.shape[0] * x.shape[1]:     # one value per (sample, channel)
        return _rows_moments(x.reshape(x.shape[0], x.shape[1]))
    dims = (0,) + tuple(range(2, x.ndim))      # every dim but the channel dim
    n = x.size // x.shape[1]
    shape = (1, -1) + (1,) * (x.ndim - 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (x.astype(np.float64).sum(dims) / n).astype(x.dtype)
    d = x - mean.reshape(shape)
    return mean, (d * d).astype(np.float64).sum(dims).astype(x.dtype)


# An input with one value per (sample, channel), (N, C) or (N, C, 1, 1), takes the kernel's channels-last path: the rows are split
# between the threads (ATen's parallel_for: chunks of ceil(N / threads) rows),
# each thread sums its rows in the input's dtype, and the threads' partial
# sums are added in double. The thread count is that of the machine the
# goldens were recorded on (torch.get_num_threads() == 2).
_THREADS = 2


def _rows_moments(x):
    n = x.shape[0]
    chunk = -(-n // _THREADS) if n else 1
    parts = [x[i:i + chunk] for i in range(0, n, chunk)] if n >= 2 else [x]
    with np.errstate(invalid="ignore", divide="ignore"):
        total = sum((_sequential(p, lambda acc, row: acc + row).astype(np.float64) for p in parts),
                    np.zeros(x.shape[1]))
        mean = (total / n).astype(x.dtype)
        var_sum = sum((_sequential(p, lambda acc, row: fma_as(row - mean, row - mean, acc, x.dtype))
                       .astype(np.float64) for p in parts), np.zeros(x.shape[1]))
    return mean, var_sum.astype(x.dtype)


def _sequential(rows, add):
    acc = np.zeros(rows.shape[1], rows.dtype)
    for row in rows:
        acc = add(acc, row)
    return acc


def batch_norm_update_running(running_mean, running_var, mean, var_sum, n, momentum):
    """running = momentum * batch + (1 - momentum) * running, in place."""
    t = mean.dtype.type
    m = t(momentum)
    if running_mean is not None:
        running_mean[...] = m * mean + (t(1) - m) * running_mean
    if running_var is not None:
        unbiased = (var_sum / t(n - 1)).astype(np.float64)
        running_var[...] = m * unbiased + ((t(1) - m) * running_var).astype(np.float64)


# The backward's two sums (batch_norm_cpu_backward_contiguous_impl; with one
# value per (sample, channel), the channels-last impl below): for each
# (sample, channel) plane, a vectorised reduction in the input's dtype (8
# float lanes, the last partial vector's multiply-add fused, the lanes added
# in AVX2's shuffle order), the planes then added one by one in double.
BATCH_NORM_LANES = 8


def batch_norm_grad_sums(grad, x, mean):
    """Per channel, in float64: sum(grad) and sum((x - mean) * grad)."""
    n, c = x.shape[0], x.shape[1]
    if x.size == n * c:
        return _rows_grad_sums(grad.reshape(n, c), x.reshape(n, c), mean)
    dy, centered = grad.reshape(n, c, -1), x.reshape(n, c, -1) - mean.reshape(1, c, 1)
    sums = _plane_reduce(dy, np.zeros_like(dy))
    dotps = _plane_reduce(centered * dy, centered, dy)
    return _in_order(sums), _in_order(dotps)


def _in_order(planes):
    return np.cumsum(planes.astype(np.float64), axis=0)[-1] if len(planes) else np.zeros(planes.shape[1])


def _plane_reduce(products, a, b=None):
    """vec::reduce_all / map2_reduce_all over the last axis: products = a * b
    (or the values, b None); only the partial last vector fuses its a * b."""
    size, lanes = products.shape[-1], BATCH_NORM_LANES
    if size < lanes:
        return np.add.accumulate(products, axis=-1)[..., -1] if size else products.sum(-1)
    acc, d = products[..., :lanes].copy(), lanes
    while d < size - size % lanes:
        acc = acc + products[..., d:d + lanes]
        d += lanes
    if d < size:
        r = size - d
        tail = products[..., d:] if b is None else fma_as(a[..., d:], b[..., d:], acc[..., :r], a.dtype)
        acc[..., :r] = acc[..., :r] + tail if b is None else tail
    half = acc[..., :4] + acc[..., 4:]
    return (half[..., 0] + half[..., 2]) + (half[..., 1] + half[..., 3])


def _rows_grad_sums(dy, x, mean):
    """One value per (sample, channel): the channels-last path, threads as in _rows_moments."""
    n = x.shape[0]
    chunk = -(-n // _THREADS) if n else 1
    sums, dotps = np.zeros(x.shape[1]), np.zeros(x.shape[1])
    for i in range(0, max(n, 1), chunk):
        s, d = np.zeros(x.shape[1], x.dtype), np.zeros(x.shape[1], x.dtype)
        for row_x, row_dy in zip(x[i:i + chunk], dy[i:i + chunk]):
            s = s + row_dy
            d = fma_as(row_x - mean, row_dy, d, x.dtype)
        sums, dotps = sums + s, dotps + d
    return sums, dotps
