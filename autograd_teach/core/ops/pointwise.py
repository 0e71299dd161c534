"""Elementwise functions: exp log sqrt abs sin cos tanh sigmoid relu clamp."""
import numpy as np

from ... import kernels
from ...compat import dtypes, random
from ..node import OpNode, quiet
from ...kernels.degenerate import sign
from .selection import where, zeros_like  # noqa: F401  (the rules call them)


class ExpBackward0(OpNode):
    """out = self.exp()

    self: grad * result
    """
    saved = ("result",)
    to_float = True

    def forward(self, a):
        return kernels.exp(a)

    def backward(self, grad, result):
        return grad * result


class LogBackward0(OpNode):
    """out = self.log()

    self: grad.div(self)
    """
    saved = ("self",)
    to_float = True

    @quiet
    def forward(self, a):
        return kernels.log(a)

    @quiet
    def backward(self, grad, a):
        return grad / a


class SqrtBackward0(OpNode):
    """out = self.sqrt()

    self: grad / (2 * result)
    """
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return np.sqrt(a)

    @quiet
    def backward(self, grad, result):
        return grad / (2 * result)


class AbsBackward0(OpNode):
    """out = self.abs()

    self: grad * self.sgn()

    grad times the sign of self (0 at 0).
    """
    saved = ("self",)

    def forward(self, a):
        dtypes.no_bool_kernel(a, "abs_cpu")
        return np.abs(a)

    def backward(self, grad, a):
        return grad * sign(a)     # 0 at NaN, as PyTorch's sgn


class SgnBackward0(OpNode):
    """out = self.sgn()   (-1, 0 or 1)

    self: sgn_backward(self, grad, result)

    Flat wherever it is defined: zero for real tensors. PyTorch's helper also
    serves complex tensors, where it reads self and the result, so the node
    saves both (changing the output in place makes backward refuse).
    """
    saved = ("self", "result")

    def forward(self, a):
        return a.copy() if a.dtype.kind == "b" else sign(a)     # a bool tensor is its own sign; NaN's is 0

    def backward(self, grad, a, result):
        return np.zeros_like(grad)


class SinBackward0(OpNode):
    """out = self.sin()

    self: grad * self.cos()
    """
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return kernels.sin(a)

    def backward(self, grad, a):
        return grad * kernels.cos(a)


class CosBackward0(OpNode):
    """out = self.cos()

    self: grad * -self.sin()
    """
    saved = ("self",)
    to_float = True

    def forward(self, a):
        return kernels.cos(a)

    def backward(self, grad, a):
        return grad * -kernels.sin(a)


class TanhBackward0(OpNode):
    """out = self.tanh()

    self: tanh_backward(grad, result)

    tanh_backward(grad, result) is grad * (1 - result * result), an op of its
    own (TanhBackwardBackward0 below), as in PyTorch.
    """
    saved = ("result",)
    to_float = True

    def forward(self, a):
        return kernels.tanh(a)

    def backward(self, grad, result):
        return grad * kernels.one_minus_square(result)


class TanhBackwardBackward0(OpNode):
    """out = tanh_backward(grad_output, output) = grad_output * (1 - output * output)

    grad_output: tanh_backward(grad, output)
    output: grad * (-2 * output * grad_output)

    TanhBackward0's backward as an op: recorded when that backward is
    (create_graph=True), so that it can be differentiated again.
    """
    inputs = ("grad_output", "output")
    elementwise = True
    saved = ("grad_output", "output")
    needed_for = {"grad_output": "output"}

    def forward(self, g, out):
        return g * kernels.one_minus_square(out)   # as TanhBackward0.backward computes it

    def backward(self, grad, g, out):
        need_g, need_out = self.needs_input_grad
        return (grad * kernels.one_minus_square(out) if need_g else None), (grad * (-2 * out * g) if need_out else None)


class SigmoidBackward0(OpNode):
    """out = self.sigmoid()

    self: sigmoid_backward(grad, result)

    sigmoid_backward(grad, result) is grad * result * (1 - result), an op of
    its own (SigmoidBackwardBackward0 below), as in PyTorch.
    """
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        # PyTorch's formula: for very negative a, exp(-a) overflows to inf and the result is exactly 0
        return kernels.sigmoid(a)

    def backward(self, grad, result):
        out = 1 - result
        if type(out) is not np.ndarray or out.shape != grad.shape or out.dtype != np.result_type(grad, out):
            return grad * out * result
        np.multiply(grad, out, out=out)     # grad * (1 - result) * result, with one array instead of three
        return np.multiply(out, result, out=out)


