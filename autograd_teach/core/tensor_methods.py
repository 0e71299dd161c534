"""The Tensor methods that run an op: `x.mul(w)` is `MulBackward0.apply(x, w)`.

Each is one line that picks the op class (from ops/) and hands it the
arguments, as PyTorch's generated Tensor methods call its ATen ops. Numbers
pass through (`x * 2`); lists and arrays are PyTorch's TypeError. Tensor
(tensor.py) inherits them all: in PyTorch they come from torch._C.TensorBase.
The hottest (add, sub, mul, div, exp, tanh, sigmoid, relu, mm, matmul) call
`fast_paths.<name>`: their op's apply, its usual case written straight
(ops/fast_paths.py), which hands any other case to apply itself.
"""
import warnings

import numpy as np

from ..compat import dtypes, messages, nested, signatures
from . import grad_mode
from .. import ops as O
from ..ops import fast_paths   # (not O.fast_paths: 3.11 cannot specialize a read from ops, which has a __getattr__)
from ..compat import shape_functions
from .indexing import getitem, setitem
from .node import check_broadcast
from ..compat.numpy_names import numpy_names


class TensorMethods:
    __slots__ = ()

    # -- arithmetic ----------------------------------------------------------------
    def add(self, other, alpha=1):
        if alpha == 1:
            return fast_paths.add(self, other) if isinstance(other, TensorMethods) else \
                O.AddBackward0.apply(self, _operand(other, self, "add"))   # (the fast path takes tensors)
        return O.AddBackward0.apply(self, _operand(other, self, "add"), alpha)

    def sub(self, other, alpha=1):
        if not isinstance(other, TensorMethods):     # (x - y: no call to find it is a tensor)
            other = _operand(other, self, "sub")
        _check_bool_sub(self, other)
        if alpha != 1:
            return O.SubBackward0.apply(self, other, alpha)
        return fast_paths.sub(self, other) if isinstance(other, TensorMethods) else O.SubBackward0.apply(self, other)

    def mul(self, other):
        return fast_paths.mul(self, other) if isinstance(other, TensorMethods) else \
            O.MulBackward0.apply(self, _operand(other, self, "mul"))

    def div(self, other, **rounding_mode):
        if rounding_mode:       # div(rounding_mode=...), even None, is another op: ops/rounding_modes.py
            return O.rounding_modes.div(self, _operand(other, self, "div"), **rounding_mode)
        return fast_paths.div(self, other) if isinstance(other, TensorMethods) else \
            O.DivBackward0.apply(self, _operand(other, self, "div"))

    def pow(self, exponent):
        exponent = _operand(exponent, self, "pow")
        if isinstance(exponent, TensorMethods):
            return O.PowBackward1.apply(self, exponent)
        return O.PowBackward0.apply(self, exponent)

    def neg(self):
        if self._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                               "to invert a mask, use the `~` or `logical_not()` operator instead.")
        return O.NegBackward0.apply(self)

    __neg__ = neg     # the binary operators (x + y, ...) are ops/methods.py's: an array operand is numpy's
    negative = neg

    def __pos__(self):
        return self

    def reciprocal(self):
        return O.ReciprocalBackward0.apply(self)

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

    # the fast paths themselves (ops/fast_paths.py), as methods: a Python frame less per call
    exp, tanh, sigmoid, relu = fast_paths.exp, fast_paths.tanh, fast_paths.sigmoid, fast_paths.relu

    def clamp(self, min=None, max=None):
        if isinstance(min, TensorMethods) or isinstance(max, TensorMethods):
            return O.clamp_fmod.clamp(self, min, max)
        return O.ClampBackward1.apply(self, min, max)

    clip = clamp

    def square(self):
        return O.PowBackward0.apply(self, 2)

    # -- products ----------------------------------------------------------------
    def dot(self, other):
        return O.DotBackward0.apply(self, other)

    def mm(self, mat2):
        return fast_paths.mm(self, _tensor_arg(mat2, "mm", "mat2"))

    def mv(self, vec):
        return O.MvBackward0.apply(self, vec)

    def matmul(self, other):
        return fast_paths.matmul(self, _tensor_arg(other, "matmul"))

    # __matmul__: ops/fast_paths.py's matmul_operator (OpMethods, ops/methods.py), the 2x2 chain's forward
    def __rmatmul__(self, other):    # PyTorch: an array or numpy number @ tensor is numpy's TypeError
        return NotImplemented if isinstance(other, (np.ndarray, np.number)) else _operand(other, self).matmul(self)

    # -- reductions ----------------------------------------------------------------
    @numpy_names
    def sum(self, dim=None, keepdim=False, dtype=None, *, axis=None):   # axis: numpy's name, PyTorch takes it
        if dtype is not None and not dtypes.as_dtype(dtype).is_floating_point and self._requires_grad \
                and grad_mode.is_grad_enabled():   # an integer sum of a tensor in a graph: PyTorch refuses
            raise RuntimeError(f"Autograd not support dtype: {dtypes.as_dtype(dtype).legacy_name}")
        t = self if dtype is None else self._cast(dtype)
        dim = dim if axis is None else axis
        if dim is None:
            return fast_paths.sum(t)
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

    def flatten(self, start_dim=0, end_dim=-1):
        """Dims start_dim..end_dim merged into one (reshape: a view where it can be)."""
        start, end = (O.shape.check_dim(d, self.dim()) for d in (start_dim, end_dim))
        if self.dim() == 0:
            return self.reshape(1)
        if start > end:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if start == end:
            return self          # PyTorch returns the tensor itself
        return self.reshape(self.shape[:start] + (-1,) + self.shape[end + 1:])

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
            warnings.warn(messages.T_0D_WARNING if self.dim() == 0 else messages.T_ND_WARNING, UserWarning, stacklevel=2)
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
        return self._inplace(O.CopyBackwards.apply, _operand(src, self, "copy_"))

    # -- comparisons (no gradient) ------------------------------------------------
    def _compare(self, op, other, fn=None):
        other = _operand(other, self, fn)
        b = other._data if isinstance(other, TensorMethods) else other
        if isinstance(other, TensorMethods):
            check_broadcast(self.shape, other.shape)
        return self._wrap(np.asarray(op(self._data, b)))

    def __eq__(self, other):
        if isinstance(other, (TensorMethods, int, float, complex, np.ndarray, np.generic)):
            return self._compare(np.equal, other)
        return NotImplemented     # x == None, x == [1, 2]: Python's identity test, False, as PyTorch's

    def ne(self, other):
        return self._compare(np.not_equal, other, "ne")

    def lt(self, other):
        return self._compare(np.less, other, "lt")

    def le(self, other):
        return self._compare(np.less_equal, other, "le")

    def gt(self, other):
        return self._compare(np.greater, other, "gt")

    def ge(self, other):
        return self._compare(np.greater_equal, other, "ge")

    def eq(self, other):     # (x != y, x < y, x & y...: ops/methods.py's, as the arithmetic operators)
        return self._compare(np.equal, other, "eq")

    def equal(self, other):
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08):
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol))

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


