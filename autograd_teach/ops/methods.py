"""The Tensor methods of the ops in this folder (PyTorch's breadth: unary
functions past exp and log, softmax, var, sorting, gather/scatter, ...).

Each is one line that picks the op class and hands it the arguments, as in
core/tensor_methods.py, which has the methods the tutorials use. Tensor
(core/tensor.py) inherits both classes.
"""
import warnings

import numpy as np

from .. import ops as O
from ..compat import dtypes, messages, shape_functions, signatures
from ..compat.device import check as check_device
from ..compat.numpy_names import numpy_names
from ..core.node import check_broadcast
from . import fast_paths
from .fast_paths import matmul_operator
from ..core.tensor_methods import ReturnTypes, TensorMethods, _check_bool_sub, _operand, _shape_arg, _tensor_arg

# -- the operators: x + y, x < y, x & y, ... ------------------------------------------
# A tensor or a Python number goes straight to the op. Anything else, PyTorch's
# operators refuse (NotImplemented), so that Python asks the other side: then a
# list or None is Python's TypeError, in Python's words, and a numpy array
# computes `x + array` itself, numpy's way, as it does with PyTorch: with
# np.asarray(x) (Tensor.__array__, which refuses a tensor that requires grad,
# with PyTorch's message), by numpy's type promotion (float32 + a float64 array
# is float64, 0-d or not), giving a Tensor back through __array_wrap__.
# Only `x == array` compares the array as a tensor, in PyTorch as here
# (core/tensor_methods.py's __eq__). The methods (x.add(array)) refuse it.
# The augmented ones (x += y) are the in-place methods (x.add_(y)) behind the
# same test: for an array, NotImplemented again, so that Python falls back to
# x + array, numpy's, and rebinds x to its result; the tensor stays as it was.
_PLAIN = frozenset({int, float, bool})


def _operator(fn, name, with_number=None):
    """Tensor.<name>(self, other): fn(self, other) for a tensor, with_number(self, other)
    (else fn) for a number, NotImplemented for anything else. with_number: the op's
    apply where fn is a fast path, which takes tensors only (x * 2 would fail its
    first step, at the cost of an exception, before reaching apply)."""
    with_number = with_number or fn

    def operator(self, other):
        if isinstance(other, TensorMethods):    # the usual case, first
            return fn(self, other)
        if type(other) in _PLAIN:
            return with_number(self, other)
        if not isinstance(other, (np.number, np.bool_)):     # numpy's scalars are numbers to PyTorch
            return NotImplemented
        return with_number(self, _operand(other, self))
    operator.__name__ = operator.__qualname__ = name
    return operator


def _inplace_operator(fn, name, with_number=None):
    """x += y: self.add_(y) (self._inplace(fn, y), a frame the fewer) for a
    tensor or a number, else NotImplemented, as _operator."""
    with_number = with_number or fn

    def operator(self, other):
        if isinstance(other, TensorMethods):    # the usual case, first
            return self._inplace(fn, other)
        if type(other) in _PLAIN:
            return self._inplace(with_number, other)
        if not isinstance(other, (np.number, np.bool_)):
            return NotImplemented
        return self._inplace(with_number, _operand(other, self))
    operator.__name__ = operator.__qualname__ = name
    return operator


def _remainder(a, b):
    return O.RemainderBackward1.apply(a, b) if isinstance(b, TensorMethods) else O.RemainderBackward0.apply(a, b)


def _sub(a, b):           # x - y for a tensor y: TensorMethods.sub's usual case, without its steps for numbers
    _check_bool_sub(a, b)
    return fast_paths.sub(a, b)


def _pow(a, b):
    return O.PowBackward1.apply(a, b) if isinstance(b, TensorMethods) else O.PowBackward0.apply(a, b)


def _rsub(a, b):            # 2 - x
    if isinstance(b, TensorMethods):
        return b.sub(a)
    _check_bool_sub(a, b)
    return O.RsubBackward1.apply(a, b)