class SigmoidBackwardBackward0(OpNode):
    """out = sigmoid_backward(grad_output, output) = grad_output * output * (1 - output)

    grad_output: sigmoid_backward(grad, output)
    output: grad * grad_output * (-2 * output + 1)

    SigmoidBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "output")
    elementwise = True
    saved = ("grad_output", "output")
    needed_for = {"grad_output": "output"}

    def forward(self, g, out):
        return g * (1 - out) * out   # as SigmoidBackward0.backward computes it

    def backward(self, grad, g, out):
        need_g, need_out = self.needs_input_grad
        return (grad * out * (1 - out) if need_g else None), (grad * g * (-2 * out + 1) if need_out else None)


class ReluBackward0(OpNode):
    """out = self.relu()

    self: threshold_backward(grad, result, 0)

    grad where result > 0, else 0: an op of its own (ThresholdBackwardBackward0
    below), as in PyTorch.
    """
    saved = ("result",)

    def forward(self, a):
        return kernels.relu(a)   # relu(-0.0) is -0.0 and relu(NaN) the same NaN, as in PyTorch

    backward = staticmethod(kernels.threshold_backward)   # (grad, result): a 0, never a -0, as PyTorch


class ThresholdBackwardBackward0(OpNode):
    """out = threshold_backward(grad_output, self, threshold)   (grad_output where self > threshold, else 0)

    grad_output: threshold_backward(grad, self, threshold)
    self: zeros_like(grad)

    ReluBackward0's backward as an op (recorded with create_graph=True); flat in self.
    """
    inputs = ("grad_output", "self")
    elementwise = True
    saved = ("self",)
    attrs = ("threshold",)

    def forward(self, g, a, threshold):
        self.threshold = threshold
        return kernels.threshold_backward(g, a, threshold)   # as ReluBackward0.backward: a 0, never a -0

    def backward(self, grad, a):
        return kernels.threshold_backward(grad, a, self.threshold), np.zeros_like(grad)


class ClampBackward1(OpNode):
    """out = self.clamp(min, max)

    self: clamp_backward(grad, self, min, max)

    The gradient passes where clamping changed nothing, min <= self <= max,
    and is 0 elsewhere (PyTorch's clamp_backward, defined below).
    """
    saved = ("self",)
    attrs = ("min", "max")
    promote_params = True     # an int tensor clamped to 0.5 becomes float, as in PyTorch

    def forward(self, a, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        self.min, self.max = min, max   # a bound wins only where it is passed: clamp(-0.0, min=0) is -0.0, as ATen's
        out = a if min is None else np.where(a < min, min, a)
        return (out if max is None else np.where(out > max, max, out)).astype(a.dtype, copy=False)

    def backward(self, grad, a):
        keep = np.ones(a.shape, dtype=bool)
        if self.min is not None:
            keep &= a >= self.min
        if self.max is not None:
            keep &= a <= self.max
        return np.where(keep, grad, 0)


class ZeroBackward0(OpNode):
    """out = self.zero_()   (inside a graph: the old values no longer matter)

    self: zeros_like(grad)
    """

    def forward(self, a):
        return np.zeros_like(a)

    def backward(self, grad):
        return np.zeros_like(grad)


class FillBackward2(ZeroBackward0):
    """out = self.fill_(value)

    self: zeros_like(grad)
    """
    attrs = ("value",)

    def forward(self, a, value):
        self.value = value
        return np.full_like(a, value)


class FillBackward3(OpNode):
    """out = self.fill_(value)   (value a 0-d tensor: every element is value)

    self: zeros_like(grad)
    value: grad.sum()
    """
    inputs = ("self", "value")
    keeps_dtype = True

    def forward(self, a, value):
        return np.full_like(a, value)

    def backward(self, grad):
        return np.zeros_like(grad), grad.sum()


class UniformBackward0(ZeroBackward0):
    """out = self.uniform_(from, to)   (new values: no gradient to the old ones)

    self: zeros_like(grad)
    """

    def forward(self, a, low=0.0, high=1.0, generator=None):
        return random.uniform(a.shape, low, high, a.dtype, generator)


class NormalBackward0(ZeroBackward0):
    """out = self.normal_(mean, std)   (new values: no gradient to the old ones)

    self: zeros_like(grad)
    """

    def forward(self, a, mean=0.0, std=1.0, generator=None):
        random.check_std(std)
        return random.normal(a.shape, mean, std, a.dtype, generator)


# -- the functions the rules call: PyTorch's, each recorded as one op ----------------

def tanh_backward(grad_output, output):
    """grad_output * (1 - output * output), recorded as one op."""
    return TanhBackwardBackward0.apply(grad_output, output)


def sigmoid_backward(grad_output, output):
    """grad_output * output * (1 - output), recorded as one op."""
    return SigmoidBackwardBackward0.apply(grad_output, output)


def threshold_backward(grad_output, self, threshold):
    """grad_output where self > threshold, else 0, recorded as one op."""
    return ThresholdBackwardBackward0.apply(grad_output, self, threshold)


def sgn_backward(self, grad, result):
    """sgn's gradient on real tensors: zero."""
    return zeros_like(grad)


def clamp_backward(grad, self, min, max):
    """grad where min <= self <= max, else 0; a bound that is None does not clamp."""
    if min is None and max is None:
        return grad
    inside = self <= max if min is None else self >= min if max is None else (self >= min) & (self <= max)
    return where(inside, grad, 0.0)