def _tensor_arg(other, name, arg="other"):
    """other, which must be a tensor: x.fmax(2) and x.mm([..]) are PyTorch's TypeError."""
    if not isinstance(other, TensorMethods):
        raise messages.must_be_tensor(name, arg, 1, other)
    return other


def _operand(x, like, fn=None):
    """Tensors and Python numbers pass through; numpy scalars become Python
    numbers (np.float64 is a float subclass, but numpy would compute with it in
    float64); a numpy array becomes a tensor (like._wrap) where a value is read
    (x[i] = array), but an op's operand (fn: 'add', 'pow_', ...) is a tensor or
    a number only: anything else is PyTorch's TypeError (compat/signatures.py)."""
    if isinstance(x, TensorMethods):   # the common case first
        return x
    if isinstance(x, np.bool_):   # PyTorch's argument parser reads a numpy bool as a float
        return float(x)
    if isinstance(x, np.number):
        return x.item()
    if isinstance(x, (int, float, bool)):
        return x
    if isinstance(x, np.ndarray) and fn is None:
        return like._wrap(infer_array(x))
    if fn is None:
        raise TypeError(f"unsupported operand type: '{type(x).__name__}'")
    raise signatures.invalid_arguments(fn, (x,), TensorMethods)


def infer_array(data, dtype=None):
    """numpy array for Python data, with PyTorch's default dtypes: Python
    floats give float32 (the default dtype), ints int64, bools bool; numpy
    arrays keep their dtype. With a dtype given, Python floats stay doubles
    (the caller casts from them)."""
    if isinstance(data, (np.ndarray, np.generic)):
        return np.array(data)
    if isinstance(data, (list, tuple)) and any(isinstance(v, TensorMethods) and v._data.size != 1 for v in data):
        nested.check_nested(data)     # a list of tensors: PyTorch wants one-element tensors there
    try:
        arr = np.array(unwrap(data))
    except ValueError:                # a ragged list: PyTorch's error, not numpy's
        nested.check_nested(data)
        raise
    if arr.dtype.kind in "OUS":
        nested.check_nested(data)
    if arr.dtype.kind == "c":         # no complex tensors here: the error says so (Python's complex: complex64)
        dtypes.from_numpy(np.complex64)
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
