"""+ - * / ** and negation, with all their overloads. Each class is one
PyTorch node: the forward on numpy arrays and, beside it, the local
derivative. Broadcasting is undone by the base class, so `backward` may
return gradients of the output's shape.

The second half of the file is the number overloads (AddBackward1,
MulBackward1, ...) that PyTorch's C++ derivative formulas record.
"""
import operator

import numpy as np

from ... import kernels
from ...compat import dtypes
from ..node import NUMBERS, OpNode, quiet
from ...kernels.degenerate import atan2_recip
from .selection import full_like, where, zeros_like  # noqa: F401  (the rules call them)


class AddBackward0(OpNode):
    """out = self + alpha * other

    self: grad
    other: maybe_multiply(grad, alpha)
    """
    inputs = ("self", "other")
    elementwise = True
    attrs = ("alpha",)
    alpha = 1     # x + y: the fast path (ops/fast_paths.py) leaves it to this default

    def forward(self, a, b, alpha=1):
        self.alpha = alpha
        return a + b if alpha == 1 else kernels.add_scaled(a, alpha, b)

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
    alpha = 1     # x - y: the fast path (ops/fast_paths.py) leaves it to this default

    def forward(self, a, b, alpha=1):
        self.alpha = alpha
        return a - b if alpha == 1 else kernels.add_scaled(a, -alpha, b)

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
        return kernels.add_scaled(other, -alpha, a)

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
        # b was saved only if self needs a gradient, a only if other does (needed_for)
        return (None if b is None else grad * b), (None if a is None else grad * a)


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
        return kernels.pow_tensor_scalar(a, exponent)

    @quiet
    def backward(self, grad, a):
        if self.exponent == 0:
            return np.zeros_like(grad)
        return grad * (self.exponent * kernels.pow_tensor_scalar(a, self.exponent - 1))


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
        return kernels.pow(a, b)

    @quiet
    def backward(self, grad, a, b, result):
        d_base = np.where(b == 0, 0.0, grad * (b * kernels.pow(a, b - 1)))
        # PyTorch masks the log term where self == 0 and exponent >= 0
        d_exp = grad * np.where((a == 0) & (b >= 0), 0.0, result * kernels.log(a))
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
        return kernels.pow_scalar(base, b)

    @quiet
    def backward(self, grad, result):
        if self.self == 0:   # PyTorch: 0 ** x has gradient 0 where it is finite (x >= 0)
            return np.where(np.isfinite(result), 0.0, grad * result * -np.inf)
        return grad * (result * result.dtype.type(np.log(self.self)))   # log(base) rounded to result's dtype


class Atan2Backward0(OpNode):
    """out = torch.atan2(self, other)   (the angle of the point (other, self))

    self: grad * other * atan2_recip(self, other)
    other: grad * -self * atan2_recip(self, other)
    """
    inputs = ("self", "other")
    saved = ("self", "other")
    to_float = True
    elementwise = True

    def forward(self, a, b):
        return kernels.atan2(a, b)

    @quiet
    def backward(self, grad, a, b):
        return grad * b * atan2_recip(a, b), grad * -a * atan2_recip(a, b)     # 0 at the origin


# -- the number overloads ------------------------------------------------------
#
# A number inside a derivative rule is a C++ Scalar, as in PyTorch's formulas.
#
# In Python, `t * 2` wraps 2 into a tensor and records MulBackward0, whose edge
# for the 2 is None. PyTorch's backward formulas (derivatives.yaml,
# FunctionsManual.cpp) are C++, where 2 is an at::Scalar: `t * 2` there calls
# the overload mul.Scalar and records MulBackward1, with one edge. A backward
# that builds a graph (create_graph=True) shows those nodes, so rules.evaluate
# reads a rule's + - * / the C++ way: between a tensor and a number it calls
# `binary` below; between two tensors, or two numbers, it is Python's operator.
# The rules themselves stay plain: `grad * (exponent * self.pow(exponent - 1))`.
#
#     tensor * number, number * tensor   mul.Scalar   MulBackward1
#     tensor / number                    div.Scalar   DivBackward1
#     tensor + number, number + tensor   add.Scalar   AddBackward1
#     tensor - number                    sub.Scalar   SubBackward1
#     number - tensor, number / tensor   C++ fills a new tensor with the number and
#                                        subtracts / divides in place: SubBackward0,
#                                        DivBackward0, whose edge for the number is None


class MulBackward1(OpNode):
    """out = self * other  (other a number, as PyTorch's C++ mul(Tensor, Scalar) records it)

    self: grad * other"""
    attrs = ("other",)
    promote_params = True

    @quiet
    def forward(self, a, other):
        self.other = other
        return a * other

    def backward(self, grad):
        return grad * self.other


class DivBackward1(OpNode):
    """out = self / other  (other a number, as PyTorch's C++ div(Tensor, Scalar) records it)

    self: grad / other"""
    attrs = ("other",)
    promote_params = True
    to_float = True

    @quiet
    def forward(self, a, other):
        self.other = other
        return a / other

    @quiet
    def backward(self, grad):
        return grad / self.other


class AddBackward1(OpNode):
    """out = self + other  (other a number, as PyTorch's C++ add(Tensor, Scalar) records it)

    self: grad"""
    attrs = ("other",)
    promote_params = True

    @quiet
    def forward(self, a, other):
        self.other = other
        return a + other

    def backward(self, grad):
        return grad


class SubBackward1(OpNode):
    """out = self - other  (other a number, as PyTorch's C++ sub(Tensor, Scalar) records it)

    self: grad"""
    attrs = ("other",)
    promote_params = True

    @quiet
    def forward(self, a, other):
        self.other = other
        return a - other

    def backward(self, grad):
        return grad


_PYTHON = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def binary(op, a, b):
    """a <op> b as a C++ formula computes it (op is one of + - * /)."""
    if type(b) in NUMBERS and type(a) not in NUMBERS and hasattr(a, "grad_fn"):
        return {"+": AddBackward1, "-": SubBackward1, "*": MulBackward1, "/": DivBackward1}[op].apply(a, b)
    if type(a) in NUMBERS and type(b) not in NUMBERS and hasattr(b, "grad_fn"):
        if op in "+*":                                  # C++: b.add(a), b.mul(a)
            return binary(op, b, a)
        filled = full_like(b, a)                        # C++: empty_like(b).fill_(a).sub_(b)
        if filled.dtype is not dtypes.result_type(b, a):    # 0.5 - an int tensor: the float it promotes to
            filled = full_like(b.to(dtypes.result_type(b, a)).detach(), a)
        return (SubBackward0 if op == "-" else DivBackward0).apply(filled, b)
    return _PYTHON[op](a, b)


def maybe_multiply(t, s):
    """t * s, or t itself when s is 1 (FunctionsManual.cpp): s is a C++ Scalar, so t * s is MulBackward1."""
    return t if s == 1 else MulBackward1.apply(t, s)
