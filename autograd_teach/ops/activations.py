"""The activations a learner meets after relu, sigmoid and tanh: softplus,
elu (and selu), silu, hardtanh (and relu6), hardsigmoid. Each rule is
PyTorch's, from derivatives.yaml; the helpers they call (softplus_backward,
elu_backward, ...) are PyTorch's FunctionsManual / at:: functions of the same
names, written here with Tensor ops so that a create_graph backward is a graph.

At the kinks the gradient is the one PyTorch's kernels give (a subgradient):
hardtanh and hardsigmoid pass nothing at their corners (strict < on both
sides), elu takes its negative branch at 0 (x <= 0), softplus switches to the
identity strictly above the threshold.

float32: the transcendental parts are computed in float64 and rounded once
(autograd_teach/kernels, docs/float32.md).
"""
import numpy as np

from .. import kernels
from ..core.node import OpNode, quiet
from ..core.ops.arithmetic import AddBackward1
from .no_derivative import NoDerivative, not_implemented  # noqa: F401  (its rule calls it)
from ..core.ops.selection import where, zeros_like  # noqa: F401  (the rules call them)

def _softplus(x, beta, threshold):
    """PyTorch's kernel, step by step in x's dtype: log1p(exp(x * beta)) / beta."""
    t = x.dtype.type
    bx = x * t(beta)
    with np.errstate(over="ignore"):
        return np.where(bx > threshold, x, kernels.log1p(kernels.exp(bx)) / t(beta))


def _softplus_grad(grad, x, beta, threshold):
    t = x.dtype.type
    bx = x * t(beta)
    with np.errstate(over="ignore", invalid="ignore"):
        z = kernels.exp(bx)
        return np.where(bx > threshold, grad, grad * z / (z + t(1)))


class SoftplusBackward0(OpNode):
    """out = softplus(self, beta, threshold)   (log(1 + exp(beta * self)) / beta; self where beta * self > threshold)

    self: softplus_backward(grad, self, beta, threshold)
    """
    saved = ("self",)
    attrs = ("beta", "threshold")

    def forward(self, a, beta=1.0, threshold=20.0):
        self.beta, self.threshold = beta, threshold
        return _softplus(a, beta, threshold)

    def backward(self, grad, a):
        return _softplus_grad(grad, a, self.beta, self.threshold)


def _elu(x, alpha, scale, input_scale):
    """PyTorch's kernel in x's dtype: its coefficients are rounded to it first."""
    t = x.dtype.type
    neg, pos, ipt = t(alpha) * t(scale), t(scale), t(input_scale)
    with np.errstate(over="ignore"):
        # (math.expm1 overflows: the positive side gets 0 there); expm1(-0.0) is -0.0, as PyTorch's elu(-0.0)
        return np.where(x <= 0, kernels.expm1_exact(np.where(x > 0, 0, x * ipt)) * neg, x * pos)


def _elu_grad(grad, x, alpha, scale, input_scale):
    t = x.dtype.type
    neg, pos, ipt = t(alpha) * t(scale), t(scale), t(input_scale)
    with np.errstate(over="ignore"):
        return np.where(x <= 0, grad * ipt * neg * kernels.exp(x * ipt), grad * pos)


def _elu_grad_from_result(grad, result, alpha, scale, input_scale):
    t = result.dtype.type
    neg, pos, ipt = t(alpha) * t(scale), t(scale), t(input_scale)
    return np.where(result <= 0, grad * ipt * (result + neg), grad * pos)


class EluBackward0(OpNode):
    """out = elu(self, alpha, scale, input_scale)   (scale * self for self > 0, else alpha * scale * (exp(input_scale * self) - 1))

    self: elu_backward(grad, alpha, scale, input_scale, False, self)

    F.elu has scale = input_scale = 1; F.selu is this op with SELU's constants.
    """
    saved = ("self",)
    attrs = ("alpha", "scale", "input_scale")

    def forward(self, a, alpha=1.0, scale=1, input_scale=1):
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        return _elu(a, alpha, scale, input_scale)

    def backward(self, grad, a):
        return _elu_grad(grad, a, self.alpha, self.scale, self.input_scale)


class EluBackward1(EluBackward0):
    """out = elu_(self, alpha, scale, input_scale): in place, so the input is gone; the result is saved

    self: elu_backward(grad, alpha, scale, input_scale, True, result)
    """
    saved = ("result",)

    def backward(self, grad, result):
        return _elu_grad_from_result(grad, result, self.alpha, self.scale, self.input_scale)


