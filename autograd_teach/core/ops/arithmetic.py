"""+ - * / ** and negation. Each class is one PyTorch node: the forward on
numpy arrays and, beside it, the local derivative. Broadcasting is undone by
the base class, so `backward` may return gradients of the output's shape."""
import numpy as np

from ..node import OpNode, quiet
from ...kernels.float32 import add_scaled, log, power, via_float64
from ...ops.nn_ops import maybe_multiply  # noqa: F401  (the rules call it: grad * alpha, or grad itself when alpha is 1)
from .selection import full_like, where, zeros_like  # noqa: F401  (the rules call them)


class AddBackward0(OpNode):
    """out = self + alpha * other

    self: grad
    other: maybe_multiply(grad, alpha)
    """
    inputs = ("self", "other")
    elementwise = True
    attrs = ("alpha",)

    def forward(self, a, b, alpha=1):
        self.alpha = alpha
        return a + b if alpha == 1 else add_scaled(a, alpha, b)

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


class SubBackward0(OpNode):
    """out = self - alpha * other

    self: grad
    other: maybe_multiply(-grad, alpha)
    """
    inputs = ("self", "other")
    elementwise = True
    attrs = ("alpha",)

    def forward(self, a, b, alpha=1):
        self.alpha = alpha
        return a - b if alpha == 1 else add_scaled(a, -alpha, b)

    def backward(self, grad):
        return grad, -grad * self.alpha


class RsubBackward1(OpNode):
    """out = other - alpha * self   (`2 - x`: other is a Python number)

    self: maybe_multiply(-grad, alpha)
    """
    promote_params = True
    attrs = ("alpha",)

    def forward(self, a, other, alpha=1):
        self.alpha = alpha
        return add_scaled(other, -alpha, a)

    def backward(self, grad):
        return -grad * self.alpha


class MulBackward0(OpNode):
    """out = self * other

    self: grad * other
    other: grad * self
    """
    inputs = ("self", "other")
    elementwise = True
    saved = ("self", "other")
    needed_for = {"self": "other", "other": "self"}   # self is needed only for other's gradient

    def forward(self, a, b):
        return a * b

    def backward(self, grad, a, b):
        need_a, need_b = self.needs_input_grad
        return (grad * b if need_a else None), (grad * a if need_b else None)


class DivBackward0(OpNode):
    """out = self / other

    self: grad / other
    other: -grad * ((self / other) / other)
    """
    inputs = ("self", "other")
    elementwise = True
    saved = ("self", "other")
    needed_for = {"self": "other"}
    to_float = True

    @quiet
    def forward(self, a, b):
        return a / b

    @quiet
    def backward(self, grad, a, b):
        need_a, need_b = self.needs_input_grad
        return (grad / b if need_a else None), (-grad * ((a / b) / b) if need_b else None)


class ReciprocalBackward0(OpNode):
    """out = 1 / self   (`2 / x` is recorded as 2 * reciprocal(x), as in PyTorch)

    self: -grad * (result * result)
    """
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return 1 / a

    @quiet
    def backward(self, grad, result):
        return -grad * (result * result)


class NegBackward0(OpNode):
    """out = -self

    self: grad.neg()
    """
    def forward(self, a):
        return -a

    def backward(self, grad):
        return -grad


class PowBackward0(OpNode):
    """out = self ** exponent   (exponent is a number)

    self: grad * (exponent * self.pow(exponent - 1)) if exponent != 0 else zeros_like(self)

    x ** 0 is 1 everywhere, so its gradient is 0, also at x = 0 where x ** -1 is inf
    (PyTorch: pow_backward(grad, self, exponent)).
    """
    saved = ("self",)
    attrs = ("exponent",)
    promote_params = True

    @quiet
    def forward(self, a, exponent):
        if a.dtype.kind in "iu" and isinstance(exponent, int) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        self.exponent = exponent
        return power(a, exponent)

    @quiet
    def backward(self, grad, a):
        if self.exponent == 0:
            return np.zeros_like(grad)
        return grad * (self.exponent * power(a, self.exponent - 1))


class PowBackward1(OpNode):
    """out = self ** exponent   (both tensors)

    self: where(exponent == 0, 0.0, grad * (exponent * self.pow(exponent - 1)))
    exponent: grad * where((self == 0) & (exponent >= 0), 0.0, result * self.log())

    PyTorch masks the places where the plain formula would give 0 * inf = nan
    (pow_backward_self and pow_backward_exponent in derivatives.yaml).
    """
    inputs = ("self", "exponent")
    elementwise = True
    saved = ("self", "exponent", "result")

    @quiet
    def forward(self, a, b):
        return via_float64(np.power, a, b)

    @quiet
    def backward(self, grad, a, b, result):
        d_base = np.where(b == 0, 0.0, grad * (b * via_float64(np.power, a, b - 1)))
        # PyTorch masks the log term where self == 0 and exponent >= 0
        d_exp = grad * np.where((a == 0) & (b >= 0), 0.0, result * log(a))
        return d_base, d_exp


class PowBackward2(OpNode):
    """out = self ** exponent   (self is a number: `2 ** x`)

    exponent: grad * (result * math.log(self)) if self != 0 else grad * where(result.isfinite(), 0.0, result * -math.inf)

    d/dx b ** x = b ** x * log(b). For b = 0 (log 0 = -inf), PyTorch makes it 0
    where 0 ** x is finite, that is where x >= 0 (pow_backward_exponent in
    FunctionsManual.cpp).
    """
    inputs = ("exponent",)
    saved = ("result",)
    attrs = ("self",)
    promote_params = True

    @quiet
    def forward(self, b, base):
        self.self = base
        return via_float64(lambda e: np.power(base, e), b)

    @quiet
    def backward(self, grad, result):
        if self.self == 0:   # PyTorch: 0 ** x has gradient 0 where it is finite (x >= 0)
            return np.where(np.isfinite(result), 0.0, grad * result * -np.inf)
        return grad * (result * result.dtype.type(np.log(self.self)))   # log(base) rounded to result's dtype


class Atan2Backward0(OpNode):
    """out = torch.atan2(self, other)   (the angle of the point (other, self))

    self: grad * other / (self * self + other * other)
    other: grad * -self / (self * self + other * other)
    """
    inputs = ("self", "other")
    saved = ("self", "other")
    to_float = True
    elementwise = True

    def forward(self, a, b):
        return via_float64(np.arctan2, a, b)

    @quiet
    def backward(self, grad, a, b):
        denom = a * a + b * b
        return grad * b / denom, grad * -a / denom
