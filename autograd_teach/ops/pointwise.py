"""Elementwise functions: exp log sqrt abs sin cos tanh sigmoid relu clamp."""
import numpy as np

from .. import random
from ..node import OpNode, quiet


class ExpBackward0(OpNode):
    saved = ("result",)
    to_float = True

    def forward(self, a):
        return np.exp(a)

    def backward(self, grad, result):
        return grad * result


class LogBackward0(OpNode):
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return np.log(a)

    @quiet
    def backward(self, grad, a):
        return grad / a


class SqrtBackward0(OpNode):
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return np.sqrt(a)

    @quiet
    def backward(self, grad, result):
        return grad / (2 * result)


class AbsBackward0(OpNode):
    saved = ("self",)

    def forward(self, a):
        return np.abs(a)

    def backward(self, grad, a):
        return grad * np.sign(a)


class SinBackward0(OpNode):
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return np.sin(a)

    def backward(self, grad, a):
        return grad * np.cos(a)


class CosBackward0(OpNode):
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return np.cos(a)

    def backward(self, grad, a):
        return -grad * np.sin(a)


class TanhBackward0(OpNode):
    saved = ("result",)
    to_float = True

    def forward(self, a):
        return np.tanh(a)

    def backward(self, grad, result):
        return grad * (1 - result * result)


class SigmoidBackward0(OpNode):
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        # PyTorch's formula: for very negative a, exp(-a) overflows to inf and the result is exactly 0
        return 1 / (1 + np.exp(-a))

    def backward(self, grad, result):
        return grad * result * (1 - result)


class ReluBackward0(OpNode):
    saved = ("result",)

    def forward(self, a):
        return np.maximum(a, 0).astype(a.dtype, copy=False)

    def backward(self, grad, result):
        return grad * (result > 0)


class ClampBackward1(OpNode):
    """clamp(min, max): the gradient passes where min <= self <= max"""
    saved = ("self",)
    attrs = ("min", "max")
    promote_params = True     # an int tensor clamped to 0.5 becomes float, as in PyTorch

    def forward(self, a, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        self.min, self.max = min, max
        return np.clip(a, min, max).astype(a.dtype, copy=False)

    def backward(self, grad, a):
        keep = np.ones(a.shape, dtype=bool)
        if self.min is not None:
            keep &= a >= self.min
        if self.max is not None:
            keep &= a <= self.max
        return grad * keep


class ZeroBackward0(OpNode):
    """x.zero_() inside a graph: the old values no longer matter"""

    def forward(self, a):
        return np.zeros_like(a)

    def backward(self, grad):
        return np.zeros_like(grad)


class FillBackward2(ZeroBackward0):
    """x.fill_(value) inside a graph"""
    attrs = ("value",)

    def forward(self, a, value):
        self.value = value
        return np.full_like(a, value)


class UniformBackward0(ZeroBackward0):
    """x.uniform_(a, b) inside a graph: new values, no gradient to the old ones"""

    def forward(self, a, low=0.0, high=1.0):
        return random.uniform(a.shape, low, high, a.dtype)


class NormalBackward0(ZeroBackward0):
    """x.normal_(mean, std) inside a graph"""

    def forward(self, a, mean=0.0, std=1.0):
        return random.normal(a.shape, mean, std, a.dtype)
