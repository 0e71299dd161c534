"""The op under nn.BatchNorm1d/2d: each channel (dim 1) normalised to mean 0
and variance 1 over the batch and the spatial dims, then scaled and shifted.
In training the statistics are the batch's own (and the running averages
are updated as a side effect); in eval mode the running averages are used,
so the output is an affine function of the input. One PyTorch node,
NativeBatchNormBackward0; the derivative is in its docstring, and the
functions the rules call are built from ops, so that a second derivative
goes through them."""
import numpy as np

from .. import kernels
from ..core import grad_mode
from ..core.node import FREED, NO_EDGE, OpNode, SavedTensor, dual, next_sequence_nr
from ..core.ops.multi_output import MultiOutputNode


def _channel_dims(x):
    """Every dim but the channel dim (1): the dims the statistics reduce."""
    return (0,) + tuple(range(2, x.dim() if hasattr(x, "dim") else x.ndim))


def _per_channel(v, x):
    """A per-channel vector (C,) shaped (1, C, 1, ...) to broadcast against x."""
    return v.reshape((1, -1) + (1,) * (x.dim() - 2))


def _batch_xhat(input, eps):
    """(input - mean) * invstd, the batch's mean and biased variance per channel."""
    dims = _channel_dims(input)
    centered = input - input.mean(dims, keepdim=True)
    return centered, ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()


def batchnorm_input_backward(grad, input, weight, running_mean, running_var, training, eps):
    """d out / d input. Training: invstd * (g - mean(g) - xhat * mean(g * xhat)),
    g = grad * weight, means per channel: the batch's mean and variance depend
    on input (recomputed here from input, so a second derivative sees that).
    Eval: grad * weight * invstd of the running variance (a constant)."""
    w = weight if isinstance(weight, (int, float)) else _per_channel(weight, input)
    if not training:
        return grad * w * _per_channel((running_var + eps).rsqrt(), input)
    dims = _channel_dims(input)
    centered, invstd = _batch_xhat(input, eps)
    xhat = centered * invstd
    g = grad * w
    return invstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


def batchnorm_weight_backward(grad, input, running_mean, running_var, training, eps):
    """grad * xhat, summed per channel."""
    if training:
        centered, invstd = _batch_xhat(input, eps)
    else:
        centered = input - _per_channel(running_mean, input)
        invstd = _per_channel((running_var + eps).rsqrt(), input)
    return (grad * (centered * invstd)).sum(_channel_dims(input))


def batchnorm_bias_backward(grad, input):
    """grad summed per channel."""
    return grad.sum(_channel_dims(input))


