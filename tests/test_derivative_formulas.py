"""Every op's derivative rule, as its docstring states it, gives the gradient
the engine computes.

For each op class (found in autograd_teach/ops, not listed by hand) there are
cases: small random float64 inputs, broadcasting where the op broadcasts. Each
case runs forward and backward (with a random upstream gradient) while an
engine observer records what each node received and sent. Then the rule from
the docstring is evaluated on the same node with the same incoming gradient,
summed back to the input's shape as the engine does, and compared with the
gradient the engine sent along that edge.
"""
import importlib
import inspect
import pkgutil
import re

import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.nn.functional as F
from autograd_teach import ops
from autograd_teach.core import engine, rules
from autograd_teach.core import ops as core_ops
from autograd_teach.ops import formulas

# Every rule is evaluable: the API the rules use exists (torch.where, gather,
# scatter, ...) or is a function of the op's module, as PyTorch's FunctionsManual.
# Ops with no rule at all: not in derivatives.yaml.
NO_RULE = {
    "CopySlices": "PyTorch builds it in C++ (x[i] = v, in-place ops on views); it replays a chain of view ops",
    # several outputs: the rule reads one gradient per output, which the rule evaluator does not take
    # (core/ops/multi_output.py; gradcheck and gradgradcheck check them, and tests/test_multi_output.py)
    "UnbindBackward0": "several outputs", "SplitBackward0": "several outputs",
    "SplitWithSizesBackward0": "several outputs", "UnsafeSplitBackward0": "several outputs",
}
# Ops PyTorch gives no derivative (their rule is not_implemented(...)): backward
# through them raises, and so does their rule, with PyTorch's message.
NOT_DIFFERENTIABLE = {"FloorDivide": "floor_divide", "FloorDivideScalar": "floor_divide",
                      "RemainderScalarSelf": "remainder",
                      "HardsigmoidBackwardNoDerivative": "hardsigmoid_backward"}


def op_classes():
    """Every op class in autograd_teach/core/ops and autograd_teach/ops: classes with forward and backward."""
    found = {}
    for package in (core_ops, ops):
        found.update(op_classes_in(package))
    return found


def op_classes_in(package):
    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, cls in vars(module).items():
            if (inspect.isclass(cls) and cls.__module__ == module.__name__ and not name.startswith("_")
                    and callable(getattr(cls, "forward", None)) and callable(getattr(cls, "backward", None))):
                found[name] = cls
    return found


# -- the cases ----------------------------------------------------------------
def t(*shape, low=None, high=None, rng):
    """A float64 leaf that requires grad; uniform in [low, high) if given, else normal."""
    data = rng.standard_normal(shape) if low is None else rng.uniform(low, high, shape)
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def modified(op):
    """A case for an in-place op inside a graph: x * 1 (a non-leaf), then op on it."""
    def build(x):
        y = x * 1
        op(y)
        return y
    return build


def modified_view(x):
    """A view of a non-leaf written in place: re-derived from its new base."""
    y = x * 1
    v = y.t()
    v.mul_(2)
    return v


def with_ties():
    data = np.array([[1.0, 3.0, 3.0], [-2.0, -2.0, 0.5]])
    return [torch.tensor(data, requires_grad=True)]


