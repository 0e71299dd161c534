"""torch.nn.utils.clip_grad_norm_ and clip_grad_value_: tame the gradients
between backward() and optimizer.step().

clip_grad_norm_ measures all the gradients as if they were one long vector
(the p-norm of the per-tensor p-norms, which is the same number up to
rounding) and, if that total norm is above max_norm, scales every gradient in
place by max_norm / (total_norm + 1e-6). The scale is always applied, clamped
to 1, as PyTorch does (it avoids a data-dependent `if` on the GPU), so the
arithmetic here is PyTorch's float32 arithmetic step for step: per-tensor
norms, stack, norm, add 1e-6, `max_norm / t` computed as
`reciprocal(t) * max_norm`, clamp, multiply."""
import types
import warnings

import numpy as np

from ...compat.creation import tensor
from ...core.grad_mode import no_grad
from ...linalg import vector_norm
from ...compat.more_functions import stack
from ...core.tensor import Tensor


def _as_list(tensors):
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def _by_dtype(tensors):
    """PyTorch groups the tensors by (device, dtype), in order of first appearance."""
    order = {}
    for t in tensors:
        order.setdefault(t.dtype, len(order))
    return sorted(tensors, key=lambda t: order[t.dtype])


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms: the norm of all their entries as one vector."""
    with no_grad():
        tensors = _as_list(tensors)
        norm_type = float(norm_type)
        if not tensors:
            return tensor(0.0)
        norms = [vector_norm(t, norm_type) for t in _by_dtype(tensors)]
        total_norm = vector_norm(stack(norms), norm_type)
        if error_if_nonfinite and (total_norm.isnan() | total_norm.isinf()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot "
                "be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                "`error_if_nonfinite=False`")
        return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """grad *= min(max_norm / (total_norm + 1e-6), 1), in place."""
    with no_grad():
        grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
        max_norm = float(max_norm)
        if not grads:
            return
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = clip_coef.clamp(max=1.0)
        with np.errstate(invalid="ignore"):    # an inf gradient times a 0 coef is nan, silently, as in PyTorch
            for g in _by_dtype(grads):
                g.mul_(clip_coef_clamped)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients so that their total norm is at most max_norm; return
    the total norm they had (a tensor)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)           # a generator would be used up by the first pass
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient entry into [-clip_value, clip_value], in place."""
    with no_grad():
        clip_value = float(clip_value)
        for g in _by_dtype([p.grad for p in _as_list(parameters) if p.grad is not None]):
            g.clamp_(min=-clip_value, max=clip_value)