class NativeBatchNormBackward0(OpNode):
    """out = (input - mean) * invstd * weight + bias   (per channel; mean, invstd = result1, result2 in training)

    input: batchnorm_input_backward(grad, input, weight, running_mean, running_var, training, eps)
    weight: batchnorm_weight_backward(grad, input, running_mean, running_var, training, eps)
    bias: batchnorm_bias_backward(grad, input)

    Training: mean and invstd = 1 / sqrt(var + eps) are the batch's, the
    variance biased (divided by n); running_mean and running_var, if given,
    move towards the batch's mean and unbiased variance (divided by n - 1):
    running = (1 - momentum) * running + momentum * batch. Eval: the running
    statistics normalise, and result1 and result2 are empty. PyTorch's rule is
    one call, batchnorm_backward(...); here the three gradients are written
    apart. With create_graph=True the backward is one op with three outputs,
    NativeBatchNormBackwardBackward0, as in PyTorch (the rules above are
    what its backward differentiates). Without a weight or bias, 1 and 0
    stand in their places (no edge).
    """
    inputs = ("input", "weight", "bias")
    saved = ("input", "weight")
    attrs = ("eps", "training", "running_mean", "running_var", "result1", "result2")
    saved_arrays = ("running_mean", "running_var", "result1", "result2")

    @classmethod
    def apply(cls, input, weight, bias, running_mean, running_var, training, momentum, eps):
        channels = input.shape[1]
        for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                        ("bias", bias)):
            if t is not None and t.numel() != channels:
                raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
        if not training:
            for name, t in (("running_mean", running_mean), ("running_var", running_var)):
                if t is None:
                    raise RuntimeError(f"{name} must be defined in evaluation mode")
        if any(t is not None and t.dtype is not input.dtype for t in (weight, bias, running_mean, running_var)):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        stats = [None if t is None else t._data for t in (running_mean, running_var)]
        return super().apply(input, 1.0 if weight is None else weight, 0.0 if bias is None else bias,
                             *stats, training, momentum, eps)

    def forward(self, x, weight, bias, running_mean, running_var, training, momentum, eps):
        self.eps, self.training = eps, training
        dims, t = _channel_dims(x), x.dtype.type
        if training:
            mean, var_sum = kernels.batch_norm_moments(x)
            n = x.size // x.shape[1]
            invstd = (1 / np.sqrt((var_sum / t(n)).astype(np.float64) + eps)).astype(x.dtype)
            kernels.batch_norm_update_running(running_mean, running_var, mean, var_sum, n, momentum)
            self.result1, self.result2 = mean, invstd
        else:
            mean, invstd = running_mean, t(1) / np.sqrt(running_var + t(eps))
            self.result1 = self.result2 = np.zeros(0, x.dtype)
        self.running_mean = None if running_mean is None else running_mean.copy()
        self.running_var = None if running_var is None else running_var.copy()
        # PyTorch's kernel: alpha = invstd * weight, beta = bias - mean * alpha,
        # out = x * alpha + beta (the compiled kernel fuses both multiply-adds)
        alpha = (invstd * np.asarray(weight, x.dtype)).astype(x.dtype)
        beta = kernels.fma_as(-mean, alpha, np.asarray(bias, x.dtype), x.dtype)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        return kernels.fma_as(x, alpha.reshape(shape), beta.reshape(shape), x.dtype)

    def backward(self, grad, x, weight):
        return native_batch_norm_backward(self, grad, x, weight, self.needs_input_grad)

    def call_backward_on_tensors(self, grad):
        """create_graph=True: PyTorch records this backward as one node with
        three outputs, NativeBatchNormBackwardBackward0 (below); so does this."""
        if self.saved_values is None:
            raise RuntimeError(FREED)
        values = self.live_values()
        if grad is None:
            return (None,) * 3
        return NativeBatchNormBackwardBackward0.apply(self, grad, values["input"], values["weight"])


def _statistics(node, x):
    """The mean and invstd that normalised x: the batch's, or the running ones."""
    if node.training:
        return node.result1, node.result2
    return node.running_mean, (1 / np.sqrt(node.running_var.astype(np.float64) + node.eps)).astype(x.dtype)