# {op class name: [(id, make inputs(rng), f(*inputs) -> output)]}
CASES = {
    "AddBackward0": [("same", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, y: x + y),
                     ("alpha", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, y: x.add(y, alpha=2.5)),
                     ("broadcast", lambda r: [t(2, 1, 3, rng=r), t(4, 1, rng=r)], lambda x, y: x + y),
                     ("0-d", lambda r: [t(rng=r), t(3, rng=r)], lambda x, y: x + y),
                     ("number", lambda r: [t(3, rng=r)], lambda x: x + 2)],
    "SubBackward0": [("alpha", lambda r: [t(2, 3, rng=r), t(3, rng=r)], lambda x, y: x.sub(y, alpha=-1.5)),
                     ("broadcast", lambda r: [t(1, 3, rng=r), t(2, 1, rng=r)], lambda x, y: x - y)],
    "RsubBackward1": [("number", lambda r: [t(2, 3, rng=r)], lambda x: 2.5 - x)],
    "MulBackward0": [("same", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, y: x * y),
                     ("broadcast", lambda r: [t(2, 1, 3, rng=r), t(4, 1, rng=r)], lambda x, y: x * y),
                     ("number", lambda r: [t(3, rng=r)], lambda x: 3 * x),
                     ("shared", lambda r: [t(3, rng=r)], lambda x: x * x),
                     ("float32 * float64", lambda r: [t(2, 3, rng=r).float().detach().requires_grad_(),
                                                      t(3, rng=r)], lambda x, y: x * y)],
    "DivBackward0": [("broadcast", lambda r: [t(2, 3, rng=r), t(3, low=0.5, high=2, rng=r)], lambda x, y: x / y),
                     ("number", lambda r: [t(3, rng=r)], lambda x: x / 4)],
    "ReciprocalBackward0": [("method", lambda r: [t(2, 3, low=0.5, high=2, rng=r)], lambda x: x.reciprocal()),
                            ("number over x", lambda r: [t(3, low=0.5, high=2, rng=r)], lambda x: 2 / x)],
    "NegBackward0": [("neg", lambda r: [t(2, 3, rng=r)], lambda x: -x)],
    "PowBackward0": [("square", lambda r: [t(2, 3, rng=r)], lambda x: x ** 2),
                     ("fractional", lambda r: [t(4, low=0.5, high=2, rng=r)], lambda x: x ** 2.5),
                     ("negative", lambda r: [t(4, low=0.5, high=2, rng=r)], lambda x: x ** -1),
                     ("zero, at zero", lambda r: [torch.tensor([0.0, 1.5], dtype=torch.float64,
                                                               requires_grad=True)], lambda x: x ** 0)],
    "PowBackward1": [("tensors", lambda r: [t(3, low=0.5, high=2, rng=r), t(3, rng=r)], lambda x, y: x ** y)],
    "PowBackward2": [("number base", lambda r: [t(3, rng=r)], lambda x: 2 ** x)],
    "DotBackward0": [("dot", lambda r: [t(4, rng=r), t(4, rng=r)], lambda x, y: torch.dot(x, y))],
    "MvBackward0": [("mv", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda m, v: m.mv(v)),
                    ("matmul", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda m, v: m @ v)],
    "MmBackward0": [("mm", lambda r: [t(2, 3, rng=r), t(3, 4, rng=r)], lambda a, b: a.mm(b))],
    "BmmBackward0": [("batched", lambda r: [t(2, 3, 4, rng=r), t(2, 4, 5, rng=r)], lambda a, b: a @ b),
                     ("broadcast batch", lambda r: [t(2, 1, 3, 4, rng=r), t(5, 4, 2, rng=r)], lambda a, b: a @ b)],
    "MseLossBackward0": [(red, lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
                          (lambda red: lambda x, y: F.mse_loss(x, y, reduction=red))(red))
                         for red in ("mean", "sum", "none")],
    "MseLossBackwardBackward0": [(red, lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
                                  (lambda red: lambda x, y: _mse_backward(x, y, red))(red))
                                 for red in ("mean", "sum", "none")],
    "BinaryCrossEntropyWithLogitsBackward0": [
        (red, lambda r: [t(2, 3, rng=r), t(2, 3, low=0, high=1, rng=r)],
         (lambda red: lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction=red))(red))
        for red in ("mean", "sum", "none")],
    "ExpBackward0": [("exp", lambda r: [t(2, 3, rng=r)], lambda x: x.exp())],
    "LogBackward0": [("log", lambda r: [t(2, 3, low=0.5, high=2, rng=r)], lambda x: x.log())],
    "SqrtBackward0": [("sqrt", lambda r: [t(2, 3, low=0.5, high=2, rng=r)], lambda x: x.sqrt())],
    "AbsBackward0": [("abs, with a zero", lambda r: [torch.tensor([-1.5, 0.0, 2.0], dtype=torch.float64,
                                                                  requires_grad=True)], lambda x: x.abs())],
    "SgnBackward0": [("sgn", lambda r: [t(2, 3, rng=r)], lambda x: x.sgn())],
    "SinBackward0": [("sin", lambda r: [t(2, 3, rng=r)], lambda x: x.sin())],
    "DiagonalBackward0": [("offset", lambda r: [t(3, 4, rng=r)], lambda x: x.diagonal(-1))],
    "DiagonalBackward0_copy": [("diag", lambda r: [t(3, 4, rng=r)], lambda x: x.diag(1))],
    "DiagonalBackwardBackward0": [("twice", lambda r: [t(3, 4, rng=r)],
                                   lambda x: torch.autograd.grad((x.diagonal() ** 2).sum(), x, create_graph=True)[0])],
    "DiagEmbedBackward0": [("vector", lambda r: [t(3, rng=r)], lambda x: x.diag(1))],
    "TraceBackward0": [("trace", lambda r: [t(3, 4, rng=r)], lambda x: x.trace())],
    "MedianBackward0": [("all", lambda r: [t(3, 3, rng=r)], lambda x: x.median()),
                        ("ties", lambda r: with_ties(), lambda x: x.median())],
    "MedianBackward1": [("dim", lambda r: [t(3, 4, rng=r)], lambda x: x.median(1).values)],
    "KthvalueBackward0": [("keepdim", lambda r: [t(3, 4, rng=r)], lambda x: x.kthvalue(2, 0, keepdim=True).values)],
    "MaskedSelectBackward0": [("broadcast", lambda r: [t(3, rng=r)],
                               lambda x: x.masked_select(torch.tensor([[True, False, True], [False, True, True]])))],
    "IndexAddBackward0": [("repeated", lambda r: [t(3, 2, rng=r), t(3, 2, rng=r)],
                           lambda x, s: x.index_add(0, torch.tensor([2, 0, 2]), s, alpha=1.5))],
    "CumprodBackward0": [("zeros", lambda r: [t(2, 4, rng=r)],
                          lambda x: (x * torch.tensor([1.0, 0.0, 1.0, 0.0], dtype=torch.float64)).cumprod(1))],
    "Atan2Backward0": [("broadcast", lambda r: [t(2, 3, rng=r), t(3, rng=r)], lambda x, y: torch.atan2(x, y))],
    "AmaxBackward0": [("dim", lambda r: [t(2, 3, rng=r)], lambda x: x.amax(1)),
                      ("ties", lambda r: with_ties(), lambda x: x.amax(1, keepdim=True))],
    "AminBackward0": [("all", lambda r: [t(2, 3, rng=r)], lambda x: x.amin()),
                      ("ties", lambda r: with_ties(), lambda x: x.amin(0))],
    "LogsumexpBackward0": [("dim", lambda r: [t(2, 3, rng=r)], lambda x: x.logsumexp(1)),
                           ("keepdim", lambda r: [t(2, 3, rng=r)], lambda x: x.logsumexp((0, 1), keepdim=True))],
    "NansumBackward0": [("dim", lambda r: [t(2, 3, rng=r)], lambda x: x.nansum(0))],
    "FlipBackward0": [("dims", lambda r: [t(2, 3, rng=r)], lambda x: x.flip(0, 1))],
    "RollBackward0": [("flat", lambda r: [t(2, 3, rng=r)], lambda x: x.roll(2)),
                      ("dims", lambda r: [t(2, 3, rng=r)], lambda x: x.roll((1, -1), (0, 1)))],
    "RepeatBackward0": [("new dim", lambda r: [t(2, 3, rng=r)], lambda x: x.repeat(2, 1, 3)),
                        ("zero", lambda r: [t(2, 3, rng=r)], lambda x: x.repeat(0, 1))],
    "TrilBackward0": [("tril", lambda r: [t(3, 3, rng=r)], lambda x: x.tril(-1))],
    "TriuBackward0": [("triu", lambda r: [t(3, 3, rng=r)], lambda x: x.triu(1))],
    "IndexSelectBackward0": [("repeated", lambda r: [t(2, 3, rng=r)],
                              lambda x: x.index_select(1, torch.tensor([0, 2, 0])))],
    "SortBackward0": [("sort", lambda r: [t(2, 3, rng=r)], lambda x: x.sort(1, descending=True).values)],
    "TopkBackward0": [("topk", lambda r: [t(2, 3, rng=r)], lambda x: x.topk(2, 0, largest=False).values)],
    "Log1PBackward0": [("log1p", lambda r: [t(2, 3, low=0.1, high=2, rng=r)], lambda x: x.log1p())],
    "Expm1Backward0": [("expm1", lambda r: [t(2, 3, rng=r)], lambda x: x.expm1())],
    "RsqrtBackward0": [("rsqrt", lambda r: [t(2, 3, low=0.5, high=2, rng=r)], lambda x: x.rsqrt())],
    "SignBackward0": [("sign", lambda r: [t(2, 3, rng=r)], lambda x: x.sign())],
    "TanBackward0": [("tan", lambda r: [t(2, 3, low=-1.2, high=1.2, rng=r)], lambda x: x.tan())],
    "Log2Backward0": [("log2", lambda r: [t(2, 3, low=0.5, high=2, rng=r)], lambda x: x.log2())],
    "Log10Backward0": [("log10", lambda r: [t(2, 3, low=0.5, high=2, rng=r)], lambda x: x.log10())],
    "Exp2Backward0": [("exp2", lambda r: [t(2, 3, rng=r)], lambda x: x.exp2())],
    "AsinBackward0": [("asin", lambda r: [t(2, 3, low=-0.9, high=0.9, rng=r)], lambda x: x.asin())],
    "AsinhBackward0": [("asinh", lambda r: [t(2, 3, rng=r)], lambda x: x.asinh()),
                       ("arcsinh", lambda r: [t(4, low=-9, high=9, rng=r)], lambda x: torch.arcsinh(x))],
    "AcoshBackward0": [("acosh", lambda r: [t(2, 3, low=1.1, high=4, rng=r)], lambda x: x.acosh())],
    "AtanhBackward0": [("atanh", lambda r: [t(2, 3, low=-0.9, high=0.9, rng=r)], lambda x: torch.atanh(x))],
    "AsinhBackward1": [("asinh_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.asinh_()))],
    "AcoshBackward1": [("acosh_", lambda r: [t(2, 3, low=1.1, high=4, rng=r)], modified(lambda y: y.acosh_()))],
    "AtanhBackward1": [("arctanh_", lambda r: [t(2, 3, low=-0.9, high=0.9, rng=r)], modified(lambda y: y.arctanh_()))],
    "AcosBackward0": [("acos", lambda r: [t(2, 3, low=-0.9, high=0.9, rng=r)], lambda x: x.acos())],
    "AtanBackward0": [("atan", lambda r: [t(2, 3, rng=r)], lambda x: x.atan())],
    "SinhBackward0": [("sinh", lambda r: [t(2, 3, rng=r)], lambda x: x.sinh())],
    "CoshBackward0": [("cosh", lambda r: [t(2, 3, rng=r)], lambda x: x.cosh())],
    "ErfBackward0": [("erf", lambda r: [t(2, 3, rng=r)], lambda x: x.erf())],
    "ErfinvBackward0": [("erfinv", lambda r: [t(2, 3, low=-0.95, high=0.95, rng=r)], lambda x: x.erfinv())],
    "LgammaBackward0": [("lgamma", lambda r: [t(2, 3, low=0.2, high=6, rng=r)], lambda x: x.lgamma()),
                        ("lgamma of negatives", lambda r: [t(4, low=-2.9, high=-2.1, rng=r)], lambda x: torch.lgamma(x))],
    "DigammaBackward0": [("digamma", lambda r: [t(2, 3, low=0.2, high=12, rng=r)], lambda x: torch.digamma(x)),
                         ("digamma of negatives", lambda r: [t(4, low=-1.8, high=-1.2, rng=r)], lambda x: x.digamma())],
    "PolygammaBackward0": [("trigamma", lambda r: [t(2, 3, low=0.2, high=12, rng=r)], lambda x: torch.polygamma(1, x)),
                           ("polygamma(3)", lambda r: [t(4, low=0.5, high=3, rng=r)], lambda x: x.polygamma(3)),
                           ("polygamma(2) of negatives", lambda r: [t(4, low=-1.8, high=-1.2, rng=r)],
                            lambda x: torch.polygamma(2, x))],
    "FloorBackward0": [("floor", lambda r: [t(2, 3, rng=r)], lambda x: x.floor())],
    "CeilBackward0": [("ceil", lambda r: [t(2, 3, rng=r)], lambda x: x.ceil())],
    "RoundBackward0": [("round", lambda r: [t(2, 3, rng=r)], lambda x: x.round())],
    "TruncBackward0": [("trunc", lambda r: [t(2, 3, rng=r)], lambda x: x.trunc())],
    "FracBackward0": [("frac", lambda r: [t(2, 3, rng=r)], lambda x: x.frac())],
    "CosBackward0": [("cos", lambda r: [t(2, 3, rng=r)], lambda x: x.cos())],
    "TanhBackward0": [("tanh", lambda r: [t(2, 3, rng=r)], lambda x: x.tanh())],
    "SigmoidBackward0": [("sigmoid", lambda r: [t(2, 3, rng=r)], lambda x: x.sigmoid())],
    "TanhBackwardBackward0": [("double backward of tanh", lambda r: [t(3, 4, rng=r)],
                               lambda g: _backward_of(lambda x: x.tanh(), g, (3, 4)))],
    "SigmoidBackwardBackward0": [("double backward of sigmoid", lambda r: [t(3, 4, rng=r)],
                                  lambda g: _backward_of(lambda x: x.sigmoid(), g, (3, 4)))],
    "ThresholdBackwardBackward0": [("double backward of relu", lambda r: [t(3, 4, rng=r)],
                                    lambda g: _backward_of(lambda x: x.relu(), g, (3, 4)))],
    "SoftmaxBackwardDataBackward0": [("double backward of softmax", lambda r: [t(3, 4, rng=r)],
                                      lambda g: _backward_of(lambda x: x.softmax(1), g, (3, 4)))],
    "LogSoftmaxBackwardDataBackward0": [("double backward of log_softmax", lambda r: [t(3, 4, rng=r)],
                                         lambda g: _backward_of(lambda x: x.log_softmax(1), g, (3, 4)))],
    "NllLossBackwardBackward0": [(red, lambda r: [t(rng=r)], (lambda red: lambda g: _backward_of(
        lambda x: F.nll_loss(x, torch.tensor([0, 2, 1, 2]), reduction=red), g, (4, 3)))(red))
        for red in ("mean", "sum")],
    "ReluBackward0": [("relu", lambda r: [t(2, 3, rng=r)], lambda x: x.relu())],
    "ClampBackward1": [("both", lambda r: [t(3, 4, rng=r)], lambda x: x.clamp(-0.5, 0.5)),
                       ("min", lambda r: [t(3, 4, rng=r)], lambda x: x.clamp(min=0.1)),
                       ("max", lambda r: [t(3, 4, rng=r)], lambda x: x.clamp(max=0.1))],
    "ZeroBackward0": [("zero_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.zero_()))],
    "FillBackward2": [("fill_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.fill_(2.0)))],
    "FillBackward3": [("fill_ with a 0-d tensor", lambda r: [t(2, 3, rng=r), t(rng=r)],
                       lambda x, v: (x * 1).fill_(v * 1))],
    "UniformBackward0": [("uniform_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.uniform_()))],
    "NormalBackward0": [("normal_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.normal_()))],
    "SumBackward0": [("all", lambda r: [t(2, 3, rng=r)], lambda x: x.sum())],
    "SumBackward1": [("dim", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.sum(1)),
                     ("dims keepdim", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.sum((0, 2), keepdim=True)),
                     ("negative dim", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.sum(-1))],
    "MeanBackward0": [("all", lambda r: [t(2, 3, rng=r)], lambda x: x.mean())],
    "MeanBackward1": [("dim", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.mean(1)),
                      ("dims", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.mean((0, 2))),
                      ("keepdim", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.mean(-1, keepdim=True))],
    "MaxBackward1": [("ties", lambda r: with_ties(), lambda x: x.max())],
    "MinBackward1": [("ties", lambda r: with_ties(), lambda x: x.min())],
    "MaxBackward0": [("dim", lambda r: [t(2, 3, rng=r)], lambda x: x.max(1).values)],
    "MinBackward0": [("dim", lambda r: [t(2, 3, rng=r)], lambda x: x.min(0).values)],
    "LinalgVectorNormBackward0": [("norm", lambda r: [t(2, 3, rng=r)], lambda x: x.norm())],
    "ViewBackward0": [("view", lambda r: [t(2, 3, rng=r)], lambda x: x.view(6)),
                      ("reshape", lambda r: [t(2, 3, rng=r)], lambda x: x.reshape(3, 2))],
    "AliasBackward0": [("x[...]", lambda r: [t(2, 3, rng=r)], lambda x: x[...])],
    "ReshapeAliasBackward0": [("non-contiguous", lambda r: [t(2, 3, 4, rng=r)],
                               lambda x: x.permute(1, 0, 2).reshape(3, 2, 2, 2))],
    "UnsafeViewBackward0": [("copy", lambda r: [t(2, 3, rng=r)], lambda x: x.t().reshape(6))],
    "AsStridedBackward0": [("view changed in place", lambda r: [t(2, 3, rng=r)], modified_view)],
    "TBackward0": [("t", lambda r: [t(2, 3, rng=r)], lambda x: x.t())],
    "PermuteBackward0": [("permute", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.permute(2, 0, 1))],
    "TransposeBackward0": [("transpose", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.transpose(0, 2))],
    "UnsqueezeBackward0": [("unsqueeze", lambda r: [t(2, 3, rng=r)], lambda x: x.unsqueeze(1))],
    "SqueezeBackward0": [("all", lambda r: [t(2, 1, 3, 1, rng=r)], lambda x: x.squeeze())],
    "SqueezeBackward1": [("dim", lambda r: [t(2, 1, 3, rng=r)], lambda x: x.squeeze(1))],
    # PyTorch records SqueezeBackward4 inside matmul of a 1-D and a 2-D tensor (x.squeeze(dims) is SqueezeBackward2)
    "SqueezeBackward4": [("vector @ matrix", lambda r: [t(3, rng=r), t(3, 4, rng=r)], lambda v, m: v @ m)],
    "ExpandBackward0": [("expand", lambda r: [t(1, 3, rng=r)], lambda x: x.expand(4, 3)),
                        ("new dims", lambda r: [t(3, rng=r)], lambda x: x.expand(2, 2, 3))],
    "SelectBackward0": [("select", lambda r: [t(3, 4, rng=r)], lambda x: x[1])],
    "SliceBackward0": [("slice", lambda r: [t(3, 4, rng=r)], lambda x: x[:, 1::2])],
    "IndexBackward0": [("repeated", lambda r: [t(3, 4, rng=r)], lambda x: x[[0, 2, 0]])],
    "CloneBackward0": [("clone", lambda r: [t(2, 3, rng=r)], lambda x: x.clone())],
    "ToCopyBackward0": [("float", lambda r: [t(2, 3, rng=r)], lambda x: x.float())],
    "WhereBackward0": [("tensors", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, y: torch.where(x > y, x, y)),
                       ("broadcast", lambda r: [t(2, 3, rng=r), t(3, rng=r)], lambda x, y: torch.where(x > 0, x, y)),
                       ("number", lambda r: [t(2, 3, rng=r)], lambda x: torch.where(x > 0, x, 0.0)),
                       ("number first", lambda r: [t(2, 3, rng=r)], lambda x: torch.where(x > 0, 1.5, x))],
    "SelectBackwardBackward0": [("double backward of x[1]", lambda r: [t(4, rng=r)], lambda g: _backward_of(lambda x: x[1], g, (3, 4)))],
    "SliceBackwardBackward0": [("double backward of x[:, 1::2]", lambda r: [t(3, 2, rng=r)],
                                lambda g: _backward_of(lambda x: x[:, 1::2], g, (3, 4)))],
    "IndexPutImplBackward0": [("double backward of x[[0, 2, 0]]", lambda r: [t(3, 4, rng=r)],
                               lambda g: _backward_of(lambda x: x[[0, 2, 0]], g, (3, 4)))],
    "IndexPutBackward0": [("x[[0, 2]] = v", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, v: _index_put(x, v)),
                          ("x[:, [1, 3]] = v, broadcast", lambda r: [t(3, 4, rng=r), t(3, 1, rng=r)],
                           lambda x, v: _index_put(x, v, (slice(None), [1, 3])))],
    "ScatterBackward0": [("double backward of x.max(1)", lambda r: [t(3, rng=r)],
                          lambda g: _backward_of(lambda x: x.max(1).values, g, (3, 4))),
                         ("scatter", lambda r: [t(3, 4, rng=r), t(3, 1, rng=r)],
                          lambda x, s: x.scatter(1, torch.tensor([[2], [0], [1]]), s))],
    "CopyBackwards": [("copy_", lambda r: [t(2, 3, rng=r)], lambda x: torch.zeros(2, 3, dtype=torch.float64).copy_(x)),
                      ("broadcast", lambda r: [t(3, rng=r)], lambda x: torch.zeros(2, 3, dtype=torch.float64).copy_(x)),
                      ("into a non-leaf", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, v: (x * 1).copy_(v))],
    "UnbindBackward0": [("rows, one unused", lambda r: [t(3, 4, rng=r)], lambda x: _unbind_rows(x)),
                        ("dim 1, one used twice", lambda r: [t(2, 3, rng=r)],
                         lambda x: (lambda u: u[0] * u[1] + u[1] ** 2)(x.unbind(1)))],
    "SplitBackward0": [("chunk, one unused", lambda r: [t(6, 2, rng=r)], lambda x: (lambda a, b, c: a * c)(*x.chunk(3))),
                       ("split dim 1", lambda r: [t(2, 5, rng=r)],
                        lambda x: (lambda a, b, c: a.sum(1) * b[:, 1] + c[:, 0])(*x.split(2, 1)))],
    "UnsafeSplitBackward0": [("gates, one unused", lambda r: [t(2, 6, rng=r)],
                              lambda x: (lambda a, b, c: a * c)(*ops.multi_output.unsafe_chunk(x, 3, 1)))],
    "SplitWithSizesBackward0": [("sizes", lambda r: [t(2, 6, rng=r)],
                                 lambda x: (lambda a, b: a * b.sum(1, keepdim=True))(*x.split([1, 5], 1)))],
    "CopySlices": [("setitem", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, v: _setitem(x, v))],
    # -- the ops under torch.nn and the next chapters ---------------------------------------------
    "AddmmBackward0": [("linear", lambda r: [t(4, 3, rng=r), t(2, 3, rng=r), t(2, rng=r)],
                        lambda x, w, b: F.linear(x, w, b)),
                       ("alpha beta", lambda r: [t(2, 4, rng=r), t(2, 3, rng=r), t(3, 4, rng=r)],
                        lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0))],
    "UnsafeViewBackward0": [("linear without bias, 3-D", lambda r: [t(2, 3, 4, rng=r), t(5, 4, rng=r)],
                             lambda x, w: F.linear(x, w))],
    "SoftmaxBackward0": [("dim 1", lambda r: [t(3, 4, rng=r)], lambda x: x.softmax(1)),
                         ("dim 0", lambda r: [t(3, 4, rng=r)], lambda x: torch.softmax(x, dim=0))],
    "LogSoftmaxBackward0": [("dim 1", lambda r: [t(3, 4, rng=r)], lambda x: x.log_softmax(1))],
    "NllLossBackward0": [(red, lambda r: [t(4, 3, rng=r)],
                          (lambda red: lambda x: F.nll_loss(x, torch.tensor([0, 2, 1, 2]), reduction=red))(red))
                         for red in ("mean", "sum", "none")],
    "BinaryCrossEntropyBackward0": [
        (red, lambda r: [t(2, 3, low=0.1, high=0.9, rng=r), t(2, 3, low=0, high=1, rng=r)],
         (lambda red: lambda p, y: F.binary_cross_entropy(p, y, reduction=red))(red))
        for red in ("mean", "sum", "none")],
    # binary_cross_entropy's backward under create_graph (ops/bce_backward.py): grad_output, self, target
    "BinaryCrossEntropyBackwardBackward0": [
        (red, (lambda red: lambda r: [t(rng=r) if red != "none" else t(2, 3, rng=r),
                                      t(2, 3, low=0.1, high=0.9, rng=r), t(2, 3, low=0, high=1, rng=r)])(red),
         (lambda red: lambda g, p, y: ops.bce_backward.binary_cross_entropy_backward(g, p, y, red))(red))
        for red in ("mean", "sum", "none")],
    "MulBackward1": [("cross_entropy with label smoothing", lambda r: [t(4, 3, rng=r)],
                      lambda x: F.cross_entropy(x, torch.tensor([0, 2, 1, 2]), label_smoothing=0.1))],
    # the Scalar overloads a create_graph backward records (core/ops/arithmetic.py): x + 2.5 inside a rule
    "AddBackward1": [("tensor + number", lambda r: [t(2, 3, rng=r)], lambda x: ops.AddBackward1.apply(x, 2.5))],
    "SubBackward1": [("tensor - number", lambda r: [t(2, 3, rng=r)], lambda x: ops.SubBackward1.apply(x, 2.5))],
    "DivBackward1": [("cross_entropy with class probabilities", lambda r: [t(4, 3, rng=r), t(4, 3, low=0, high=1, rng=r)],
                      lambda x, p: F.cross_entropy(x, p))],
    "LeakyReluBackward0": [("leaky_relu", lambda r: [t(3, 4, rng=r)], lambda x: F.leaky_relu(x, 0.1))],
    "GeluBackward0": [("gelu", lambda r: [t(3, 4, rng=r)], lambda x: F.gelu(x)),
                      ("gelu_tanh", lambda r: [t(3, 4, rng=r)], lambda x: F.gelu(x, approximate="tanh"))],
    "GeluBackwardBackward0": [
        ("double backward of gelu", lambda r: [t(3, 4, rng=r), t(3, 4, rng=r)],
         lambda g, x: torch.autograd.grad(F.gelu(x), x, g, create_graph=True)[0]),
        ("double backward of gelu_tanh", lambda r: [t(3, 4, rng=r), t(3, 4, rng=r)],
         lambda g, x: torch.autograd.grad(F.gelu(x, approximate="tanh"), x, g, create_graph=True)[0])],
    # more activations (ops/activations.py): the uniform ranges straddle the kinks
    "SoftplusBackward0": [("softplus", lambda r: [t(3, 4, rng=r)], lambda x: F.softplus(x)),
                          ("beta 2, threshold 1: both branches", lambda r: [t(3, 4, low=-2, high=2, rng=r)],
                           lambda x: F.softplus(x, 2.0, 1.0))],
    "EluBackward0": [("elu", lambda r: [t(3, 4, rng=r)], lambda x: F.elu(x, 0.5)),
                     ("selu", lambda r: [t(3, 4, rng=r)], lambda x: F.selu(x))],
    "EluBackward1": [("elu_", lambda r: [t(3, 4, rng=r)], modified(lambda y: F.elu(y, 0.5, inplace=True))),
                     ("selu_", lambda r: [t(3, 4, rng=r)], modified(lambda y: F.selu(y, inplace=True)))],
    "SiluBackward0": [("silu", lambda r: [t(3, 4, low=-5, high=5, rng=r)], lambda x: F.silu(x))],
    "HardtanhBackward0": [("hardtanh", lambda r: [t(3, 4, low=-2, high=2, rng=r)], lambda x: F.hardtanh(x)),
                          ("relu6", lambda r: [t(3, 4, low=-2, high=8, rng=r)], lambda x: F.relu6(x))],
    "HardsigmoidBackward0": [("hardsigmoid", lambda r: [t(3, 4, low=-5, high=5, rng=r)], lambda x: F.hardsigmoid(x))],
    "HardtanhBackwardBackward0": [
        ("double backward of hardtanh", lambda r: [t(3, 4, rng=r), t(3, 4, low=-2, high=2, rng=r)],
         lambda g, x: torch.autograd.grad(F.hardtanh(x), x, g, create_graph=True)[0])],
    "HardsigmoidBackwardNoDerivative": [
        ("double backward of hardsigmoid", lambda r: [t(3, 4, rng=r), t(3, 4, low=-5, high=5, rng=r)],
         lambda g, x: torch.autograd.grad(F.hardsigmoid(x), x, g, create_graph=True)[0])],
    "ConstantPadNdBackward0": [("pad", lambda r: [t(2, 3, rng=r)], lambda x: F.pad(x, (1, 2, 0, 1), value=0.5)),
                               ("crop and pad", lambda r: [t(2, 3, 4, rng=r)], lambda x: F.pad(x, (-1, 2, 1, -2)))],
    "SoftplusBackwardBackward0": [
        ("double backward of softplus", lambda r: [t(3, 4, rng=r), t(3, 4, rng=r)],
         lambda g, x: torch.autograd.grad(F.softplus(x, 2.0, 1.0), x, g, create_graph=True)[0])],
    "EluBackwardBackward0": [
        ("double backward of elu", lambda r: [t(3, 4, rng=r), t(3, 4, rng=r)],
         lambda g, x: torch.autograd.grad(F.elu(x, 0.5), x, g, create_graph=True)[0]),
        ("double backward of selu_ (from the result)", lambda r: [t(3, 4, rng=r), t(3, 4, rng=r)],
         lambda g, x: torch.autograd.grad(F.selu(x * 1, inplace=True), x, g, create_graph=True)[0])],
    "LeakyReluBackward1": [("leaky_relu_", lambda r: [t(3, 4, rng=r)],
                            modified(lambda y: F.leaky_relu(y, 0.1, inplace=True)))],
    "CatBackward0": [("dim 0", lambda r: [t(2, 3, rng=r), t(1, 3, rng=r)], lambda x, y: torch.cat([x, y])),
                     ("dim 1, three", lambda r: [t(2, 3, rng=r), t(2, 1, rng=r), t(2, 2, rng=r)],
                      lambda x, y, z: torch.cat([x, y, z], dim=1))],
    "StackBackward0": [("dim 0", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, y: torch.stack([x, y])),
                       ("dim -1", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda x, y: torch.stack([x, y], -1))],
    "MaskedFillBackward0": [("masked_fill", lambda r: [t(3, 4, rng=r)], lambda x: x.masked_fill(x > 0.5, 2.0))],
    "MaskedFillBackward1": [("a 0-dim tensor value", lambda r: [t(3, 4, rng=r), t(rng=r)],
                             lambda x, v: x.masked_fill(x > 0.5, v)),
                            ("a broadcast mask", lambda r: [t(2, 3, rng=r), t(rng=r)],
                             lambda x, v: x.masked_fill(torch.tensor([True, False, True]), v)),
                            ("the value only", lambda r: [t(rng=r)],
                             lambda v: torch.zeros(2, 3, dtype=torch.float64).masked_fill(
                                 torch.tensor([[True], [False]]), v))],
    "RemainderBackward0": [("number", lambda r: [t(3, 4, rng=r)], lambda x: x % 0.7)],
    "RemainderBackward1": [("tensors", lambda r: [t(3, 4, rng=r), t(4, low=0.5, high=2, rng=r)],
                            lambda x, y: x.remainder(y))],
    "MaximumBackward0": [("maximum", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, y: torch.maximum(x, y)),
                         ("ties", lambda r: with_ties() + with_ties(), lambda x, y: x.maximum(y))],
    "MinimumBackward0": [("minimum", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, y: torch.minimum(x, y)),
                         ("ties", lambda r: with_ties() + with_ties(), lambda x, y: x.minimum(y))],
    "ProdBackward0": [("all", lambda r: [t(2, 3, rng=r)], lambda x: x.prod())],
    "ProdBackward1": [("dim", lambda r: [t(2, 3, 4, rng=r)], lambda x: x.prod(1)),
                      ("keepdim", lambda r: [t(2, 3, rng=r)], lambda x: x.prod(-1, keepdim=True))],
    "VarBackward0": [("all", lambda r: [t(2, 3, rng=r)], lambda x: x.var()),
                     ("dim, correction 0", lambda r: [t(3, 4, rng=r)], lambda x: x.var(1, correction=0))],
    "StdBackward0": [("all", lambda r: [t(2, 3, rng=r)], lambda x: x.std()),
                     ("dim keepdim", lambda r: [t(3, 4, rng=r)], lambda x: x.std(0, keepdim=True))],
    "CumsumBackward0": [("dim 1", lambda r: [t(3, 4, rng=r)], lambda x: x.cumsum(1)),
                        ("dim 0", lambda r: [t(3, 4, rng=r)], lambda x: torch.cumsum(x, dim=0))],
    "NormalBackward1": [("mean a tensor", lambda r: [t(3, 4, rng=r)], lambda m: torch.normal(m, 0.5))],
    "NormalBackward2": [("std a tensor", lambda r: [t(3, 4, low=0.5, high=2, rng=r)], lambda s: torch.normal(1.0, s))],
    "NormalBackward3": [("both tensors", lambda r: [t(3, 4, rng=r), t(3, 4, low=0.5, high=2, rng=r)],
                         lambda m, s: torch.normal(m, s))],
    "EmbeddingBackward0": [
        ("repeated indices", lambda r: [t(5, 3, rng=r)], lambda w: F.embedding(torch.tensor([[1, 4], [1, 1]]), w)),
        ("padding_idx", lambda r: [t(5, 3, rng=r)],
         lambda w: F.embedding(torch.tensor([0, 2, 0, 3]), w, padding_idx=0))],
    "EmbeddingDenseBackwardBackward0": [
        ("double backward of embedding", lambda r: [t(2, 3, 2, rng=r), t(4, 2, rng=r)],
         lambda g, w: torch.autograd.grad(F.embedding(torch.tensor([[1, 3, 1], [0, 0, 2]]), w), w, g,
                                          create_graph=True)[0]),
        ("with padding_idx", lambda r: [t(4, 2, rng=r), t(3, 2, rng=r)],
         lambda g, w: torch.autograd.grad(F.embedding(torch.tensor([2, 1, 2, 0]), w, padding_idx=2), w, g,
                                          create_graph=True)[0])],
    "NativeLayerNormBackward0": [
        ("weight and bias", lambda r: [t(3, 4, rng=r), t(4, rng=r), t(4, rng=r)],
         lambda x, w, b: F.layer_norm(x, (4,), w, b)),
        ("two normalized dims, no affine", lambda r: [t(2, 2, 3, rng=r)], lambda x: F.layer_norm(x, (2, 3))),
        ("one row, weight only", lambda r: [t(5, rng=r), t(5, rng=r)],
         lambda x, w: F.layer_norm(x, [5], w, eps=1e-3))],
    "ConvolutionBackward0": [
        ("conv2d, bias, stride, padding", lambda r: [t(2, 2, 5, 4, rng=r), t(3, 2, 3, 2, rng=r), t(3, rng=r)],
         lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1)),
        ("conv1d, groups, dilation", lambda r: [t(1, 4, 7, rng=r), t(4, 2, 2, rng=r)],
         lambda x, w: F.conv1d(x, w, groups=2, dilation=2, padding=1)),
        ("transposed (as in a double backward)", lambda r: [t(1, 2, 3, 3, rng=r), t(2, 3, 3, 2, rng=r)],
         lambda x, w: ops.ConvolutionBackward0.apply(x, w, 0.0, (2, 2), (1, 0), (1, 1), True, (1, 1), 1))],
    "MaxPool2DWithIndicesBackward0": [
        ("overlapping, padding", lambda r: [t(1, 2, 5, 5, rng=r)], lambda x: F.max_pool2d(x, 3, stride=2, padding=1)),
        ("unbatched, ceil_mode", lambda r: [t(2, 5, 4, rng=r)], lambda x: F.max_pool2d(x, 2, ceil_mode=True))],
    "AvgPool2DBackward0": [
        ("count_include_pad=False, ceil_mode", lambda r: [t(1, 2, 5, 4, rng=r)],
         lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
        ("divisor_override", lambda r: [t(2, 4, 5, rng=r)], lambda x: F.avg_pool2d(x, (2, 3), divisor_override=4))],
    "AdaptiveAvgPool2DBackward0": [
        ("overlapping windows", lambda r: [t(1, 2, 5, 7, rng=r)], lambda x: F.adaptive_avg_pool2d(x, (3, 4))),
        ("larger than the input", lambda r: [t(2, 2, 3, rng=r)], lambda x: F.adaptive_avg_pool2d(x, (3, 5)))],
    "FloorDivide": [("tensors", lambda r: [t(3, 4, rng=r), t(4, low=0.5, high=2, rng=r)], lambda x, y: x // y)],
    "FloorDivideScalar": [("number", lambda r: [t(3, 4, rng=r)], lambda x: x // 0.5)],
    "RemainderScalarSelf": [("number % x", lambda r: [t(3, 4, low=0.5, high=2, rng=r)], lambda x: 2 % x)],
}
# gather, scatter, take, lerp, addcmul, ... (ops/gather_scatter.py, ops/ternary.py)
_INDEX = [[0, 2, 1, 0], [2, 2, 0, 1]]            # repeats within a column: gather's gradients add up
_UNIQUE = [[0, 2, 1, 0], [2, 0, 0, 1]]           # scatter writes each place at most once
CASES.update({
    "GatherBackward0": [("repeated", lambda r: [t(3, 4, rng=r)], lambda x: x.gather(0, torch.tensor(_INDEX))),
                        ("dim -1, smaller index", lambda r: [t(3, 4, rng=r)],
                         lambda x: torch.gather(x, -1, torch.tensor([[3, 3], [0, 1]])))],
    "ScatterBackward1": [("value", lambda r: [t(3, 4, rng=r)], lambda x: x.scatter(0, torch.tensor(_UNIQUE), 1.5)),
                         ("double backward of scatter", lambda r: [t(3, 4, rng=r)],
                          lambda g: _backward_of(lambda x: x.scatter(0, torch.tensor(_UNIQUE), 2.0), g, (3, 4)))],
    "ScatterAddBackward0": [("repeated", lambda r: [t(3, 4, rng=r), t(2, 4, rng=r)],
                             lambda x, s: x.scatter_add(0, torch.tensor(_INDEX), s)),
                            ("double backward of gather", lambda r: [t(2, 4, rng=r)],
                             lambda g: _backward_of(lambda x: x.gather(0, torch.tensor(_INDEX)), g, (3, 4)))],
    "TakeBackward0": [("repeated, negative", lambda r: [t(3, 4, rng=r)],
                       lambda x: x.take(torch.tensor([[0, -1], [5, 5]])))],
    "PutBackward0": [("double backward of take", lambda r: [t(2, 2, rng=r)],
                      lambda g: _backward_of(lambda x: x.take(torch.tensor([[0, 11], [5, 5]])), g, (3, 4))),
                     ("put", lambda r: [t(3, 4, rng=r), t(3, rng=r)],
                      lambda x, s: x.put(torch.tensor([1, -1, 4]), s))],
    "LerpBackward0": [("number weight", lambda r: [t(2, 3, rng=r), t(3, rng=r)], lambda a, b: torch.lerp(a, b, 0.3)),
                      ("weight above 0.5", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)], lambda a, b: a.lerp(b, 0.75))],
    "LerpBackward1": [("tensor weight, broadcast", lambda r: [t(2, 3, rng=r), t(3, rng=r), t(2, 1, rng=r)],
                       lambda a, b, w: torch.lerp(a, b, w))],
    "AddcmulBackward0": [("value", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r), t(3, rng=r)],
                          lambda a, b, c: torch.addcmul(a, b, c, value=-0.5)),
                         ("addcmul_", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
                          lambda b, c: (b * 1).addcmul_(b, c, value=2))],
    "AddcdivBackward0": [("value", lambda r: [t(2, 3, rng=r), t(2, 3, rng=r), t(3, low=0.5, high=2, rng=r)],
                          lambda a, b, c: torch.addcdiv(a, b, c, value=0.1))],
    "ClampBackward0": [("tensors, broadcast, some crossed", lambda r: [t(3, 4, rng=r), t(4, rng=r), t(3, 1, rng=r)],
                        lambda x, lo, hi: x.clamp(min=lo, max=hi)),
                       ("min tensor", lambda r: [t(3, 4, rng=r), t(3, 4, rng=r)], lambda x, lo: x.clamp(min=lo)),
                       ("max tensor", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, hi: torch.clamp(x, max=hi))],
    "ClampMinBackward0": [("number", lambda r: [t(3, 4, rng=r)], lambda x: x.clamp_min(0.2))],
    "ClampMaxBackward0": [("number", lambda r: [t(3, 4, rng=r)], lambda x: torch.clamp_max(x, -0.1))],
    "ClampMinBackward1": [("tensor, broadcast", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, m: x.clamp_min(m))],
    "ClampMaxBackward1": [("tensor, broadcast", lambda r: [t(3, 4, rng=r), t(3, 1, rng=r)],
                           lambda x, m: torch.clamp_max(x, m))],
    "FmodBackward0": [("number", lambda r: [t(3, 4, rng=r)], lambda x: x.fmod(0.7))],
    "FmodBackward1": [("tensors", lambda r: [t(3, 4, rng=r), t(4, low=0.5, high=2, rng=r)],
                       lambda x, y: torch.fmod(x, -y))],
    "FmaxBackward0": [("broadcast", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, y: torch.fmax(x, y)),
                      ("nan", lambda r: [t(4, rng=r), t(4, rng=r)],     # NaN from where: no NaN in any gradient
                       lambda x, y: x.fmax(torch.where(torch.tensor([False, True, False, True]), float("nan"), y)))],
    "FminBackward0": [("broadcast", lambda r: [t(3, 4, rng=r), t(3, 1, rng=r)], lambda x, y: x.fmin(y)),
                      ("nan", lambda r: [t(4, rng=r), t(4, rng=r)],
                       lambda x, y: torch.fmin(torch.where(torch.tensor([True, False, False, True]), float("nan"), x),
                                               y))],
})

# -- BatchNorm, the losses and containers of d2l chapters 5 and 7 (ops/batch_norm.py, ops/loss.py) --
CASES["NativeBatchNormBackward0"] = [
    ("training, weight and bias", lambda r: [t(4, 3, rng=r), t(3, rng=r), t(3, rng=r)],
     lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True)),
    ("training 4-d, no affine", lambda r: [t(2, 3, 2, 2, rng=r)],
     lambda x: F.batch_norm(x, None, None, training=True, eps=1e-3)),
    ("eval with running stats", lambda r: [t(3, 2, 4, rng=r), t(2, rng=r), t(2, rng=r)],
     lambda x, w, b: F.batch_norm(x, torch.tensor([0.5, -1.0], dtype=torch.float64),
                                  torch.tensor([2.0, 0.25], dtype=torch.float64), w, b))]


def _loss_double(loss, x, y, red, **kw):
    """A loss's gradients w.r.t. x and y with create_graph=True (grad_output
    requires grad too): outputs of its ...BackwardBackward0 node."""
    out = loss(x, y, reduction=red, **kw)
    gx, gy = torch.autograd.grad(out, (x, y), torch.ones_like(out).requires_grad_(), create_graph=True)
    return gx + gy * 0.5


for _red in ("mean", "sum", "none"):
    CASES.setdefault("SmoothL1LossBackward0", []).append(
        (_red, lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
         (lambda red: lambda x, y: F.smooth_l1_loss(x, y, reduction=red, beta=0.8))(_red)))
    CASES.setdefault("HuberLossBackward0", []).append(
        (_red, lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
         (lambda red: lambda x, y: F.huber_loss(x, y, reduction=red, delta=0.7))(_red)))
    CASES.setdefault("SmoothL1LossBackwardBackward0", []).append(
        (_red, lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
         (lambda red: lambda x, y: _loss_double(F.smooth_l1_loss, x, y, red, beta=0.8))(_red)))
    CASES.setdefault("HuberLossBackwardBackward0", []).append(
        (_red, lambda r: [t(2, 3, rng=r), t(2, 3, rng=r)],
         (lambda red: lambda x, y: _loss_double(F.huber_loss, x, y, red, delta=0.7))(_red)))
CASES["XlogyBackward0"] = [("kl_div with a target that requires grad",
                            lambda r: [t(2, 3, low=0.1, high=1, rng=r), t(2, 3, low=0.1, high=1, rng=r)],
                            lambda a, b: ops.xlogy.xlogy(a, b))]
CASES["NanToNumBackward0"] = [("finite", lambda r: [t(2, 3, rng=r)], lambda x: x.nan_to_num(posinf=5.0)),
                               ("nan_to_num_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.nan_to_num_()))]

# -- round(decimals=), div(rounding_mode=), logcumsumexp, bernoulli (ops/rounding_modes.py, ops/bernoulli.py) --
CASES.update({
    "RoundBackward1": [("decimals", lambda r: [t(2, 3, rng=r)], lambda x: x.round(decimals=2)),
                       ("negative decimals", lambda r: [t(2, 3, rng=r)], lambda x: (x * 100).round(decimals=-1))],
    "DivBackward2": [(str(mode), lambda r: [t(2, 3, rng=r), t(3, low=0.5, high=2, rng=r)],
                      (lambda m: lambda x, y: x.div(y, rounding_mode=m))(mode)) for mode in (None, "trunc", "floor")],
    "DivBackward3": [(str(mode), lambda r: [t(2, 3, rng=r)], (lambda m: lambda x: ops.DivBackward3.apply(x, -1.5, m))(mode))
                     for mode in (None, "floor")],
    "LogcumsumexpBackward0": [("dim 1", lambda r: [t(2, 4, rng=r)], lambda x: x.logcumsumexp(1)),
                              ("dim 0, large", lambda r: [t(3, 2, low=50, high=60, rng=r)], lambda x: x.logcumsumexp(0))],
    "BernoulliBackward0": [("probabilities", lambda r: [t(2, 3, low=0.1, high=0.9, rng=r)], lambda p: torch.bernoulli(p))],
    "BernoulliBackward1": [("bernoulli_", lambda r: [t(2, 3, rng=r)], modified(lambda y: y.bernoulli_(0.5)))],
    # no derivative in PyTorch: backward raises its NotImplementedError (tests/test_d2l_more_ops.py)
    "Unique2Backward0": [("values", lambda r: [t(2, 3, rng=r)], lambda x: torch.unique(x))],
    "UniqueDimBackward0": [("rows", lambda r: [t(2, 3, rng=r)], lambda x: torch.unique(x, dim=0))],
    "UniqueConsecutiveBackward0": [("runs", lambda r: [t(2, 3, rng=r)], lambda x: torch.unique_consecutive(x))],
})
# -- det, inv, solve, cholesky (ops/linalg_inverse.py): well-conditioned inputs, batched too --
def _spd(x):
    """x xᵀ + 3 I: symmetric positive definite, for cholesky."""
    return x.matmul(x.mT) + 3 * torch.eye(x.shape[-1], dtype=x.dtype)


CASES.update({
    "LinalgDetBackward0": [("matrix", lambda r: [t(3, 3, rng=r)], lambda a: torch.linalg.det(a)),
                           ("batch", lambda r: [t(2, 2, 2, rng=r)], lambda a: a.det())],
    "LinalgInvExBackward0": [("matrix", lambda r: [t(3, 3, rng=r)], lambda a: torch.linalg.inv(a + 3 * torch.eye(3))),
                             ("batch", lambda r: [t(2, 2, 2, rng=r)], lambda a: (a + 3 * torch.eye(2)).inverse())],
    "LinalgSolveExBackward0": [("matrix", lambda r: [t(3, 3, rng=r), t(3, 2, rng=r)],
                                lambda a, b: torch.linalg.solve(a + 3 * torch.eye(3), b)),
                               ("vector", lambda r: [t(3, 3, rng=r), t(3, rng=r)],
                                lambda a, b: torch.linalg.solve(a + 3 * torch.eye(3), b))],
    "LinalgCholeskyExBackward0": [("lower", lambda r: [t(3, 3, rng=r)], lambda x: torch.linalg.cholesky(_spd(x))),
                                  ("upper, batch", lambda r: [t(2, 3, 3, rng=r)],
                                   lambda x: torch.linalg.cholesky(_spd(x), upper=True))],
})

# -- eigh, svd, slogdet, pinv (ops/linalg_decompositions.py): distinct eigenvalues and singular values
# (random inputs have them), and losses that do not see the sign of an eigen- or singular vector --
def _sym(x):
    return x + x.mT


def _eigh_loss(a):
    L, Q = torch.linalg.eigh(_sym(a))
    return Q.pow(2) * L.unsqueeze(-2) + L.unsqueeze(-1).pow(2)


def _svd_loss(a, full_matrices=False):
    U, S, Vh = torch.linalg.svd(a, full_matrices=full_matrices)
    k = S.shape[-1]
    return (U[..., :k] * S.unsqueeze(-2).pow(2)).matmul(Vh[..., :k, :]) + U[..., :k].pow(2).sum() * Vh[..., 0, :]


CASES.update({
    "LinalgEighBackward0": [("values and vectors", lambda r: [t(3, 3, rng=r)], _eigh_loss),
                            ("eigvalsh, batch", lambda r: [t(2, 3, 3, rng=r)], lambda a: torch.linalg.eigvalsh(_sym(a))),
                            ("vectors only, upper", lambda r: [t(3, 3, rng=r)],
                             lambda a: torch.linalg.eigh(_sym(a), UPLO="U").eigenvectors.pow(2))],
    "LinalgSvdBackward0": [("square", lambda r: [t(3, 3, rng=r)], _svd_loss),
                           ("tall, full_matrices", lambda r: [t(4, 2, rng=r)], lambda a: _svd_loss(a, True)),
                           ("wide, batch", lambda r: [t(2, 2, 3, rng=r)], _svd_loss),
                           ("svdvals", lambda r: [t(3, 2, rng=r)], lambda a: torch.linalg.svdvals(a)),
                           ("torch.svd, V only", lambda r: [t(2, 3, rng=r)], lambda a: torch.svd(a).V.pow(2))],
    "LinalgSlogdetBackward0": [("logabsdet", lambda r: [t(3, 3, rng=r)], lambda a: torch.linalg.slogdet(a).logabsdet),
                               ("logdet, batch", lambda r: [t(2, 3, 3, rng=r)], lambda a: torch.logdet(_spd(a)))],
    "LinalgPinvBackward0": [("square", lambda r: [t(3, 3, rng=r)], lambda a: torch.linalg.pinv(a)),
                            ("tall", lambda r: [t(4, 2, rng=r)], lambda a: torch.linalg.pinv(a)),
                            ("wide, batch", lambda r: [t(2, 2, 3, rng=r)], lambda a: a.pinverse()),
                            ("hermitian", lambda r: [t(3, 3, rng=r)], lambda a: torch.linalg.pinv(_spd(a), hermitian=True))],
})
# several outputs: each node's rule reads one gradient per output, as unbind's (gradcheck, gradgradcheck
# and tests/test_linalg_decompositions.py check them)
NO_RULE.update(dict.fromkeys(["LinalgEighBackward0", "LinalgSvdBackward0", "LinalgSlogdetBackward0"], "several outputs"))
# 1-D and adaptive max pooling, GroupNorm, interpolate, ConvTranspose2d (nn/functional_layers.py)
CASES.update({
    "AdaptiveMaxPool2DBackward0": [
        ("overlapping windows", lambda r: [t(1, 2, 5, 7, rng=r)], lambda x: F.adaptive_max_pool2d(x, (3, 4))),
        ("1-D, larger than the input", lambda r: [t(2, 3, rng=r)], lambda x: F.adaptive_max_pool1d(x, 5))],
    "NativeGroupNormBackward0": [
        ("weight and bias", lambda r: [t(2, 4, 3, rng=r), t(4, rng=r), t(4, rng=r)],
         lambda x, w, b: F.group_norm(x, 2, w, b)),
        ("no affine, 4-D", lambda r: [t(2, 6, 2, 2, rng=r)], lambda x: F.group_norm(x, 3, eps=1e-3)),
        ("weight only, (N, C)", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, w: F.group_norm(x, 2, w))],
    "UpsampleNearest1DBackward0": [
        ("size", lambda r: [t(1, 2, 3, rng=r)], lambda x: F.interpolate(x, size=7))],
    "UpsampleNearest2DBackward0": [
        ("scale_factor", lambda r: [t(1, 2, 2, 3, rng=r)], lambda x: F.interpolate(x, scale_factor=(2, 1.5))),
        ("down", lambda r: [t(1, 1, 5, 4, rng=r)], lambda x: F.interpolate(x, size=(3, 3)))],
    "UpsampleLinear1DBackward0": [
        ("align_corners", lambda r: [t(2, 1, 4, rng=r)], lambda x: F.interpolate(x, size=7, mode="linear",
                                                                                   align_corners=True)),
        ("scale_factor", lambda r: [t(1, 2, 3, rng=r)], lambda x: F.interpolate(x, scale_factor=2.5, mode="linear"))],
    "UpsampleBilinear2DBackward0": [
        ("scale_factor", lambda r: [t(1, 2, 3, 2, rng=r)], lambda x: F.interpolate(x, scale_factor=2,
                                                                                     mode="bilinear")),
        ("align_corners, down", lambda r: [t(1, 1, 5, 4, rng=r)],
         lambda x: F.interpolate(x, size=(3, 5), mode="bilinear", align_corners=True))],
})
CASES["NllLoss2DBackward0"] = [
    ("cross_entropy per pixel, mean", lambda r: [t(2, 3, 2, 2, rng=r)],
     lambda x: F.cross_entropy(x, torch.tensor([[[0, 2], [1, 1]], [[2, 0], [0, -100]]]))),
    ("none, weight", lambda r: [t(1, 3, 2, 3, rng=r)],
     lambda x: F.nll_loss(x, torch.tensor([[[0, 2, 1], [1, 1, 2]]]), torch.tensor([0.5, 2.0, 1.0], dtype=torch.float64),
                          reduction="none")),
    ("3-D, sum", lambda r: [t(2, 3, 4, rng=r)],
     lambda x: F.nll_loss(x, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]), reduction="sum"))]
CASES["NllLoss2DBackwardBackward0"] = [
    ("double backward of nll_loss per pixel, mean, weight, ignore_index", lambda r: [t(rng=r)],
     lambda g: _backward_of(lambda x: F.nll_loss(x, torch.tensor([[[0, 2], [1, 1]], [[2, 0], [0, 2]]]),
                                                 torch.tensor([0.5, 2.0, 1.0], dtype=torch.float64), ignore_index=2),
                            g, (2, 3, 2, 2))),
    ("sum", lambda r: [t(rng=r)],
     lambda g: _backward_of(lambda x: F.nll_loss(x, torch.tensor([[[0, 2, 1]]]), reduction="sum"), g, (1, 3, 1, 3))),
    ("3-D, none", lambda r: [t(2, 4, rng=r)],
     lambda g: _backward_of(lambda x: F.nll_loss(x, torch.tensor([[0, 1, 2, -100], [2, 2, 1, 0]]), reduction="none"),
                            g, (2, 3, 4)))]
CASES["ConvolutionBackward0"] = CASES["ConvolutionBackward0"] + [
    ("conv_transpose2d, stride, output_padding, groups, bias",
     lambda r: [t(1, 4, 3, 2, rng=r), t(4, 1, 3, 2, rng=r), t(2, rng=r)],
     lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2, dilation=(1, 2)))]


# Ops whose backward PyTorch refuses with a NotImplementedError of its own wording (not a not_implemented rule)
NO_DERIVATIVE = {"Unique2Backward0": "_unique2", "UniqueDimBackward0": "unique_dim",
                 "UniqueConsecutiveBackward0": "unique_consecutive",
                 # in place, PyTorch has no derivative for these (they overwrite what it would need)
                 "AsinhBackward1": "inplace version of asinh", "AcoshBackward1": "inplace version of acosh",
                 "AtanhBackward1": "inplace version of atanh"}
NO_RULE.update(dict.fromkeys(NO_DERIVATIVE, "PyTorch gives it no derivative: backward raises NotImplementedError"))


def _backward_of(f, g, shape):
    """The gradient of f at a fixed point, for the upstream gradient g, with
    create_graph=True: the output of the op that computes f's backward."""
    x = torch.tensor(np.arange(np.prod(shape), dtype=np.float64).reshape(shape) % 5, requires_grad=True)
    (gx,) = torch.autograd.grad(f(x), x, g, create_graph=True)
    return gx


def _mse_backward(x, y, reduction):
    """The gradients of mse_loss w.r.t. x and y with create_graph=True: outputs of MseLossBackwardBackward0."""
    out = F.mse_loss(x, y, reduction=reduction)
    gx, gy = torch.autograd.grad(out, (x, y), torch.ones_like(out).requires_grad_(), create_graph=True)
    return gx + gy * 0.5


def _unbind_rows(x):
    first, _, last = x.unbind(0)
    return first * 2 + last ** 2


def _setitem(x, v):
    y = x * 1
    y[1] = v
    return y


def _index_put(x, v, index=[0, 2]):
    y = x * 1
    y[index] = v
    return y


def all_cases(names=None):
    return [pytest.param(name, i, id=f"{name}-{case[0]}")
            for name, cases in CASES.items() if names is None or name in names
            for i, case in enumerate(cases)]


class Recorder:
    """An engine observer: (node, incoming gradient, outgoing gradients) per step."""

    def __init__(self):
        self.steps = []

    def begin(self, roots):
        return self

    def step(self, node, grad_outputs, grad_inputs):
        self.steps.append((node, grad_outputs[0], grad_inputs))

    def end(self):
        pass


def run(name, i, seed=0):
    """Forward and backward of one case, watched: the steps at nodes of the op."""
    _, make, f = CASES[name][i]
    rng = np.random.default_rng(seed)
    out = f(*make(rng))
    recorder = Recorder()
    handle = engine.add_observer(recorder.begin)
    try:
        out.backward(torch.tensor(rng.standard_normal(out.shape), dtype=out.dtype), retain_graph=True)
    finally:
        handle.remove()
    steps = [s for s in recorder.steps if type(s[0]).__name__ == name]
    assert steps, f"the case did not run a {name} node"
    return steps


def sum_to(array, shape):
    """What the engine does to a rule's value: sum broadcast dims back to the input's shape."""
    array = np.asarray(array)
    while array.ndim > len(shape):
        array = array.sum(axis=0)
    for d, n in enumerate(shape):
        if n == 1 and array.shape[d] != 1:
            array = array.sum(axis=d, keepdims=True)
    return array


def check_rules(node, grad, engine_grads, values=None):
    """The rule of every input with a gradient equals what the engine sent."""
    got = formulas.evaluate(node, grad, values)
    inputs = type(node).inputs
    assert set(formulas.rules(node)) == set(inputs), f"{type(node).__name__} lacks a rule for an input"
    per_input = rules.per_input(inputs, got)     # cat's `tensors`: one list entry per tensor
    for k, name in enumerate(inputs):
        expected = engine_grads[k]
        if node.next_functions[k][0] is None:
            assert name not in got or inputs.count(name) > 1, f"{name} gets no gradient, but its rule was evaluated"
            continue
        assert isinstance(per_input[k], torch.Tensor), f"{type(node).__name__}: rule for {name} is not a Tensor"
        value = sum_to(per_input[k], expected.shape).astype(expected.dtype)   # the engine casts to the input's dtype
        assert value.shape == expected.shape, (f"{type(node).__name__}: rule for {name} has shape "
                                               f"{value.shape}, the engine's gradient {expected.shape}")
        tol = 1e-10 if expected.dtype == np.float64 else 1e-5
        np.testing.assert_allclose(value, expected, rtol=tol, atol=tol / 100,
                                   err_msg=f"{type(node).__name__}: rule for {name}: {formulas.rules(node)[name]}")


CHECKED = [n for n in CASES if n not in NO_RULE and n not in NOT_DIFFERENTIABLE]


@pytest.mark.parametrize("name,i", all_cases(CHECKED))
def test_rule_gives_the_engines_gradient(name, i):
    for seed in range(3):
        for node, grad, engine_grads in run(name, i, seed):
            check_rules(node, grad, engine_grads)


# -- every op is covered ----------------------------------------------------------
def test_every_op_has_a_rule_for_each_input():
    missing = []
    for name, cls in op_classes().items():
        if name in NO_RULE:
            assert formulas.rules(cls) == {}, f"{name} has rules now: take it out of NO_RULE"
            continue
        have = formulas.rules(cls)
        missing += [f"{name}.{i}" for i in cls.inputs if i not in have]
        assert formulas.forward_formula(cls).startswith("out = "), f"{name}: the docstring starts with its forward"
    assert not missing, f"ops without a derivative rule in their docstring: {missing}"


def test_every_op_has_a_case():
    assert set(op_classes()) == set(CASES)
    assert set(NO_RULE) <= set(CASES) and set(NOT_DIFFERENTIABLE) <= set(CASES)


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIABLE))
def test_ops_without_a_derivative_raise_pytorchs_error_in_backward_and_in_their_rule(name):
    _, make, f = CASES[name][0]
    out = f(*make(np.random.default_rng(0)))
    assert type(out.grad_fn).__mro__[0] is getattr(ops, name) and out.grad_fn.name() == "NotImplemented"
    message = f"derivative for aten::{NOT_DIFFERENTIABLE[name]} is not implemented"
    for create_graph in (False, True):
        with pytest.raises(RuntimeError, match=message):
            out.sum().backward(retain_graph=True, create_graph=create_graph)
    with pytest.raises(RuntimeError, match=message):
        formulas.evaluate(out.grad_fn, np.ones(out.shape))


def test_no_node_class_outside_ops():
    """Nodes named like PyTorch's (FooBackward0) live in core/ops and ops, where their rules are read."""
    import autograd_teach
    elsewhere, packages = [], [autograd_teach]
    while packages:      # the core's modules, without importing viz (walk_packages would)
        package = packages.pop()
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if info.name in ("autograd_teach.viz", "autograd_teach.ops", "autograd_teach.core.ops"):
                continue
            module = importlib.import_module(info.name)
            if info.ispkg:
                packages.append(module)
            elsewhere += [n for n, c in vars(module).items() if inspect.isclass(c)
                          and re.fullmatch(r"\w+Backward\d+", n) and c.__module__ == module.__name__]
    assert not elsewhere


# -- the check can fail ---------------------------------------------------------------
class WrongMulBackward0(ops.MulBackward0):
    """out = self * other

    self: grad * self
    other: grad * self
    """


class HalfMulBackward0(ops.MulBackward0):
    """out = self * other

    self: grad * other
    """


def _steps_of(cls, x, y):
    out = cls.apply(x, y)
    recorder = Recorder()
    handle = engine.add_observer(recorder.begin)
    try:
        out.sum().backward(retain_graph=True)
    finally:
        handle.remove()
    return [s for s in recorder.steps if type(s[0]) is cls]


def test_a_wrong_rule_is_caught():
    rng = np.random.default_rng(1)
    (node, grad, engine_grads), = _steps_of(WrongMulBackward0, t(2, 3, rng=rng), t(3, rng=rng))
    with pytest.raises(AssertionError, match="rule for self"):
        check_rules(node, grad, engine_grads)


def test_a_rule_wrong_only_after_unbroadcasting_is_caught():
    """grad * other summed to other's shape is not other's gradient: the sum is checked."""
    rng = np.random.default_rng(2)
    (node, grad, engine_grads), = _steps_of(ops.MulBackward0, t(2, 3, rng=rng), t(3, rng=rng))
    swapped = (engine_grads[0], engine_grads[0][0])
    with pytest.raises(AssertionError, match="rule for other"):
        check_rules(node, grad, swapped)


def test_a_missing_rule_is_caught():
    rng = np.random.default_rng(3)
    (node, grad, engine_grads), = _steps_of(HalfMulBackward0, t(3, rng=rng), t(3, rng=rng))
    with pytest.raises(AssertionError, match="lacks a rule"):
        check_rules(node, grad, engine_grads)


# -- the API the widget uses --------------------------------------------------------
def test_a_snapshot_taken_before_backward_evaluates_after_the_graph_is_freed():
    rng = np.random.default_rng(4)
    x, w = t(2, 3, rng=rng), t(3, rng=rng)
    out = (x * w).tanh()
    snapshots = {}

    class Snapshot(Recorder):
        def begin(self, roots):
            stack = list(roots)            # walk the graph before any node runs and frees its tensors
            while stack:
                node = stack.pop()
                if node not in snapshots and formulas.rules(node):
                    snapshots[node] = formulas.saved_values(node)
                    stack += [n for n, _ in node.next_functions if n is not None]
            return self

    recorder = Snapshot()
    handle = engine.add_observer(recorder.begin)
    try:
        out.sum().backward()            # no retain_graph: saved tensors are freed
    finally:
        handle.remove()
    checked = 0
    for node, grad, engine_grads in recorder.steps:
        if node in snapshots:
            if type(node).__name__ != "SumBackward0":     # it saves no tensor, only self's shape
                with pytest.raises(RuntimeError, match="backward through the graph a second time"):
                    formulas.evaluate(node, grad)
            check_rules(node, grad, engine_grads, values=snapshots[node])
            checked += 1
    assert checked == 3     # SumBackward0, TanhBackward0, MulBackward0


def test_only_inputs_with_a_gradient_are_evaluated():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    node = (x * 3).grad_fn          # other is a number: PyTorch saves self only if other needs a gradient
    assert formulas.saved_values(node) == {"other": formulas.saved_values(node)["other"]}
    got = formulas.evaluate(node, np.array([1.0, 1.0], dtype=np.float32))
    assert list(got) == ["self"]
    assert got["self"].tolist() == [3.0, 3.0] and got["self"].dtype == torch.float32


def test_the_rule_reads_what_the_node_saves():
    assert formulas.names(ops.MulBackward0, "self") == {"other"}
    assert formulas.names(ops.MulBackward0) == {"self", "other"}
    assert formulas.names(ops.MeanBackward1) == {"self_sym_sizes", "dim", "keepdim"}   # comprehension names are not read
    assert formulas.names(ops.TanhBackward0) == {"result"}   # helpers (tanh_backward) are not read from the node
    assert formulas.forward_formula(ops.AddBackward0) == "out = self + alpha * other"
    assert formulas.rules(ops.AddBackward0) == {"self": "grad", "other": "maybe_multiply(grad, alpha)"}
    assert "PyTorch" in formulas.notes(ops.TanhBackward0)
    assert formulas.notes(ops.MulBackward0) == ""
    rules_of_node = formulas.rules((torch.ones(2, requires_grad=True) * 2).grad_fn)
    assert rules_of_node == formulas.rules(ops.MulBackward0)


def test_nodes_without_rules():
    x = torch.ones(2, requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]           # AccumulateGrad
    assert formulas.rules(acc) == {} and formulas.evaluate(acc, np.ones(2)) == {}

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    node = Double.apply(x).grad_fn
    assert formulas.rules(node) == {} and formulas.evaluate(node, np.ones(2)) == {}


class Misspelt(ops.MulBackward0):
    """out = self * other

    slef: grad * other
    """


class NotPython(ops.MulBackward0):
    """out = self * other

    self: grad * * other
    """


class Inherited(ops.MulBackward0):
    pass


def test_malformed_rules_are_errors_not_silence():
    with pytest.raises(ValueError, match="'slef' is not one of its inputs"):
        formulas.rules(Misspelt)
    with pytest.raises(ValueError, match="not a Python expression"):
        formulas.rules(NotPython)
    assert formulas.rules(Inherited) == {}      # a rule belongs to the class that states it


# -- a number in a rule is a C++ Scalar (core/ops/arithmetic.py) ------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
@pytest.mark.parametrize("number", [3, -0.1])
def test_a_rules_arithmetic_with_a_number_gives_pythons_values_with_one_edge(op, number, dtype):
    """binary() computes what Python's operator does (value and dtype), but a
    number is no input: its node has an edge for the tensor only, or, for
    number - t and number / t (C++ fills a tensor with the number), a None
    edge in the number's place. And its gradient is right."""
    from autograd_teach.core.ops.arithmetic import binary
    x = torch.tensor([[1.5, -2.0], [4.0, 0.5]]).to(dtype)
    if dtype.is_floating_point:
        x.requires_grad_()
    for a, b in ((x, number), (number, x)):
        got, want = binary(op, a, b), eval(f"a {op} b")      # noqa: S307 (the four operators)
        assert got.dtype == want.dtype and np.array_equal(got.detach().numpy(), want.detach().numpy())
        if not dtype.is_floating_point:
            assert got.grad_fn is None
            continue
        edges = [fn for fn, _ in got.grad_fn.next_functions]
        assert edges == ([x.grad_fn or edges[-1]] if a is x or op in "+*" else [None, edges[-1]])
        assert edges[-1] is not None
        (g,) = torch.autograd.grad(got.sum(), x)
        (g_python,) = torch.autograd.grad(want.sum(), x)
        np.testing.assert_allclose(g.numpy(), g_python.numpy(), rtol=1e-6)


def test_the_rewrite_leaves_the_rule_text_and_non_tensor_arithmetic_alone():
    # the inspector shows the rule as written; the rewrite is only in what is evaluated
    assert formulas.rules(ops.PowBackward0)["self"].startswith("grad * (exponent * self.pow(exponent - 1))")
    # tuples, shapes and numbers still compute as Python: (slice(None),) * dim in SelectBackwardBackward0
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = torch.ones(2, dtype=torch.float32, requires_grad=True)
    y = x[:, 1]
    (gx,) = torch.autograd.grad(y, x, g, create_graph=True)
    np.testing.assert_array_equal(gx.detach().numpy(), [[0.0, 1.0], [0.0, 1.0]])
    (gg,) = torch.autograd.grad(gx.sum(), g)
    np.testing.assert_array_equal(gg.numpy(), [1.0, 1.0])
