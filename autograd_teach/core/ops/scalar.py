"""A number inside a derivative rule is a C++ Scalar, as in PyTorch's formulas.

In Python, `t * 2` wraps 2 into a tensor and records MulBackward0, whose edge
for the 2 is None. PyTorch's backward formulas (derivatives.yaml,
FunctionsManual.cpp) are C++, where 2 is an at::Scalar: `t * 2` there calls
the overload mul.Scalar and records MulBackward1, with one edge. A backward
that builds a graph (create_graph=True) shows those nodes, so rules.evaluate
reads a rule's + - * / the C++ way: between a tensor and a number it calls
`binary` below; between two tensors, or two numbers, it is Python's operator.
The rules themselves stay plain: `grad * (exponent * self.pow(exponent - 1))`.

    tensor * number, number * tensor   mul.Scalar   MulBackward1
    tensor / number                    div.Scalar   DivBackward1
    tensor + number, number + tensor   add.Scalar   AddBackward1
    tensor - number                    sub.Scalar   SubBackward1
    number - tensor, number / tensor   C++ fills a new tensor with the number and
                                       subtracts / divides in place: SubBackward0,
                                       DivBackward0, whose edge for the number is None
"""
import operator

from ...compat import dtypes
from ..node import NUMBERS, OpNode, quiet
from .arithmetic import DivBackward0, SubBackward0
from ...ops.nn_ops import DivBackward1, MulBackward1
from .selection import full_like


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

