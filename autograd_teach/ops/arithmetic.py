"""+ - * / ** and negation. Each class is one PyTorch node: the forward on
numpy arrays and, beside it, the local derivative. Broadcasting is undone by
the base class, so `backward` may return gradients of the output's shape."""
import numpy as np

from ..function import Function, quiet
from .float32 import add_scaled, log, power, via_float64


class AddBackward0(Function):
    """out = self + alpha * other"""
    inputs = ("self", "other")
    elementwise = True
    attrs = ("alpha",)

    def forward(self, a, b, alpha=1):
        self.alpha = alpha
        return a + b if alpha == 1 else add_scaled(a, alpha, b)

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


class SubBackward0(Function):
    """out = self - alpha * other"""
    inputs = ("self", "other")
    elementwise = True
    attrs = ("alpha",)

    def forward(self, a, b, alpha=1):
        self.alpha = alpha
        return a - b if alpha == 1 else add_scaled(a, -alpha, b)

    def backward(self, grad):
        return grad, -grad * self.alpha


class RsubBackward1(Function):
    """out = other - alpha * self, for `2 - x` (other is a Python number)"""
    promote_params = True
    attrs = ("alpha",)

    def forward(self, a, other, alpha=1):
        self.alpha = alpha
        return add_scaled(other, -alpha, a)

    def backward(self, grad):
        return -grad * self.alpha


class MulBackward0(Function):
    """out = self * other;  d/dself = other, d/dother = self"""
    inputs = ("self", "other")
    elementwise = True
    saved = ("self", "other")
    save_if = {"self": 1, "other": 0}   # self is needed only for other's gradient

    def forward(self, a, b):
        return a * b

    def backward(self, grad, a, b):
        need_a, need_b = self.needs_input_grad
        return (grad * b if need_a else None), (grad * a if need_b else None)


class DivBackward0(Function):
    """out = self / other;  d/dself = 1/other, d/dother = -self/other**2"""
    inputs = ("self", "other")
    elementwise = True
    saved = ("self", "other")
    save_if = {"self": 1}
    to_float = True

    @quiet
    def forward(self, a, b):
        return a / b

    @quiet
    def backward(self, grad, a, b):
        need_a, need_b = self.needs_input_grad
        return (grad / b if need_a else None), (-grad * ((a / b) / b) if need_b else None)


class ReciprocalBackward0(Function):
    """out = 1 / self;  d/dself = -out**2  (`2 / x` is 2 * reciprocal(x) in PyTorch)"""
    saved = ("result",)
    to_float = True

    @quiet
    def forward(self, a):
        return 1 / a

    @quiet
    def backward(self, grad, result):
        return -grad * (result * result)


class NegBackward0(Function):
    def forward(self, a):
        return -a

    def backward(self, grad):
        return -grad


class PowBackward0(Function):
    """out = self ** exponent (a number);  d/dself = exponent * self**(exponent-1)"""
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


class PowBackward1(Function):
    """out = self ** exponent (both tensors)"""
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


class PowBackward2(Function):
    """out = self ** exponent where self is a number: `2 ** x`"""
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
