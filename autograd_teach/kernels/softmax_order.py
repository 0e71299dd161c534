"""softmax and log_softmax as PyTorch's CPU kernels compute them in float32
(aten/src/ATen/native/cpu/SoftMaxKernel.cpp): SLEEF's exp, the sums in the
order of its vectorized reductions, and its fused multiply-adds. d is the
(checked, non-negative) dim."""
import numpy as np

from .float32 import exp, fma, log_exact, sleef_exp, sub_product, vec_sum_lastdim


def softmax(a, d):
    if d != a.ndim - 1:
        return _softmax_other_dim(a, d)
    e = sleef_exp(a - a.max(axis=d, keepdims=True))
    return e * (1 / softmax_sum(e, d))   # PyTorch multiplies by 1 / sum


def softmax_backward(grad, result, d):
    """result * (grad - (grad * result).sum(d, keepdim=True))"""
    if d != result.ndim - 1 and result.dtype == np.float32:   # _vec_softmax_backward: fused, along the dim
        total = np.zeros_like(np.take(result, [0], axis=d))
        for i in range(result.shape[d]):
            total = fma(np.take(grad, [i], axis=d), np.take(result, [i], axis=d), total)
        return result * (grad - total)
    return result * (grad - softmax_sum(grad * result, d))


def log_softmax(a, d):
    """a - max - log(sum(exp(a - max))): SLEEF's exp, then a log rounded once."""
    shifted = a - a.max(axis=d, keepdims=True)
    return shifted - log_exact(softmax_sum(sleef_exp(shifted), d))


def log_softmax_backward(grad, result, d):
    """grad - exp(result) * grad.sum(d, keepdim=True): SLEEF's exp (its last
    bit is not always numpy's), and one rounding."""
    return sub_product(grad, sleef_exp(result), softmax_sum(grad, d))


def softmax_sum(x, dim):
    """x.sum(dim, keepdim=True) as PyTorch's softmax kernels add: over the last
    dim in the order of its vectorized reductions (vec_sum_lastdim), over
    another dim in numpy's."""
    if dim == x.ndim - 1:
        return vec_sum_lastdim(x)[..., None]
    return x.sum(axis=dim, keepdims=True)


def _softmax_other_dim(a, d):
    """softmax over a dim other than the last, as PyTorch's _vec_softmax:
    columns in whole vectors of 64 bytes (16 float32) take SLEEF's exp, the
    columns left over the C library's (correctly rounded, nearly always); the
    exps add left to right along the dim, and each is divided by the sum."""
    shifted = a - a.max(axis=d, keepdims=True)
    inner = int(np.prod(a.shape[d + 1:]))
    if a.size > 32768 or a.dtype.kind != "f":     # split over threads: which columns are whole vectors changes
        e = sleef_exp(shifted)
    else:
        blocks = shifted.reshape(a.shape[:d] + (a.shape[d], inner))
        whole = inner - inner % (64 // a.itemsize)
        e = np.concatenate([sleef_exp(blocks[..., :whole]), exp(blocks[..., whole:])], axis=-1)
        e = e.reshape(a.shape)
    return e / np.cumsum(e, axis=d).take([-1], axis=d)   # cumsum: left to right