def _rtruediv(a, b):       # 2 / x: PyTorch's __rdiv__, x.reciprocal() * 2
    return b.div(a) if isinstance(b, TensorMethods) else O.MulBackward0.apply(O.ReciprocalBackward0.apply(a), b)


def _rpow(a, b):           # 2 ** x
    return b.pow(a) if isinstance(b, TensorMethods) else O.PowBackward2.apply(a, b)


_rtruediv_operator = _operator(_rtruediv, "__rtruediv__")


def _bitwise(kernel, name, bools=True):
    """x & y, x | y, x ^ y, x << y, x >> y: integer and bool tensors only
    (shifts: integers only), as PyTorch's kernels, outside the graph, in the
    promoted dtype; a number is cast to it as C++ casts, wrapping around (an
    int8 tensor & 300 reads 300 as 44)."""
    def op(self, other):
        result = _bitwise_dtype(self, other)
        if result.is_floating_point or (result is dtypes.bool_ and not bools):
            raise NotImplementedError(f"\"{name}\" not implemented for '{result.legacy_name}'")
        b = np.asarray(other._data if isinstance(other, TensorMethods) else other).astype(result.np)
        return self._wrap(np.asarray(kernel(self._data.astype(result.np, copy=False), b)))
    return op


def _bitwise_dtype(t, other):
    """The result's dtype, once the shapes are known to broadcast (PyTorch checks them first)."""
    if isinstance(other, TensorMethods):
        check_broadcast(t.shape, other.shape)
    return dtypes.result_type(t, other)


def _shift_left(a, b):
    """ATen's lshift: a shift past the width (or negative) gives 0."""
    bits = a.dtype.itemsize * 8
    return np.where((b < 0) | (b >= bits), a.dtype.type(0), np.left_shift(a, np.clip(b, 0, bits - 1)))


def _shift_right(a, b):
    """ATen's rshift: a shift past the width (or negative) leaves the sign bits only."""
    most = a.dtype.itemsize * 8 - (a.dtype.kind == "i")
    return np.right_shift(a, np.where((b < 0) | (b >= most), most, b).astype(a.dtype))


_lshift, _rshift = _bitwise(_shift_left, "lshift_cpu", bools=False), _bitwise(_shift_right, "rshift_cpu", bools=False)


def _bitwise_inplace(operator):
    """x &= y: in place, after PyTorch's first check, that the result's dtype can be written into x's."""
    def op(self, other):
        result = _bitwise_dtype(self, other)
        if result.is_floating_point and not self.dtype.is_floating_point:
            raise RuntimeError(f"result type {result.legacy_name} can't be cast to the desired output "
                               f"type {self.dtype.legacy_name}")
        return self._inplace(operator, other)
    return op