def _sigmoid(x):
    """1 / (1 + exp(-x)) in x's dtype, as PyTorch's silu kernels compute it."""
    t = x.dtype.type
    with np.errstate(over="ignore"):
        return t(1) / (t(1) + kernels.exp(-x))


class SiluBackward0(OpNode):
    """out = silu(self)   (self * sigmoid(self), also called swish)

    self: infinitely_differentiable_silu_backward(grad, self)
    """
    saved = ("self",)

    @quiet
    def forward(self, a):
        t = a.dtype.type
        with np.errstate(over="ignore"):
            return a / (t(1) + kernels.exp(-a))

    @quiet
    def backward(self, grad, a):
        t = a.dtype.type
        s = _sigmoid(a)
        return grad * s * (t(1) + a * (t(1) - s))


class HardtanhBackward0(OpNode):
    """out = hardtanh(self, min_val, max_val)   (self clamped to [min_val, max_val]; relu6 is hardtanh(self, 0, 6))

    self: hardtanh_backward(grad, self, min_val, max_val)

    The gradient passes strictly inside (min_val, max_val): 0 at the corners,
    where clamp's gradient would pass.
    """
    saved = ("self",)
    attrs = ("min_val", "max_val")

    def forward(self, a, min_val=-1.0, max_val=1.0):
        self.min_val, self.max_val = min_val, max_val
        return np.clip(a, min_val, max_val).astype(a.dtype, copy=False)

    def backward(self, grad, a):
        return np.where(_outside(a, self.min_val, self.max_val), np.zeros((), grad.dtype), grad)


def _outside(a, min_val, max_val):
    """Where hardtanh's gradient is 0: at or beyond a bound. Written as ATen
    writes it, so a NaN is inside and its gradient passes."""
    return (a <= min_val) | (a >= max_val)


def _hardsigmoid_grad(grad, x):
    """grad * (1 / 6) inside (-3, 3): PyTorch's kernel's 1 / 6 is a float32
    constant (1.0f / 6.0f), also for float64 tensors (0.1666666716337204)."""
    t = grad.dtype.type
    return np.where((x > -3) & (x < 3), grad * t(_ONE_SIXTH), t(0))


_ONE_SIXTH = np.float32(1) / np.float32(6)


class HardsigmoidBackward0(OpNode):
    """out = hardsigmoid(self)   (0 below -3, 1 above 3, self / 6 + 1 / 2 between)

    self: hardsigmoid_backward(grad, self)
    """
    saved = ("self",)

    @quiet
    def forward(self, a):
        t = a.dtype.type
        return np.clip(a + t(3), 0, 6).astype(a.dtype, copy=False) / t(6)    # PyTorch's order: min(max(x + 3, 0), 6) / 6

    def backward(self, grad, a):
        return _hardsigmoid_grad(grad, a)


# -- the functions the rules call (PyTorch's, built from ops) ----------------------

def softplus_backward(grad, self, beta, threshold):
    """grad * sigmoid(beta * self), or grad where beta * self > threshold: one op."""
    return SoftplusBackwardBackward0.apply(grad, self, beta, threshold)


def softplus_double_backward(grad, input, beta, threshold):
    """PyTorch's (FunctionsManual.cpp): sigmoid_backward(grad, sigmoid(beta * input)) * beta
    below the threshold, 0 from it on (note: x < threshold, where the forward switches at x > threshold)."""
    x = input * beta
    s = x.sigmoid()
    return where(x < threshold, grad * (1 - s) * s * beta, 0.0)


def elu_backward(grad, alpha, scale, input_scale, is_result, self_or_result):
    """d elu: scale above 0; from 0 down, input_scale * alpha * scale * exp(input_scale * x),
    which from the result is input_scale * (result + alpha * scale): one op."""
    return EluBackwardBackward0.apply(grad, self_or_result, alpha, scale, input_scale, is_result)


def elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result):
    """PyTorch's (FunctionsManual.cpp): the derivative of elu_backward in x, masked with
    x < 0 (so at 0 nothing flows, though elu_backward takes its negative branch there)."""
    if is_result:
        return where(self_or_result < 0, grad * grad_output * input_scale, 0.0)
    inner = elu_backward(grad * grad_output * input_scale, alpha, scale, input_scale, is_result, self_or_result)
    return where(self_or_result < 0, inner, 0.0)


