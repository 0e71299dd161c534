"""The Tensor methods that run an op: `x.mul(w)` is `MulBackward0.apply(x, w)`.

Each is one line that picks the op class (from ops/) and hands it the
arguments, as PyTorch's generated Tensor methods call its ATen ops. Numbers
pass through (`x * 2`); lists and arrays become tensors. Tensor (tensor.py)
inherits all of them: in PyTorch they come from torch._C.TensorBase too.
"""
import warnings

import numpy as np

from . import dtypes, grad_mode
from . import ops as O
from . import shape_functions
from .indexing import getitem, setitem
from .node import check_broadcast
from .numpy_names import numpy_names

T_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
    "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
T_0D_WARNING = (
    "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)")


_NO_MODE = object()     # div without rounding_mode: x.div(y) and x.div(y, rounding_mode=None) are two overloads


class TensorMethods:
    __slots__ = ()

    # -- arithmetic ----------------------------------------------------------------
    def add(self, other, alpha=1):
        return O.AddBackward0.apply(self, _operand(other, self), alpha)

    def sub(self, other, alpha=1):
        other = _operand(other, self)
        _check_bool_sub(self, other)
        return O.SubBackward0.apply(self, other, alpha)

    def mul(self, other):
        return O.MulBackward0.apply(self, _operand(other, self))

    def div(self, other, *, rounding_mode=_NO_MODE):
        if rounding_mode is not _NO_MODE:      # the rounding overload, its own node even for None (as PyTorch's)
            return _div_rounded(self, other, rounding_mode)
        return O.DivBackward0.apply(self, _operand(other, self))

    def pow(self, exponent):
        exponent = _operand(exponent, self)
        if isinstance(exponent, TensorMethods):
            return O.PowBackward1.apply(self, exponent)
        return O.PowBackward0.apply(self, exponent)

    def neg(self):
        if self._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                               "to invert a mask, use the `~` or `logical_not()` operator instead.")
        return O.NegBackward0.apply(self)

    __add__ = add
    __sub__ = sub
    __mul__ = mul
    __truediv__ = div
    __pow__ = pow
    __neg__ = neg
    negative = neg

    def __pos__(self):
        return self

    # numpy scalars on the left (np.float32(2) * x) defer to these, as they do to
    # PyTorch's, because of Tensor.__array_priority__. A numpy *array* on the left
    # is refused (NotImplemented), as PyTorch's reflected ops refuse it.
    def __radd__(self, other):
        return NotImplemented if isinstance(other, np.ndarray) else self.add(other)

    def __rmul__(self, other):
        return NotImplemented if isinstance(other, np.ndarray) else self.mul(other)

    def __rsub__(self, other):
        if isinstance(other, np.ndarray):
            return NotImplemented
        other = _operand(other, self)
        if isinstance(other, TensorMethods):
            return other.sub(self)
        _check_bool_sub(self, other)
        return O.RsubBackward1.apply(self, other)

    def __rtruediv__(self, other):
        other = _operand(other, self)
        if isinstance(other, TensorMethods):
            return other.div(self)
        return O.MulBackward0.apply(O.ReciprocalBackward0.apply(self), other)  # as PyTorch does

    def __rpow__(self, other):
        if isinstance(other, np.ndarray):
            return NotImplemented
        other = _operand(other, self)
        if isinstance(other, TensorMethods):
            return other.pow(self)
        return O.PowBackward2.apply(self, other)

    def reciprocal(self):
        return O.ReciprocalBackward0.apply(self)

    def exp(self):
        return O.ExpBackward0.apply(self)

    def log(self):
        return O.LogBackward0.apply(self)

    def sqrt(self):
        return O.SqrtBackward0.apply(self)

    def abs(self):
        return O.AbsBackward0.apply(self)

    __abs__ = abs

    def sgn(self):
        return O.SgnBackward0.apply(self)

    def sin(self):
        return O.SinBackward0.apply(self)

    def cos(self):
        return O.CosBackward0.apply(self)

    def tanh(self):
        return O.TanhBackward0.apply(self)

    def sigmoid(self):
        return O.SigmoidBackward0.apply(self)

    def relu(self):
        return O.ReluBackward0.apply(self)

    # log1p ... frac: ops/unary.py
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

    def floor(self):
        return O.FloorBackward0.apply(self)

    def ceil(self):
        return O.CeilBackward0.apply(self)

    def round(self, *, decimals=None):
        if decimals is not None:
            return O.RoundBackward1.apply(self, int(decimals))
        return O.RoundBackward0.apply(self)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return O.unique.unique(self, sorted, return_inverse, return_counts, dim)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return O.unique.unique_consecutive(self, return_inverse, return_counts, dim)

    def det(self):
        return O.LinalgDetBackward0.apply(self)

    def inverse(self):
        return O.LinalgInvExBackward0.apply(self)

    def bernoulli(self, p=None, *, generator=None):
        return O.bernoulli.bernoulli(self, p, generator=generator)

    def logcumsumexp(self, dim):
        return O.LogcumsumexpBackward0.apply(self, dim)

    def trunc(self):
        return O.TruncBackward0.apply(self)

    def frac(self):
        return O.FracBackward0.apply(self)

    arcsin, arccos, arctan, fix = asin, acos, atan, trunc    # PyTorch's numpy-style aliases

    def clamp(self, min=None, max=None):
        return O.ClampBackward1.apply(self, min, max)

    clip = clamp

    def square(self):
        return O.PowBackward0.apply(self, 2)

    # -- products ----------------------------------------------------------------
    def dot(self, other):
        return O.DotBackward0.apply(self, other)

    def mm(self, mat2):
        return O.MmBackward0.apply(self, mat2)

    def mv(self, vec):
        return O.MvBackward0.apply(self, vec)

    def matmul(self, other):
        return O.matmul(self, _operand(other, self))

    def __matmul__(self, other):
        # tensor @ array is numpy's matmul in PyTorch (through __array__), a
        # Tensor through __array_wrap__
        return NotImplemented if isinstance(other, np.ndarray) else O.matmul(self, _operand(other, self))

    def __rmatmul__(self, other):
        if isinstance(other, (np.ndarray, np.number)):   # PyTorch: numpy's TypeError
            return NotImplemented
        return _operand(other, self).matmul(self)

    # -- reductions ----------------------------------------------------------------
    @numpy_names
    def sum(self, dim=None, keepdim=False, dtype=None, *, axis=None):   # axis: numpy's name, PyTorch takes it
        if dtype is not None and not dtypes.as_dtype(dtype).is_floating_point and self._requires_grad \
                and grad_mode.is_grad_enabled():   # an integer sum of a tensor in a graph: PyTorch refuses
            raise RuntimeError(f"Autograd not support dtype: {dtypes.as_dtype(dtype).legacy_name}")
        t = self if dtype is None else self._cast(dtype)
        dim = dim if axis is None else axis
        if dim is None:
            return O.SumBackward0.apply(t)
        return O.SumBackward1.apply(t, dim, keepdim)

    @numpy_names
    def mean(self, dim=None, keepdim=False, dtype=None, *, axis=None):
        if dtype is not None and not dtypes.as_dtype(dtype).is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating "
                               f"point or complex dtype. Got: {dtypes.as_dtype(dtype).legacy_name}")
        t = self if dtype is None else self._cast(dtype)
        dim = dim if axis is None else axis
        if dim is None:
            return O.MeanBackward0.apply(t)
        return O.MeanBackward1.apply(t, dim, keepdim)

    @numpy_names
    def max(self, dim=None, keepdim=False):
        if isinstance(dim, TensorMethods):     # torch.max(x, y) is torch.maximum(x, y)
            return self.maximum(dim)
        if dim is None:
            return O.MaxBackward1.apply(self)
        return ReturnTypes("max", O.MaxBackward0.apply(self, dim, keepdim),
                           _argreduce(np.argmax, self, dim, keepdim))

    @numpy_names
    def min(self, dim=None, keepdim=False):
        if isinstance(dim, TensorMethods):     # torch.min(x, y) is torch.minimum(x, y)
            return self.minimum(dim)
        if dim is None:
            return O.MinBackward1.apply(self)
        return ReturnTypes("min", O.MinBackward0.apply(self, dim, keepdim),
                           _argreduce(np.argmin, self, dim, keepdim))

    @numpy_names
    def argmax(self, dim=None, keepdim=False, *, axis=None):   # axis: numpy's name, accepted by PyTorch
        return _argreduce(np.argmax, self, dim if axis is None else axis, keepdim)

    @numpy_names
    def argmin(self, dim=None, keepdim=False, *, axis=None):
        return _argreduce(np.argmin, self, dim if axis is None else axis, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False):
        if self._data.dtype.kind != "f":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        p = 2 if p in ("fro", None) else p
        return O.LinalgVectorNormBackward0.apply(self, p, dim, keepdim)

    def all(self):
        return self._wrap(np.array(self._data.all()))

    def any(self):
        return self._wrap(np.array(self._data.any()))

    # -- shapes ----------------------------------------------------------------
    def view(self, *shape):
        return O.ViewBackward0.apply(self, _shape_arg(shape), True)

    def reshape(self, *shape):
        shape = _shape_arg(shape)
        node = O.reshape_node(self._data, shape)   # View, ReshapeAlias or (a copy) UnsafeView, as PyTorch
        if node is O.UnsafeViewBackward0:
            return node.apply(O.CloneBackward0.apply(self), shape)
        return node.apply(self, shape)

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def flatten(self):
        return self if self.dim() == 1 else self.reshape(-1)   # PyTorch returns a 1-D tensor itself

    def t(self):
        return O.TBackward0.apply(self)

    # several outputs, one node (ops/multi_output.py)
    def unbind(self, dim=0):
        return O.multi_output.unbind(self, dim)

    def split(self, split_size, dim=0):
        return O.multi_output.split(self, split_size, dim)

    def split_with_sizes(self, split_sizes, dim=0):
        return O.multi_output.split_with_sizes(self, split_sizes, dim)

    def chunk(self, chunks, dim=0):
        return O.multi_output.chunk(self, chunks, dim)

    def tensor_split(self, indices_or_sections, dim=0):
        return O.multi_output.tensor_split(self, indices_or_sections, dim)

    @property
    def T(self):
        if self.dim() != 2:     # PyTorch 2.x deprecates .T except on matrices, but still permutes
            warnings.warn(T_0D_WARNING if self.dim() == 0 else T_ND_WARNING, UserWarning, stacklevel=2)
        return O.PermuteBackward0.apply(self, tuple(range(self.dim() - 1, -1, -1)))

    def transpose(self, dim0, dim1):
        return O.TransposeBackward0.apply(self, dim0, dim1)

    def permute(self, *dims):
        if not dims:
            raise TypeError('permute() missing 1 required positional arguments: "dims"')
        return O.PermuteBackward0.apply(self, _shape_arg(dims))

    def unsqueeze(self, dim):
        return O.UnsqueezeBackward0.apply(self, dim)

    def squeeze(self, dim=None):
        if dim is None:
            return O.SqueezeBackward0.apply(self)
        if isinstance(dim, (tuple, list)):
            return O.SqueezeBackward4.apply(self, tuple(dim))
        return O.SqueezeBackward1.apply(self, dim)

    def expand(self, *sizes):
        return O.ExpandBackward0.apply(self, _shape_arg(sizes))

    def expand_as(self, other):
        return self.expand(other.shape)

    # a few ops each, as in PyTorch (shape_functions.py)
    def select(self, dim, index):
        return shape_functions.select(self, dim, index)

    def narrow(self, dim, start, length):
        return shape_functions.narrow(self, dim, start, length)

    def movedim(self, source, destination):
        return shape_functions.movedim(self, source, destination)

    def swapaxes(self, axis0, axis1):
        return shape_functions.swapaxes(self, axis0, axis1)

    def broadcast_to(self, size):
        return shape_functions.broadcast_to(self, size)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return shape_functions.diff(self, n, dim, prepend, append)

    moveaxis, swapdims = movedim, swapaxes

    def sum_to_size(self, *size):
        """Sum the broadcast dims away, down to size (the reverse of expand);
        what the engine does to the gradient of a broadcast input."""
        size = _shape_arg(size)
        shape = self._data.shape
        lead = len(shape) - len(size)
        if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:])):
            raise RuntimeError(f"size {{{_dims(size)}}} is not expandable to size {{{_dims(shape)}}}.")
        if not size:        # PyTorch's sum_to: down to a 0-d tensor is a plain sum(), even of a 0-d one
            return self.sum()
        dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1)
        t = self.sum(dims, keepdim=True) if dims else self
        return t.view(size) if lead else t

    def __getitem__(self, index):
        return getitem(self, index)

    def __setitem__(self, index, value):
        setitem(self, index, _operand(value, self))

    def copy_(self, src):
        return self._inplace(O.CopyBackwards.apply, _operand(src, self))

    # -- comparisons (no gradient) ------------------------------------------------
    def _compare(self, op, other):
        other = _operand(other, self)
        b = other._data if isinstance(other, TensorMethods) else other
        if isinstance(other, TensorMethods):
            check_broadcast(self.shape, other.shape)
        return self._wrap(np.asarray(op(self._data, b)))

    def __eq__(self, other):
        if other is None:
            return False
        return self._compare(np.equal, other)

    def __ne__(self, other):
        if other is None:
            return True
        return self._compare(np.not_equal, other)

    def __lt__(self, other):
        return self._compare(np.less, other)

    def __le__(self, other):
        return self._compare(np.less_equal, other)

    def __gt__(self, other):
        return self._compare(np.greater, other)

    def __ge__(self, other):
        return self._compare(np.greater_equal, other)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def __and__(self, other):     # masks: (x == 0) & (y >= 0)
        return self._compare(np.bitwise_and, other)

    def __or__(self, other):
        return self._compare(np.bitwise_or, other)

    __rand__, __ror__ = __and__, __or__

    def equal(self, other):
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08):
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol))

    # --- added for torch.nn / next chapters (issue 8) ---
    def softmax(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        return O.SoftmaxBackward0.apply(t, dim)

    def log_softmax(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
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

    def __floordiv__(self, other):
        other = _operand(other, self)
        if isinstance(other, TensorMethods):
            return O.FloorDivide.apply(self, other)
        return O.FloorDivideScalar.apply(self, other)

    def __rfloordiv__(self, other):
        return O.FloorDivide.apply(_scalar_like(other, self), self)

    floor_divide = __floordiv__

    def remainder(self, other):
        other = _operand(other, self)
        if isinstance(other, TensorMethods):
            return O.RemainderBackward1.apply(self, other)
        return O.RemainderBackward0.apply(self, other)

    __mod__ = remainder

    def __rmod__(self, other):
        # PyTorch's 2 % x has no derivative formula: its node is NotImplemented
        return O.RemainderScalarSelf.apply(_scalar_like(other, self), self)

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
        value = value.item() if isinstance(value, TensorMethods) else value
        return O.MaskedFillBackward0.apply(self, np.broadcast_to(mask._data, self._data.shape), value)

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
        if isinstance(data, TensorMethods):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                          "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data._data
        return self._new(np.array(data, dtype=(dtypes.as_dtype(dtype) or self.dtype).np), requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_shape_arg(size), 0, dtype=dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_shape_arg(size), 1, dtype=dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_zeros(*size, dtype=dtype, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
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
        return O.Atan2Backward0.apply(self, other)

    arctan2 = atan2

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
        dim, indices = O.sorting.kth_indices(self._data, k, dim, keepdim)
        return ReturnTypes("kthvalue", O.KthvalueBackward0.apply(self, dim, keepdim, indices), self._wrap(indices))

    def median(self, dim=None, keepdim=False):
        if dim is None:
            return O.MedianBackward0.apply(self)
        size = self.shape[O.shape.check_dim(dim, self.dim())] if self.dim() else 1
        dim, indices = O.sorting.kth_indices(self._data, (size + 1) // 2, dim, keepdim)
        return ReturnTypes("median", O.MedianBackward1.apply(self, dim, keepdim, indices), self._wrap(indices))

    def masked_select(self, mask):
        return O.MaskedSelectBackward0.apply(self, mask._data)

    def index_add(self, dim, index, source, *, alpha=1):
        return O.IndexAddBackward0.apply(self, source, dim, index._data, alpha)

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
        return O.MaximumBackward0.apply(self, other)

    def minimum(self, other):
        return O.MinimumBackward0.apply(self, other)

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
        min = _operand(min, self)
        if isinstance(min, TensorMethods):
            return O.clamp_fmod.ClampMinBackward1.apply(self, min)
        return O.clamp_fmod.ClampMinBackward0.apply(self, min)

    def clamp_max(self, max):
        max = _operand(max, self)
        if isinstance(max, TensorMethods):
            return O.clamp_fmod.ClampMaxBackward1.apply(self, max)
        return O.clamp_fmod.ClampMaxBackward0.apply(self, max)

    def fmod(self, other):
        other = _operand(other, self)
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



class ReturnTypes(tuple):
    """torch.return_types.max(values=..., indices=...)"""

    def __new__(cls, name, values, indices):
        self = super().__new__(cls, (values, indices))
        self.name = name
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self.name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def _argreduce(fn, t, dim, keepdim):
    if dim is None:
        return t._wrap(np.asarray(fn(t._data), dtype=np.int64))
    d = O.shape.check_dim(dim, t.dim())
    out = fn(t._data, axis=d)
    return t._wrap(np.asarray(np.expand_dims(out, d) if keepdim else out, dtype=np.int64))


def _operand(x, like):
    """Tensors and Python numbers pass through; numpy scalars become Python
    numbers (np.float64 is a float subclass, but numpy would compute with it in
    float64); numpy arrays become tensors (plain ones, made by like._wrap).
    Lists do not: PyTorch raises a TypeError."""
    if isinstance(x, TensorMethods):   # the common case first
        return x
    if isinstance(x, np.bool_):   # PyTorch's argument parser reads a numpy bool as a float
        return float(x)
    if isinstance(x, np.number):
        return x.item()
    if isinstance(x, TensorMethods) or isinstance(x, (int, float, bool)):
        return x
    if isinstance(x, np.ndarray):
        return like._wrap(infer_array(x))
    raise TypeError(f"unsupported operand type: '{type(x).__name__}'")


def infer_array(data, dtype=None):
    """numpy array for Python data, with PyTorch's default dtypes: Python
    floats give float32 (the default dtype), ints int64, bools bool; numpy
    arrays keep their dtype. With a dtype given, Python floats stay doubles
    (the caller casts from them)."""
    if isinstance(data, (np.ndarray, np.generic)):
        return np.array(data)
    arr = np.array(unwrap(data))
    if arr.dtype.kind in "uO" or (arr.dtype.kind == "f" and arr.size and np.abs(arr).max() >= 2.0**63):
        _check_long(data)
    if arr.dtype.kind == "f" or arr.size == 0:
        if dtype is None:    # not via float32: tensor([1.59], dtype=float64) is exactly 1.59, as PyTorch's
            arr = arr.astype(dtypes.default_float.np)
    elif arr.dtype.kind in "iu":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind != "b":
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    return arr


def _check_long(data):
    """PyTorch unpacks the Python ints of an integer tensor as C long longs;
    numpy would wrap 2**63 to -2**63 or give a uint64 or object array."""
    stack, ints, has_float = [data], [], False
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, float):
            has_float = True
        elif isinstance(v, int) and not isinstance(v, bool):
            ints.append(v)
    if not has_float and any(not -2**63 <= v < 2**63 for v in ints):
        raise ValueError("Overflow when unpacking long long")


def unwrap(x):
    """Tensors (also inside lists) replaced by their arrays."""
    if isinstance(x, TensorMethods):
        return x._data
    if isinstance(x, (list, tuple)):
        return [unwrap(v) for v in x]
    return x


def _shape_arg(shape):
    """view(2, 3), view((2, 3)) and view(torch.Size([2, 3])) all mean (2, 3)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _check_bool_sub(a, b):
    """PyTorch refuses - on bools: it is almost always a mask that wanted ~."""
    bools = [isinstance(v, (bool, np.bool_)) or (isinstance(v, TensorMethods) and v._data.dtype == np.bool_)
             for v in (a, b)]
    if all(bools):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if any(bools):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                           "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


# --- added for torch.nn / next chapters (issue 8) ---
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


def _tensor_arg(other, name):
    """PyTorch's TypeError for a number where only a tensor is taken (x.fmax(2))."""
    if not isinstance(other, TensorMethods):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    return other


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


def _div_rounded(self, other, rounding_mode):
    if rounding_mode not in O.rounding_modes.MODES:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    other = _operand(other, self)
    if isinstance(other, TensorMethods):
        return O.DivBackward2.apply(self, other, rounding_mode)
    return O.DivBackward3.apply(self, other, rounding_mode)
