"""torch.cat, torch.stack, torch.normal, ...: the function forms
the chapters after the autograd tutorials use. Each hands on to an op class in
ops/ or to the Tensor method of the same name."""
import numpy as np

from . import dtypes
from .. import ops as O
from . import out_argument, random
from .creation import _finish, _size
from .numpy_names import numpy_names
from ..core.tensor import Tensor
from ..core.ops.selection import where  # noqa: F401  (one torch.where: the one the derivative rules call)


def cat(tensors, dim=0):
    if isinstance(tensors, Tensor):
        raise TypeError("cat() received an invalid combination of arguments - got (Tensor, ), but expected "
                        "one of:\n * (tuple of Tensors tensors, int dim = 0, *, Tensor out = None)")
    return O.CatBackward0.apply(tensors, dim)


concat = concatenate = cat


def stack(tensors, dim=0):
    return O.StackBackward0.apply(tensors, dim)


def softmax(input, dim, dtype=None):
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim, dtype=None):
    return input.log_softmax(dim, dtype=dtype)


@numpy_names
def prod(input, dim=None, keepdim=False, dtype=None):
    return input.prod(dim, keepdim, dtype=dtype)


@numpy_names
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.var(dim, unbiased, keepdim, correction=correction)


@numpy_names
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.std(dim, unbiased, keepdim, correction=correction)


def outer(input, vec2):
    return input.outer(vec2)


ger = outer


def bmm(input, mat2):
    return input.bmm(mat2)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return O.AddmmBackward0.apply(input, mat1, mat2, beta, alpha)


def masked_fill(input, mask, value):
    return input.masked_fill(mask, value)


def remainder(input, other):
    return input.remainder(other)


def floor_divide(input, other):
    return input // other


def cumsum(input, dim, dtype=None):
    return input.cumsum(dim, dtype=dtype)


def maximum(input, other):
    return input.maximum(other)


def minimum(input, other):
    return input.minimum(other)


def isnan(input):
    return input.isnan()


def isinf(input):
    return input.isinf()


def isfinite(input):
    return input.isfinite()


def nan_to_num(input, nan=None, posinf=None, neginf=None, *, out=None):
    """input.nan_to_num(...) (whose argument checks come first), or that
    written into out (compat/out_argument.py), which must have input's dtype."""
    result = Tensor.nan_to_num(input, nan, posinf, neginf)
    if out is None:
        return result
    out_argument.check("nan_to_num", out, (input,), Tensor)
    if out.dtype is not input.dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {out.dtype.legacy_name} should be same as input: "
                           f"{input.dtype.legacy_name}")
    return out_argument.write(out, result.detach(), (input,))


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False, out=None):
    """The four overloads of torch.normal:
      normal(mean: Tensor, std: Tensor)  elementwise, shapes broadcast
      normal(mean: Tensor, std=1.0)      normal(0, std) drawn, then + mean
      normal(mean: float, std: Tensor)   normal(0, 1) drawn, then * std + mean
      normal(mean: float, std: float, size)  as empty(size).normal_(mean, std)"""
    m_t, s_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if m_t and s_t:
        return O.NormalBackward3.apply(mean, std, generator)
    if m_t:
        return O.NormalBackward1.apply(mean, float(std), generator)
    if s_t:
        return O.NormalBackward2.apply(std, float(mean), generator)
    if size is None:
        raise TypeError("normal() received an invalid combination of arguments - got (float, float), but "
                        "expected one of:\n * (Tensor mean, Tensor std, *, torch.Generator generator = None, "
                        "Tensor out = None)")
    dt = dtypes.as_dtype(dtype) or dtypes.default_float
    shape = _size(tuple(size) if isinstance(size, (tuple, list)) else (size,))
    random.check_std(std)
    return _finish(random.normal(shape, mean, std, dt.np, generator), None, requires_grad)