class SoftplusBackwardBackward0(OpNode):
    """out = softplus_backward(grad_output, self, beta, threshold)   (grad_output * softplus'(self))

    grad_output: softplus_backward(grad, self, beta, threshold)
    self: softplus_double_backward(grad * grad_output, self, beta, threshold)

    SoftplusBackward0's backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "self")
    elementwise = True
    saved = ("grad_output", "self")
    attrs = ("beta", "threshold")

    def forward(self, g, a, beta, threshold):
        self.beta, self.threshold = beta, threshold
        return _softplus_grad(g, a, beta, threshold)

    def backward(self, grad, g, a):
        t = a.dtype.type
        x = a * t(self.beta)
        s = _sigmoid(x)
        second = np.where(x < self.threshold, grad * g * (t(1) - s) * s * t(self.beta), t(0))
        return _softplus_grad(grad, a, self.beta, self.threshold), second


class EluBackwardBackward0(OpNode):
    """out = elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result)   (grad_output * elu')

    grad_output: elu_backward(grad, alpha, scale, input_scale, is_result, self_or_result)
    self_or_result: elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result)

    EluBackward0's (and EluBackward1's) backward as an op (recorded with create_graph=True).
    """
    inputs = ("grad_output", "self_or_result")
    elementwise = True
    saved = ("grad_output", "self_or_result")
    attrs = ("alpha", "scale", "input_scale", "is_result")

    def forward(self, g, x, alpha, scale, input_scale, is_result):
        self.alpha, self.scale, self.input_scale, self.is_result = alpha, scale, input_scale, is_result
        return self._elu_grad(g, x)

    def _elu_grad(self, g, x):
        grad_of = _elu_grad_from_result if self.is_result else _elu_grad
        return grad_of(g, x, self.alpha, self.scale, self.input_scale)

    def backward(self, grad, g, x):
        t = x.dtype.type
        gg = grad * g * t(self.input_scale)
        second = gg if self.is_result else self._elu_grad(gg, x)
        return self._elu_grad(grad, x), np.where(x < 0, second, t(0))


def infinitely_differentiable_silu_backward(grad, self):
    """grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))."""
    s = self.sigmoid()
    # C++'s 1.0 - sigmoid fills a tensor with 1 and subtracts (SubBackward0);
    # 1.0 + t is add(Tensor, Scalar) (AddBackward1): the nodes PyTorch records
    # (and its compiler builds the right factor first, so those nodes are older: they run later)
    right = AddBackward1.apply(self * (full_like(s, 1.0) - s), 1.0)
    return (grad * s) * right


def full_like(t, value):
    """A tensor of t's shape and dtype filled with value (no graph)."""
    return t._wrap(np.full_like(t._data, value))


def hardtanh_backward(grad, self, min_val, max_val):
    """grad where min_val < self < max_val, else 0: one op (HardtanhBackwardBackward0)."""
    return HardtanhBackwardBackward0.apply(grad, self, min_val, max_val)


def hardsigmoid_backward(grad, self):
    """grad / 6 where -3 < self < 3, else 0: one op, with no derivative in PyTorch."""
    return HardsigmoidBackwardNoDerivative.apply(grad, self)


class HardtanhBackwardBackward0(OpNode):
    """out = hardtanh_backward(grad_output, self, min_val, max_val)   (grad_output where min_val < self < max_val, else 0)

    grad_output: hardtanh_backward(grad, self, min_val, max_val)
    self: zeros_like(grad)

    HardtanhBackward0's backward as an op (recorded with create_graph=True); flat in self.
    """
    inputs = ("grad_output", "self")
    elementwise = True
    saved = ("self",)
    attrs = ("min_val", "max_val")

    def forward(self, g, a, min_val, max_val):
        self.min_val, self.max_val = min_val, max_val
        return np.where(_outside(a, min_val, max_val), np.zeros((), g.dtype), g)

    def backward(self, grad, a):
        return np.where(_outside(a, self.min_val, self.max_val), np.zeros((), grad.dtype), grad), np.zeros_like(grad)


class HardsigmoidBackwardNoDerivative(NoDerivative):
    """out = hardsigmoid_backward(grad_output, self)   (grad_output / 6 where -3 < self < 3, else 0)

    grad_output: not_implemented("hardsigmoid_backward")
    self: not_implemented("hardsigmoid_backward")

    HardsigmoidBackward0's backward, recorded with create_graph=True: PyTorch
    gives it no derivative, so its node prints as <NotImplemented>.
    """
    inputs = ("grad_output", "self")
    _op = "hardsigmoid_backward"

    def forward(self, g, a):
        return _hardsigmoid_grad(g, a)


HardsigmoidBackwardNoDerivative.__name__ = "NotImplemented"