class OpMethods:
    __slots__ = ()

    __add__, __radd__ = (_operator(fast_paths.add, name, O.AddBackward0.apply) for name in ("__add__", "__radd__"))
    __mul__, __rmul__ = (_operator(fast_paths.mul, name, O.MulBackward0.apply) for name in ("__mul__", "__rmul__"))
    __sub__ = _operator(_sub, "__sub__", TensorMethods.sub)
    __truediv__ = _operator(fast_paths.div, "__truediv__", O.DivBackward0.apply)
    __pow__ = _operator(_pow, "__pow__")
    __rsub__, __rpow__ = _operator(_rsub, "__rsub__"), _operator(_rpow, "__rpow__")
    __ne__, __lt__ = _operator(TensorMethods.ne, "__ne__"), _operator(TensorMethods.lt, "__lt__")
    __le__, __gt__ = _operator(TensorMethods.le, "__le__"), _operator(TensorMethods.gt, "__gt__")
    __ge__ = _operator(TensorMethods.ge, "__ge__")
    # masks: (x == 0) & (y >= 0)
    __and__ = __rand__ = _operator(_bitwise(np.bitwise_and, "bitwise_and_cpu"), "__and__")
    __or__ = __ror__ = _operator(_bitwise(np.bitwise_or, "bitwise_or_cpu"), "__or__")
    __xor__ = __rxor__ = _operator(_bitwise(np.bitwise_xor, "bitwise_xor_cpu"), "__xor__")
    __lshift__, __rshift__ = _operator(_lshift, "__lshift__"), _operator(_rshift, "__rshift__")
    __rlshift__ = _operator(lambda self, other: _lshift(_scalar_like(other, self), self), "__rlshift__")
    __rrshift__ = _operator(lambda self, other: _rshift(_scalar_like(other, self), self), "__rrshift__")
    __iadd__ = _inplace_operator(fast_paths.add, "__iadd__", O.AddBackward0.apply)
    __isub__ = _inplace_operator(_sub, "__isub__", TensorMethods.sub)
    __imul__ = _inplace_operator(fast_paths.mul, "__imul__", O.MulBackward0.apply)
    __itruediv__ = _inplace_operator(fast_paths.div, "__itruediv__", O.DivBackward0.apply)
    __ipow__, __imod__ = _inplace_operator(_pow, "__ipow__"), _inplace_operator(_remainder, "__imod__")
    __iand__ = _operator(_bitwise_inplace(__and__), "__iand__")
    __ior__, __ixor__ = _operator(_bitwise_inplace(__or__), "__ior__"), _operator(_bitwise_inplace(__xor__), "__ixor__")
    __ilshift__ = _operator(_bitwise_inplace(__lshift__), "__ilshift__")
    __irshift__ = _operator(_bitwise_inplace(__rshift__), "__irshift__")

    def __rtruediv__(self, other):      # PyTorch's is x.reciprocal() * other: for an array, numpy's product
        return self.reciprocal() * other if isinstance(other, np.ndarray) else _rtruediv_operator(self, other)

    # the other casts by name, as float(), double(), long(), ... beside _cast in core/tensor.py
    def half(self):
        return self._cast(dtypes.float16)

    def short(self):
        return self._cast(dtypes.int16)

    def char(self):
        return self._cast(dtypes.int8)

    def byte(self):
        return self._cast(dtypes.uint8)

    def log1p(self):
        return O.Log1PBackward0.apply(self)

    def expm1(self):
        return O.Expm1Backward0.apply(self)

    def rsqrt(self):
        return O.RsqrtBackward0.apply(self)

    def sign(self):
        return O.SignBackward0.apply(self)

    def tan(self):
        return O.TanBackward0.apply(self)

    def log2(self):
        return O.Log2Backward0.apply(self)

    def log10(self):
        return O.Log10Backward0.apply(self)

    def exp2(self):
        return O.Exp2Backward0.apply(self)

    def asin(self):
        return O.AsinBackward0.apply(self)

    def acos(self):
        return O.AcosBackward0.apply(self)

    def atan(self):
        return O.AtanBackward0.apply(self)

    def sinh(self):
        return O.SinhBackward0.apply(self)

    def cosh(self):
        return O.CoshBackward0.apply(self)

    def erf(self):
        return O.ErfBackward0.apply(self)

    def erfinv(self):
        return O.ErfinvBackward0.apply(self)

    def floor(self):
        return O.FloorBackward0.apply(self)

    def ceil(self):
        return O.CeilBackward0.apply(self)

    def nan_to_num(self, nan=None, posinf=None, neginf=None):
        return O.NanToNumBackward0.apply(self, *_replacements("nan_to_num", self, nan, posinf, neginf))

    def nan_to_num_(self, nan=None, posinf=None, neginf=None):
        numbers = _replacements("nan_to_num_", self, nan, posinf, neginf)
        return self._inplace(lambda t: O.NanToNumBackward0.apply(t, *numbers))

    def round(self, *, decimals=None):
        if decimals is not None:
            return O.RoundBackward1.apply(self, int(decimals))
        return O.RoundBackward0.apply(self)

    def logcumsumexp(self, dim):
        return O.LogcumsumexpBackward0.apply(self, dim)

    def det(self):
        return O.LinalgDetBackward0.apply(self)

    def inverse(self):
        return O.LinalgInvExBackward0.apply(self)

    def bernoulli_(self, p=0.5, *, generator=None):
        return self._inplace(O.BernoulliBackward1.apply, p, generator)

    def bernoulli(self, p=None, *, generator=None):
        return O.bernoulli.bernoulli(self, p, generator=generator)

    def trunc(self):
        return O.TruncBackward0.apply(self)

    def frac(self):
        return O.FracBackward0.apply(self)

    arcsin, arccos, arctan, fix = asin, acos, atan, trunc    # PyTorch's numpy-style aliases

    def softmax(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        _check_softmax_dtype(t, dim, "softmax")
        return O.SoftmaxBackward0.apply(t, dim)

    def log_softmax(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        _check_softmax_dtype(t, dim, "log_softmax")
        return O.LogSoftmaxBackward0.apply(t, dim)

    @numpy_names
    def prod(self, dim=None, keepdim=False, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        if dim is None:
            return O.ProdBackward0.apply(t)
        return O.ProdBackward1.apply(t, dim, keepdim)

    @numpy_names
    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return O.VarBackward0.apply(self, *_var_args(dim, unbiased, keepdim, correction))

    @numpy_names
    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return O.StdBackward0.apply(self, *_var_args(dim, unbiased, keepdim, correction))

    def floor_divide(self, other):
        other = _operand(other, self, "floor_divide")
        if isinstance(other, TensorMethods):
            return O.FloorDivide.apply(self, other)
        return O.FloorDivideScalar.apply(self, other)

    __floordiv__ = _operator(floor_divide, "__floordiv__")
    __rfloordiv__ = _operator(lambda self, other: O.FloorDivide.apply(_scalar_like(other, self), self), "__rfloordiv__")
    __matmul__ = matmul_operator    # the fast path itself, for a frame less (ops/fast_paths.py)

    def remainder(self, other):
        other = _operand(other, self, "remainder")
        if isinstance(other, TensorMethods):
            return O.RemainderBackward1.apply(self, other)
        return O.RemainderBackward0.apply(self, other)

    __mod__ = _operator(remainder, "__mod__")
    # PyTorch's 2 % x has no derivative formula: its node is NotImplemented
    __rmod__ = _operator(lambda self, other: O.RemainderScalarSelf.apply(_scalar_like(other, self), self), "__rmod__")

    def outer(self, vec2):
        if self.dim() != 1 or vec2.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument self, but got {self.dim()}-D" if self.dim() != 1
                               else f"outer: Expected 1-D argument vec2, but got {vec2.dim()}-D")
        return self.reshape(-1, 1) * vec2      # as PyTorch: ViewBackward0 then MulBackward0

    ger = outer

    def bmm(self, mat2):
        if self.dim() != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if mat2.dim() != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        if self.shape[0] != mat2.shape[0] or self.shape[2] != mat2.shape[1]:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{self.shape[0]}, {self.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}].")
        return O.BmmBackward0.apply(self, mat2)

    def masked_fill(self, mask, value):
        return O.selection.masked_fill(self, mask, value)

    def where(self, condition, y):
        return O.selection.where(condition, self, y)

    def is_contiguous(self, memory_format=None):
        return self._data.flags.c_contiguous

    def stride(self, dim=None):
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        if dim is None:
            return strides
        return strides[O.shape.check_dim(dim, self._data.ndim)]

    def cumsum(self, dim=None, dtype=None, *, axis=None):
        t = self if dtype is None else self._cast(dtype)
        return O.CumsumBackward0.apply(t, dim if axis is None else axis)

    # new_*: a new tensor with this one's dtype (and device), not in any graph
    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        check_device(device)
        if isinstance(data, TensorMethods):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                          "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data._data
        return self._new(np.array(data, dtype=(dtypes.as_dtype(dtype) or self.dtype).np), requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        check_device(device)
        return self.new_full(_shape_arg(size), 0, dtype=dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        check_device(device)
        return self.new_full(_shape_arg(size), 1, dtype=dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        check_device(device)
        return self.new_zeros(*size, dtype=dtype, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        check_device(device)
        dt = dtypes.as_dtype(dtype) or self.dtype
        return self._new(np.full(_shape_arg((size,)), fill_value, dtype=dt.np), requires_grad)

    def _new(self, array, requires_grad):
        out = self._wrap(array)
        return out.requires_grad_(True) if requires_grad else out

    def count_nonzero(self, dim=None):
        axis = None if dim is None else O.reduction.normalize_dims(dim, self.dim())
        return self._wrap(np.asarray(np.count_nonzero(self._data, axis=axis), dtype=np.int64))

    def nonzero(self, *, as_tuple=False):
        if as_tuple:
            found = np.nonzero(self._data) if self.dim() else np.nonzero(self._data.reshape(1))
            return tuple(self._wrap(i.astype(np.int64)) for i in found)
        return self._wrap(np.argwhere(self._data).astype(np.int64))

    def atan2(self, other):
        return O.Atan2Backward0.apply(self, _tensor_arg(other, "atan2"))

    arctan2 = atan2

    def asinh(self):
        return O.AsinhBackward0.apply(self)

    def acosh(self):
        return O.AcoshBackward0.apply(self)

    def atanh(self):
        return O.AtanhBackward0.apply(self)

    arcsinh, arccosh, arctanh = asinh, acosh, atanh

    def asinh_(self):       # PyTorch's in-place forms have a node of their own, without a derivative
        return self._inplace(O.AsinhBackward1.apply)

    def acosh_(self):
        return self._inplace(O.AcoshBackward1.apply)

    def atanh_(self):
        return self._inplace(O.AtanhBackward1.apply)

    arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_

    # PyTorch's numpy-style names of the arithmetic (core/tensor_methods.py, core/views.py),
    # which refuse an array or a list in their own names
    def subtract(self, other, *, alpha=1):
        return self.sub(_operand(other, self, "subtract"), alpha=alpha)

    def subtract_(self, other, *, alpha=1):
        return self.sub_(_operand(other, self, "subtract_"), alpha=alpha)

    def multiply(self, other):
        return self.mul(_operand(other, self, "multiply"))

    def multiply_(self, other):
        return self.mul_(_operand(other, self, "multiply_"))

    def divide(self, other, **rounding_mode):       # given (even None), it is another op: as div's
        return self.div(_operand(other, self, "divide"), **rounding_mode)

    def divide_(self, other, **rounding_mode):
        return self.div_(_operand(other, self, "divide_"), **rounding_mode)

    def true_divide(self, other):
        return self.div(_operand(other, self, "true_divide"))

    def true_divide_(self, other):
        return self.div_(_operand(other, self, "true_divide_"))

    # amax ... topk: ops/reduction.py, ops/rearrange.py, ops/sorting.py
    def amax(self, dim=(), keepdim=False):
        return O.AmaxBackward0.apply(self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return O.AminBackward0.apply(self, dim, keepdim)

    def logsumexp(self, dim, keepdim=False):
        return O.LogsumexpBackward0.apply(self, dim, keepdim)

    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        return O.NansumBackward0.apply(self if dtype is None else self._cast(dtype), dim, keepdim)

    def flip(self, *dims):
        return O.FlipBackward0.apply(self, _shape_arg(dims))

    def fliplr(self):
        return self.flip(1)

    def flipud(self):
        return self.flip(0)

    def roll(self, shifts, dims=None):
        return O.RollBackward0.apply(self, shifts, () if dims is None else dims)

    def repeat(self, *repeats):
        return O.RepeatBackward0.apply(self, _shape_arg(repeats))

    def tile(self, *dims):
        dims = _shape_arg(dims)
        return self.repeat((1,) * (self.dim() - len(dims)) + dims)

    def tril(self, diagonal=0):
        return O.TrilBackward0.apply(self, diagonal)

    def triu(self, diagonal=0):
        return O.TriuBackward0.apply(self, diagonal)

    def index_select(self, dim, index):
        return O.IndexSelectBackward0.apply(self, dim, index._data)

    def sort(self, dim=-1, descending=False, stable=False):
        dim, indices = O.sorting.sort_indices(self._data, dim, descending)
        return ReturnTypes("sort", O.SortBackward0.apply(self, dim, indices), self._wrap(indices))

    def argsort(self, dim=-1, descending=False, stable=False):
        return self.detach().sort(dim, descending).indices

    def msort(self):
        return self.sort(0).values

    def topk(self, k, dim=-1, largest=True, sorted=True):
        dim, indices = O.sorting.topk_indices(self._data, k, dim, largest)
        return ReturnTypes("topk", O.TopkBackward0.apply(self, dim, indices), self._wrap(indices))

    def kthvalue(self, k, dim=-1, keepdim=False):
        dim, indices = O.sorting.kthvalue_indices(self._data, k, dim, keepdim)
        return ReturnTypes("kthvalue", O.KthvalueBackward0.apply(self, dim, keepdim, indices), self._wrap(indices))

    def median(self, dim=None, keepdim=False):
        if dim is None:
            return O.MedianBackward0.apply(self)
        dim, indices = O.sorting.median_indices(self._data, dim, keepdim)
        return ReturnTypes("median", O.MedianBackward1.apply(self, dim, keepdim, indices), self._wrap(indices))

    def masked_select(self, mask):
        return O.MaskedSelectBackward0.apply(self, mask._data)

    def index_add(self, dim, index, source, *, alpha=1):
        return O.rearrange.index_add(self, dim, index, source, alpha)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return O.DiagonalBackward0.apply(self, offset, dim1, dim2)

    def diag(self, diagonal=0):
        if self.dim() == 1:
            return O.DiagEmbedBackward0.apply(self, diagonal, 0, 1)
        if self.dim() != 2:
            raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " f"{self.dim()}D")
        return O.DiagonalBackward0_copy.apply(self, diagonal, 0, 1)

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        return O.DiagEmbedBackward0.apply(self, offset, dim1, dim2)

    def trace(self):
        return O.TraceBackward0.apply(self)

    @property
    def mT(self):
        if self.dim() < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {self.dim()}-D tensor.")
        return self.transpose(-2, -1)

    def cumprod(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        return O.CumprodBackward0.apply(t, dim)

    def maximum(self, other):
        return O.MaximumBackward0.apply(self, _tensor_arg(other, "maximum"))

    def minimum(self, other):
        return O.MinimumBackward0.apply(self, _tensor_arg(other, "minimum"))

    def __invert__(self):
        if self._data.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return self._wrap(np.invert(self._data))

    bitwise_not = __invert__

    def logical_not(self):
        return self._wrap(np.logical_not(self._data))

    def isnan(self):
        return self._wrap(np.isnan(self._data))

    def isinf(self):
        return self._wrap(np.isinf(self._data))

    def isfinite(self):
        return self._wrap(np.isfinite(self._data))

    # --- gather, scatter, lerp, addcmul, logical ops, ... (ops/gather_scatter.py, ops/ternary.py) ---
    def gather(self, dim, index, *, sparse_grad=False):
        return O.gather_scatter.gather(self, dim, index, sparse_grad=sparse_grad)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        src = None if src is None else _operand(src, self)
        return O.gather_scatter.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        return self._inplace(lambda t, s: t.scatter(dim, index, s, value=value, reduce=reduce), src)

    def scatter_add(self, dim, index, src):
        return O.gather_scatter.scatter_add(self, dim, index, src)

    def scatter_add_(self, dim, index, src):
        return self._inplace(lambda t, s: t.scatter_add(dim, index, s), src)

    def take(self, index):
        return O.gather_scatter.take(self, index)

    def put(self, index, source, accumulate=False):
        return O.gather_scatter.put(self, index, source, accumulate)

    def put_(self, index, source, accumulate=False):
        return self._inplace(lambda t, s: t.put(index, s, accumulate), source)

    def lerp(self, end, weight):
        return O.ternary.lerp_checked(self, end, _operand(weight, self))

    def index_add_(self, dim, index, source, *, alpha=1):
        return self._inplace(lambda t, s: t.index_add(dim, index, s, alpha=alpha), source)

    def lerp_(self, end, weight):
        return self._inplace(lambda t, e, w: t.lerp(e, w), end, weight)

    def addcmul(self, tensor1, tensor2, *, value=1):
        return O.ternary.addcmul(self, tensor1, tensor2, value=value)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return self._inplace(lambda t, a, b: t.addcmul(a, b, value=value), tensor1, tensor2)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return O.ternary.addcdiv(self, tensor1, tensor2, value=value)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return self._inplace(lambda t, a, b: t.addcdiv(a, b, value=value), tensor1, tensor2)

    # logical ops: any nonzero is True; bool results, no gradient (logical_not is above)
    def logical_and(self, other):
        return _logical(np.logical_and, self, other, "logical_and")

    def logical_or(self, other):
        return _logical(np.logical_or, self, other, "logical_or")

    def logical_xor(self, other):
        return _logical(np.logical_xor, self, other, "logical_xor")

    # clamp_min/max, fmod, fmax/fmin (ops/clamp_fmod.py)
    def clamp_min(self, min):
        min = _operand(min, self, "clamp_min")
        if isinstance(min, TensorMethods):
            return O.clamp_fmod.ClampMinBackward1.apply(self, min)
        return O.clamp_fmod.ClampMinBackward0.apply(self, min)

    def clamp_max(self, max):
        max = _operand(max, self, "clamp_max")
        if isinstance(max, TensorMethods):
            return O.clamp_fmod.ClampMaxBackward1.apply(self, max)
        return O.clamp_fmod.ClampMaxBackward0.apply(self, max)

    def fmod(self, other):
        other = _operand(other, self, "fmod")
        if isinstance(other, TensorMethods):
            return O.clamp_fmod.FmodBackward1.apply(self, other)
        return O.clamp_fmod.FmodBackward0.apply(self, other)

    def fmax(self, other):
        return O.clamp_fmod.FmaxBackward0.apply(self, _tensor_arg(other, "fmax"))

    def fmin(self, other):
        return O.clamp_fmod.FminBackward0.apply(self, _tensor_arg(other, "fmin"))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _isclose(self, _tensor_arg(other, "isclose"), rtol, atol, equal_nan)

    def type_as(self, other):
        return self.to(other.dtype)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        return shape_functions.repeat_interleave(self, repeats, dim, output_size=output_size)


def _var_args(dim, unbiased, keepdim, correction):
    """var(unbiased), var(dim, unbiased, keepdim) and var(dim, correction=, keepdim=)."""
    if isinstance(dim, bool):       # x.var(False): the old (unbiased) overload
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction, keepdim


def _scalar_like(number, t):
    """2 // x, 2 % x: the number becomes a 0-d tensor of the promoted dtype."""
    return t._wrap(np.array(number, dtype=dtypes.result_type(t, number).np))


def _check_softmax_dtype(t, dim, name):
    """Integers have no softmax kernel (PyTorch names the one along the last dim apart)."""
    if not t.dtype.is_floating_point:
        last = O.shape.check_dim(dim, t.dim()) == max(t.dim(), 1) - 1
        dtypes.check_floating(t.dtype, f"{name}_lastdim_kernel_impl" if last else f"{name}_kernel_impl")


def _logical(op, t, other, name):
    """A logical op of two tensors (broadcast): a bool tensor, outside the graph."""
    check_broadcast(t.shape, _tensor_arg(other, name).shape)
    return t._wrap(np.asarray(op(t._data, other._data)))


def _isclose(a, b, rtol, atol, equal_nan):
    """|a - b| <= atol + |rtol * b| (or equal, or both NaN with equal_nan), in
    a's dtype as PyTorch computes it (integers in the default float)."""
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{a.dtype.legacy_name} did not match {b.dtype.legacy_name}")
    for name, tol in (("rtol", rtol), ("atol", atol)):
        if tol < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {tol:g}")
    x, y = a._data, b._data
    close = x == y
    if equal_nan and x.dtype.kind == "f":
        close |= np.isnan(x) & np.isnan(y)
    if x.dtype.kind != "f":
        x, y = x.astype(dtypes.default_float.np), y.astype(dtypes.default_float.np)
    with np.errstate(invalid="ignore", over="ignore"):
        allowed = atol + np.abs(rtol * y)
        error = np.abs(x - y)
        close |= np.isfinite(error) & (error <= allowed)
    return a._wrap(np.asarray(close))


def _replacements(fn, input, *values):
    """nan_to_num's numbers as Python floats (or None), after PyTorch's
    argument parser's checks: input is a tensor (torch.nan_to_num([1.0]) is a
    TypeError), and each number a Python or numpy number, or a 0-d tensor
    that does not require grad."""
    if not isinstance(input, TensorMethods):
        raise messages.must_be_tensor(fn, "input", 1, input)
    out = []
    for name, value in zip(("nan", "posinf", "neginf"), values):
        if isinstance(value, TensorMethods) and value.dim() == 0 and not value.requires_grad:
            value = value.item()
        elif value is not None and not isinstance(value, (int, float, np.integer, np.floating, np.bool_)):
            raise TypeError(f"{fn}(): argument '{name}' must be float, not {messages.type_name(value)}")
        out.append(None if value is None else float(value))
    return out


def add_declared_methods(cls, modules):
    """Add to cls the Tensor methods each op module declares beside its ops
    (TENSOR_METHODS, see ops/__init__.py). A method defined twice, there and
    here or in core/tensor_methods.py, is refused: the one Tensor ran would
    depend on the order of the base classes."""
    for module in modules:
        for name, method in getattr(module, "TENSOR_METHODS", {}).items():
            if hasattr(cls, name) or hasattr(TensorMethods, name):
                raise ImportError(f"Tensor.{name} is defined twice: in {module.__name__} and in "
                                  "ops/methods.py or core/tensor_methods.py")
            setattr(cls, name, method)


add_declared_methods(OpMethods, O.op_modules())


def _inplace_form(name):
    def method(self, *args, **kwargs):
        function = getattr(type(self), name)
        if args and name + "_" in signatures.METHODS:   # x.fmod_(array): refused in the in-place form's name
            args = (signatures.checked(args[0], name + "_", TensorMethods),) + args[1:]
        elif args and name in ("atan2", "arctan2"):
            args = (_tensor_arg(args[0], name + "_"),) + args[1:]
        return self._inplace(lambda t, *a: function(t, *a, **kwargs) if kwargs else function(t, *a), *args)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"self.{name}(...), written into self"
    return method


# the in-place forms of the other elementwise functions (and of the running sums and products)
for _name in ("rsqrt", "expm1", "log1p", "exp2", "log2", "log10", "sign", "sgn", "floor", "ceil", "round", "trunc",
              "frac", "fix", "erf", "erfinv", "tan", "atan", "asin", "acos", "arctan", "arcsin", "arccos", "sinh",
              "cosh", "negative", "atan2", "arctan2", "clamp_min", "clamp_max", "fmod", "cumsum", "cumprod",
              "floor_divide"):
    setattr(OpMethods, _name + "_", _inplace_form(_name))
OpMethods.__ifloordiv__ = _operator(OpMethods.floor_divide_, "__ifloordiv__")