def native_batch_norm_backward(node, grad, x, weight, mask):
    """PyTorch's kernel: per channel, sum_dy = sum(grad) and dotp = sum(grad * (x - mean));
    grad_weight = dotp * invstd, grad_bias = sum_dy, and in training
    grad_input = (grad - sum_dy / n - (x - mean) * dotp * invstd**2 / n) * invstd * weight.
    mask says which of the three are wanted."""
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean, invstd = _statistics(node, x)
    w = np.broadcast_to(np.asarray(weight, x.dtype), mean.shape)
    sum_dy, dotp = kernels.batch_norm_grad_sums(grad, x, mean)          # float64, per channel
    rows = x.size == x.shape[0] * x.shape[1]        # PyTorch's (N, C) path: sums kept in x's dtype
    if rows:
        sum_dy, dotp = sum_dy.astype(x.dtype), dotp.astype(x.dtype)
    need_input, need_weight, need_bias = mask
    grad_input = None
    if need_input:
        mean_c, invstd_c, w_c = (v.reshape(shape) for v in (mean, invstd, w))
        if node.training:
            n = x.dtype.type(x.size // x.shape[1])
            k = (dotp.astype(x.dtype) * invstd * invstd / n).reshape(shape)
            grad_mean = (sum_dy / n).astype(x.dtype).reshape(shape)
            fused = kernels.fma_as(-(x - mean_c), k, grad - grad_mean, x.dtype)
            if rows:     # there only whole vectors of channels fuse; the last partial one does not
                tail = x.shape[1] - x.shape[1] % kernels.BATCH_NORM_LANES
                fused[:, tail:] = (grad - grad_mean - (x - mean_c) * k)[:, tail:]
            grad_input = fused * invstd_c * w_c
        else:
            grad_input = grad * invstd_c * w_c
    return (grad_input, (dotp * invstd).astype(x.dtype) if need_weight else None,
            sum_dy.astype(x.dtype) if need_bias else None)


class NativeBatchNormBackwardBackward0(MultiOutputNode):
    """outs = native_batch_norm_backward(grad_out, input, weight, ...)   (NativeBatchNormBackward0's backward)

    PyTorch's rule: input, weight, grad_out: batchnorm_double_backward(input, weight, grads[0], grads[1],
    grads[2], grad_out, running_mean, running_var, train, eps, save_mean, save_invstd, grad_input_mask)

    Recorded when batch_norm's backward runs with create_graph=True: one node
    whose three outputs are grad_input, grad_weight and grad_bias, with five
    edges, to grad_out, input, weight, save_mean and save_invstd (the last two
    never take a gradient). Its backward, batch_norm_double_backward below,
    differentiates the three gradients once more.
    """

    @classmethod
    def apply(cls, forward_node, grad_out, input, weight):
        node = cls.__new__(cls)
        node.eps, node.training, node.mask = forward_node.eps, forward_node.training, forward_node.needs_input_grad
        for name in ("running_mean", "running_var", "result1", "result2"):
            setattr(node, name, getattr(forward_node, name))
        weight = weight if hasattr(weight, "_data") else None      # a number stood in for no weight
        arrays = native_batch_norm_backward(node, grad_out._data, input._data,
                                            1.0 if weight is None else weight._data, node.mask)
        outs = tuple(None if a is None else grad_out._wrap(np.asarray(a, input._data.dtype)) for a in arrays)
        inputs = (grad_out, input, weight)
        if dual.levels:        # forward over reverse: the tangents of the rules above, as PyTorch's decomposition
            dual.propagate_decomposed(inputs, outs, lambda g, x, w: _backward_as_ops(node, g, x, w))
        if grad_mode.is_grad_enabled() and any(t is not None and t.requires_grad for t in inputs):
            for k, out in enumerate(outs):
                if out is not None:
                    out._set_grad_fn(node, k)
            node.num_outputs, node.sequence_nr = 3, next_sequence_nr()
            node.next_functions = tuple(NO_EDGE if t is None else t._grad_edge() for t in inputs) + (NO_EDGE,) * 2
            node.input_metadata = tuple(None if t is None else (t._data.shape, t._data.dtype) for t in inputs)
            node.saved_values = {name: None if t is None else SavedTensor(t)
                                 for name, t in zip(("grad_out", "input", "weight"), inputs)}
        return outs

    def call_backward(self, grads):
        if self.saved_values is None:
            raise RuntimeError(FREED)
        go, x, w = (None if s is None else s.unpack() for s in self.saved_values.values())
        if all(g is None for g in grads):
            return (None,) * 5
        d_grad, d_input, d_weight = batch_norm_double_backward(self, go, x, w, grads)
        # as PyTorch: no gradient for input without gg_weight (eval) or gg_input and gg_weight (training),
        # none for weight without gg_input
        if grads[1] is None and (grads[0] is None or not self.training):
            d_input = None
        out = (d_grad, d_input, None if grads[0] is None else d_weight, None, None)
        return tuple(None if fn is None else g for g, (fn, _) in zip(out, self.next_functions))

    def call_backward_on_tensors(self, grads):
        raise NotImplementedError("autograd_teach: a third derivative through batch_norm (the backward of "
                                  "NativeBatchNormBackwardBackward0 with create_graph=True) is not implemented")

    def release_variables(self):
        self.saved_values = None


def _backward_as_ops(node, grad, input, weight):
    """native_batch_norm_backward's three outputs, as the rules of
    NativeBatchNormBackward0 compute them with Tensor ops."""
    stats = [None if v is None else grad._wrap(v) for v in (node.running_mean, node.running_var)]
    w = 1.0 if weight is None else weight
    return (batchnorm_input_backward(grad, input, w, *stats, node.training, node.eps) if node.mask[0] else None,
            batchnorm_weight_backward(grad, input, *stats, node.training, node.eps) if node.mask[1] else None,
            batchnorm_bias_backward(grad, input) if node.mask[2] else None)


def batch_norm_double_backward(node, g, x, w, grads):
    """The gradients of <gg_input, grad_input> + <gg_weight, grad_weight> +
    <gg_bias, grad_bias> w.r.t. grad_out (g), input (x) and weight (w), where
    gg is what reached the three outputs (zeros where nothing did)."""
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean, invstd = _statistics(node, x)
    gg_input = np.zeros_like(x) if grads[0] is None else grads[0]
    gg_weight, gg_bias = (np.zeros(shape[:1] + (x.shape[1],) + shape[2:], x.dtype) if v is None
                          else v.reshape(shape) for v in grads[1:])
    s = invstd.astype(x.dtype).reshape(shape)
    w_c = np.ones_like(s) if w is None else w.reshape(shape)
    xc = x - mean.astype(x.dtype).reshape(shape)
    terms = _train_terms if node.training else _eval_terms
    d_grad, d_input, d_weight = terms(g, xc, s, w_c, gg_input, gg_weight, _channel_dims(x))
    return d_grad + gg_bias, d_input, None if w is None else d_weight


def _eval_terms(g, xc, s, w, gg_input, gg_weight, dims):
    """Eval mode: grad_input = g * w * s, grad_weight = sum(g * xc * s), s and
    the mean constants: each output is linear in g, and in x or w."""
    return gg_input * w * s + gg_weight * xc * s, gg_weight * g * s, (gg_input * g * s).sum(dims)


def _train_terms(g, xc, s, w, gg_input, gg_weight, dims):
    """Training, per channel over its n values (xc = x - mean(x), s = invstd,
    xh = xc * s, P(v) = v - mean(v) - xh * mean(v * xh)):
        grad_input = w * s * P(g),  grad_weight = sum(g * xh)
    P is symmetric, so d/d g = w * s * P(gg_input) + gg_weight * xh, and
    d/d w = sum(gg_input * s * P(g)). d/d x comes from s's and the means'
    dependence on x: with a = w * gg_input, A = sum(a * (g - mean(g))),
    Gc = mean(g * xc), Ac = sum(a * xc) (so grad_input's part is s*A - s^3*Gc*Ac):
        -s^3 xc / n (A - 3 s^2 Gc Ac) - s^3 (Ac (g - mean(g)) / n + Gc (a - mean(a)))
    plus gg_weight * s * P(g) from grad_weight."""
    n = xc.size // xc.shape[1]

    def mean(v):
        return v.mean(dims, keepdims=True)

    def total(v):
        return v.sum(dims, keepdims=True)

    def project(v):
        return v - mean(v) - xh * mean(v * xh)
    xh = xc * s
    a = w * gg_input
    big_a, gc, ac = total(a * (g - mean(g))), mean(g * xc), total(a * xc)
    d_input = (-s ** 3 * xc / n * (big_a - 3 * s ** 2 * gc * ac)
               - s ** 3 * (ac * (g - mean(g)) / n + gc * (a - mean(a))) + gg_weight * s * project(g))
    d_grad = w * s * project(gg_input) + gg_weight * xh
    return d_grad, d_input, total(gg_input * s * project(g)).reshape(-1)
