"""The helpers of torch/distributions/utils.py the distributions here use:
broadcast_all, probs_to_logits / logits_to_probs, clamp_probs, lazy_property."""
import numbers

from ..compat import dtypes
from ..compat.creation import empty, tensor
from ..compat.shape_functions import broadcast_tensors
from ..compat.type_info import finfo
from ..core.grad_mode import enable_grad
from ..core.tensor import Tensor
from ..nn import functional as F


def broadcast_all(*values):
    """Numbers become tensors of the first tensor's dtype (the default dtype
    if there is none), then all are broadcast to one shape."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    first = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = first.dtype if first is not None else dtypes.default_float
    return broadcast_tensors(*(v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values))


def standard_normal(shape, dtype):
    """_standard_normal: torch.empty(shape, dtype=dtype).normal_(), so the
    draw is PyTorch's normal_ kernel on the default generator."""
    return empty(shape, dtype=dtype).normal_()


def clamp_probs(probs):
    """probs clamped to [eps, 1 - eps], eps the dtype's machine epsilon."""
    eps = finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return logits.sigmoid()
    return F.softmax(logits, dim=-1)


class lazy_property:
    """A method run on first access (with grad mode on, as PyTorch does) whose
    result then replaces it as an instance attribute: Bernoulli(probs=p)
    computes its logits only when asked."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__name__ = wrapped.__name__
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value
