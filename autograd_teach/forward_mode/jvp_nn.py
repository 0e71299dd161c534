"""PyTorch's jvp helpers (FunctionsManual.cpp) for the ops of a network:
running products, convolution, and the normalizations. Each is the
derivative of the forward along the inputs' tangents, written with Tensor
ops in PyTorch's order, so that float32 tangents round as its do. A
weight or bias that was not given is a number here (1.0, 0.0): its term
drops out, as PyTorch's undefined tensors do.
"""
NUMBERS = (int, float, bool)


def cumprod_jvp(self_t, self_p, result, dim):
    """d cumprod = cumprod * cumsum(t / x) while no zero was met; from a
    row's first zero on, x with t in the zero's place, cumprod'd (so past the
    zero only the products through it remain, as the zero kills the rest)."""
    gradient = (self_t / self_p).cumsum(dim) * result
    if self_p.dim() == 0:
        return self_t.where(self_p == 0, gradient)
    zeros = self_p == 0
    first_zero = zeros.logical_and(zeros.long().cumsum(dim) == 1)
    new_grad = self_t.where(first_zero, self_p).cumprod(dim)
    after_first_zero = first_zero.long().cumsum(dim).bool()
    return new_grad.where(after_first_zero, gradient)


def convolution_jvp(op, input_p, input_t, weight_p, weight_t, bias_t, *args):
    """conv(x_t, w) + conv(x, w_t) + b_t: the convolution is linear in each
    of x and w while the other is held (args: stride ... groups)."""
    bias = bias_t if not isinstance(bias_t, NUMBERS) else 0.0
    return op.apply(input_t, weight_p, 0.0, *args) + op.apply(input_p, weight_t, bias, *args)


def _affine_jvp(result_t, input_p, mean_p, invstd_p, weight_p, weight_t, bias_t, affine_shape):
    """The tangent of (normalized * weight + bias), given the normalized one's."""
    if not isinstance(weight_p, NUMBERS):
        result_p = (input_p - mean_p) * invstd_p
        weight_t = weight_t if not isinstance(weight_t, NUMBERS) else weight_p.new_zeros(weight_p.shape)
        result_t = result_t * weight_p.view(affine_shape) + result_p * weight_t.view(affine_shape)
    if not isinstance(bias_t, NUMBERS):
        result_t = result_t + bias_t.view(affine_shape)
    return result_t


def _normalized_jvp(input_p, input_t, mean_p, invstd_p, dims, numel):
    """d ((x - mean) * invstd) with the statistics over dims moving too:
    invstd' = -invstd³ · mean((x' - mean(x')) · (x - mean))."""
    centered_t = input_t - input_t.mean(dims, True)
    invstd_t = -invstd_p.pow(3) * (centered_t * (input_p - mean_p)).sum(dims, True) / numel
    return centered_t * invstd_p + (input_p - mean_p) * invstd_t


def batch_norm_jvp(input_p, input_t, weight_p, weight_t, bias_t, running_mean, running_var,
                   saved_mean, saved_invstd, train, eps):
    """Per channel (dim 1): training normalizes by the batch's statistics,
    which move with the tangent; eval by the running ones, which do not."""
    view = [1 if d != 1 else n for d, n in enumerate(input_p.shape)]
    dims = [d for d in range(input_p.dim()) if d != 1]
    if train:
        mean_p, invstd_p = saved_mean.view(view), saved_invstd.view(view)
        result_t = _normalized_jvp(input_p, input_t, mean_p, invstd_p, dims, input_p.numel() // input_p.shape[1])
    else:
        mean_p, invstd_p = running_mean.view(view), (1 / (running_var + eps).sqrt()).view(view)
        result_t = input_t * invstd_p
    return _affine_jvp(result_t, input_p, mean_p, invstd_p, weight_p, weight_t, bias_t, view)


def layer_norm_jvp(input_p, input_t, weight_p, weight_t, bias_t, saved_mean, saved_invstd, normalized_shape):
    """Over the last len(normalized_shape) dims; weight and bias have their shape."""
    lead = input_p.dim() - len(normalized_shape)
    dims = list(range(lead, input_p.dim()))
    numel = 1
    for n in normalized_shape:
        numel *= n
    result_t = _normalized_jvp(input_p, input_t, saved_mean, saved_invstd, dims, numel)
    affine = [1] * lead + list(normalized_shape)
    return _affine_jvp(result_t, input_p, saved_mean, saved_invstd, weight_p, weight_t, bias_t, affine)


HELPERS = {"cumprod_jvp": cumprod_jvp, "convolution_jvp": convolution_jvp, "batch_norm_jvp": batch_norm_jvp,
           "layer_norm_jvp": layer_norm_jvp}
