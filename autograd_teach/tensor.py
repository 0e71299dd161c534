"""The Tensor: a numpy array plus the autograd bookkeeping PyTorch keeps.

    _data          the numpy array (the "storage"; views share it)
    requires_grad  whether ops on it are recorded
    grad_fn        the Node that made it (None on leaves)
    grad           where backward accumulates its gradient (leaves only)
    _version       bumped by every in-place op; shared with views and detach()
                   so that backward can tell when a saved tensor was modified

Arithmetic goes through the op classes in `ops/`; this file only dispatches.
"""
import warnings
import weakref

import numpy as np

from . import dtypes, engine, function, grad_mode, printing
from . import ops as O
from .function import AccumulateGrad, RemovableHandle, check_broadcast
from .size import Size

_NUMBER = (int, float, bool, np.number, np.bool_)

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
T_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
    "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
T_0D_WARNING = (
    "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)")


class device:
    def __init__(self, type="cpu"):
        self.type = type

    def __repr__(self):
        return f"device(type='{self.type}')"

    def __str__(self):
        return self.type

    def __eq__(self, other):
        return str(self) == str(other)

    __hash__ = object.__hash__


_CPU = device("cpu")


class Tensor:
    __slots__ = ("_data", "_requires_grad", "grad_fn", "_grad", "_version_box", "_base",
                 "_view_chain", "_retains_grad", "_acc", "_hooks", "__weakref__")

    def __init__(self, *args):
        # torch.Tensor([1, 2]) copies data as float32; torch.Tensor(2, 3) makes a 2x3 tensor.
        if len(args) == 1 and not isinstance(args[0], int):
            data = np.array(_unwrap(args[0]), dtype=np.float32)
        else:
            data = np.zeros(tuple(args), dtype=np.float32)
        self._init(data)

    @classmethod
    def _make(cls, data):
        t = cls.__new__(cls)
        t._init(data)
        return t

    def _init(self, data):
        self._data = data
        self._requires_grad = False
        self.grad_fn = None
        self._grad = None
        self._version_box = [0]
        self._base = None
        self._view_chain = ()   # for a view: the (op class, params) that made it from _base
        self._retains_grad = False
        self._acc = None
        self._hooks = None      # a leaf's register_hook() hooks (a non-leaf's live on its grad_fn)

    # -- attributes ------------------------------------------------------------
    @property
    def dtype(self):
        return dtypes._BY_NUMPY[self._data.dtype]

    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[O.shape.check_dim(dim, self._data.ndim)]

    def dim(self):
        return self._data.ndim

    ndim = property(dim)

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    def is_floating_point(self):
        return self._data.dtype.kind == "f"

    @property
    def device(self):
        return _CPU

    @property
    def is_cuda(self):
        return False

    @property
    def _version(self):
        return self._version_box[0]

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.grad_fn is not None:
            if not value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to "
                                   "use a computed variable in a subgraph that doesn't require differentiation "
                                   "use var_no_grad = var.detach().")
            return
        if value and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad=True):
        if requires_grad and self.grad_fn is None and self._data.dtype.kind != "f":
            # PyTorch words this one differently from the attribute's
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value.dtype is not self.dtype:
                raise RuntimeError(f"attempting to assign a gradient with dtype '{dtypes.c_name(value.dtype)}' to a "
                                   f"tensor with grad_dtype '{self.dtype.legacy_name}'. The gradient must match the "
                                   "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                                   "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set "
                                   "grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may "
                                   "break downstream systems that assume they match.")
            if value.shape != self.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{_dims(value.shape)}' to a tensor "
                                   f"of size '{_dims(self.shape)}'. Please ensure that the gradient and the "
                                   "tensor are the same size")
        self._grad = value

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep the gradient of a non-leaf in .grad after backward (a no-op on leaves)."""
        if self.grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        if not self._retains_grad:
            self._retains_grad = True
            node = self.grad_fn
            if node._retain_refs is None:
                node._retain_refs = []
            node._retain_refs.append(weakref.ref(self))

    def register_hook(self, hook):
        """Call hook(grad) whenever the gradient w.r.t. this tensor is computed;
        if it returns a tensor, that is used instead. Runs before accumulation
        into a leaf's .grad and before retain_grad() keeps it, as in PyTorch."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        else:
            if self.grad_fn._pre_hooks is None:
                self.grad_fn._pre_hooks = []
            hooks = self.grad_fn._pre_hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    @property
    def data(self):
        """The same storage, cut off from autograd, with a version counter of
        its own: changes made through .data are invisible to backward."""
        return Tensor._make(self._data)

    @data.setter
    def data(self, value):
        self._data = value._data

    def detach(self):
        """The same storage and version counter, no history, no grad."""
        t = Tensor._make(self._data)
        t._version_box = self._version_box
        return t

    def detach_(self):
        self.grad_fn = None
        self._requires_grad = False
        return self

    def _grad_edge(self):
        """The (node, input_nr) that a new op's next_functions points to."""
        if self.grad_fn is not None:
            return (self.grad_fn, 0)
        if not self._requires_grad:
            return (None, 0)
        acc = self._acc() if self._acc is not None else None
        if acc is None:  # one AccumulateGrad per leaf, alive while a graph uses it
            acc = AccumulateGrad(self)
            self._acc = weakref.ref(acc)
        return (acc, 0)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None, record=None):
        from .autograd import backward
        backward(self, gradient, retain_graph, create_graph, inputs=inputs, record=record)

    # -- conversion and printing -------------------------------------------------
    def __repr__(self):
        if self.grad_fn is not None:
            suffixes = [f"grad_fn=<{type(self.grad_fn).__name__}>"]
        elif self._requires_grad:
            suffixes = ["requires_grad=True"]
        else:
            suffixes = []
        return printing.format_tensor(self._data, self.dtype.name, suffixes)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def untyped_storage(self):
        return _Storage(self._data)

    def data_ptr(self):
        return self._data.__array_interface__["data"][0]

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self):
        if self._data.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._data.size > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self._data.dtype.kind not in "iub":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = object.__hash__

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, dtypes.dtype):
                dtype = a
        return self if dtype is None else self._cast(dtype)

    def _cast(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        return self if dtype is self.dtype else O.ToCopyBackward0.apply(self, dtype.np)

    def float(self):
        return self._cast(dtypes.float32)

    def double(self):
        return self._cast(dtypes.float64)

    def long(self):
        return self._cast(dtypes.int64)

    def int(self):
        return self._cast(dtypes.int32)

    def bool(self):
        return self._cast(dtypes.bool_)

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{self.dtype._tensor_type}"
        return self._cast(dtype)

    def cpu(self):
        return self

    def contiguous(self):
        return self

    def clone(self):
        return O.CloneBackward0.apply(self)

    # -- arithmetic ----------------------------------------------------------------
    def add(self, other, alpha=1):
        return O.AddBackward0.apply(self, _operand(other), alpha)

    def sub(self, other, alpha=1):
        other = _operand(other)
        _check_bool_sub(self, other)
        return O.SubBackward0.apply(self, other, alpha)

    def mul(self, other):
        return O.MulBackward0.apply(self, _operand(other))

    def div(self, other):
        return O.DivBackward0.apply(self, _operand(other))

    def pow(self, exponent):
        exponent = _operand(exponent)
        if isinstance(exponent, Tensor):
            return O.PowBackward1.apply(self, exponent)
        return O.PowBackward0.apply(self, exponent)

    def neg(self):
        if self._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                               "to invert a mask, use the `~` or `logical_not()` operator instead.")
        return O.NegBackward0.apply(self)

    __add__ = __radd__ = add
    __sub__ = sub
    __mul__ = __rmul__ = mul
    __truediv__ = div
    __pow__ = pow
    __neg__ = neg
    negative = neg

    def __pos__(self):
        return self

    def __rsub__(self, other):
        other = _operand(other)
        if isinstance(other, Tensor):
            return other.sub(self)
        _check_bool_sub(self, other)
        return O.RsubBackward1.apply(self, other)

    def __rtruediv__(self, other):
        other = _operand(other)
        if isinstance(other, Tensor):
            return other.div(self)
        return O.MulBackward0.apply(O.ReciprocalBackward0.apply(self), other)  # as PyTorch does

    def __rpow__(self, other):
        other = _operand(other)
        if isinstance(other, Tensor):
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
        """Picks dot / mv / mm / batched matmul by dimensions, as torch.matmul."""
        other = _operand(other)
        a, b = self.dim(), other.dim()
        if a == 0 or b == 0:
            raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
        if a == 1 and b == 1:
            return self.dot(other)
        if a == 2 and b == 1:
            return self.mv(other)
        if a == 2 and b == 2:
            return self.mm(other)
        if a == 1 and b == 2:   # PyTorch: unsqueeze, mm, squeeze
            return O.SqueezeBackward4.apply(self.unsqueeze(0).mm(other), (0,))
        if b <= 2:   # PyTorch folds self's batch dims into rows and runs mm or mv: their errors
            rows = (int(np.prod(self.shape[:-1])), self.shape[-1])
            (O.MvBackward0 if b == 1 else O.MmBackward0).check(rows, other.shape, self.dtype, other.dtype)
        lhs = self.unsqueeze(0) if a == 1 else self
        rhs = other.unsqueeze(-1) if b == 1 else other
        out = O.BmmBackward0.apply(lhs, rhs)
        if a == 1:
            out = out.squeeze(-2)
        if b == 1:
            out = out.squeeze(-1)
        return out

    __matmul__ = matmul

    def __rmatmul__(self, other):
        return _operand(other).matmul(self)

    # -- reductions ----------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        if dim is None:
            return O.SumBackward0.apply(t)
        return O.SumBackward1.apply(t, dim, keepdim)

    def mean(self, dim=None, keepdim=False, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        if dim is None:
            return O.MeanBackward0.apply(t)
        return O.MeanBackward1.apply(t, dim, keepdim)

    def max(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            raise NotImplementedError("autograd_teach: elementwise max of two tensors is torch.maximum, "
                                      "which is not implemented")
        if dim is None:
            return O.MaxBackward1.apply(self)
        return _ReturnTypes("max", O.MaxBackward0.apply(self, dim, keepdim),
                            _argreduce(np.argmax, self, dim, keepdim))

    def min(self, dim=None, keepdim=False):
        if dim is None:
            return O.MinBackward1.apply(self)
        return _ReturnTypes("min", O.MinBackward0.apply(self, dim, keepdim),
                            _argreduce(np.argmin, self, dim, keepdim))

    def argmax(self, dim=None, keepdim=False):
        return _argreduce(np.argmax, self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return _argreduce(np.argmin, self, dim, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False):
        if self._data.dtype.kind != "f":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        p = 2 if p in ("fro", None) else p
        return O.LinalgVectorNormBackward0.apply(self, p, dim, keepdim)

    def all(self):
        return Tensor._make(np.array(self._data.all()))

    def any(self):
        return Tensor._make(np.array(self._data.any()))

    # -- shapes ----------------------------------------------------------------
    def view(self, *shape):
        return O.ViewBackward0.apply(self, _shape_arg(shape), True)

    def reshape(self, *shape):
        return O.ViewBackward0.apply(self, _shape_arg(shape))

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def flatten(self):
        return self if self.dim() == 1 else self.reshape(-1)   # PyTorch returns a 1-D tensor itself

    def t(self):
        return O.TBackward0.apply(self)

    @property
    def T(self):
        if self.dim() != 2:     # PyTorch 2.x deprecates .T except on matrices, but still permutes
            warnings.warn(T_0D_WARNING if self.dim() == 0 else T_ND_WARNING, UserWarning, stacklevel=2)
        return O.PermuteBackward0.apply(self, tuple(range(self.dim() - 1, -1, -1)))

    def transpose(self, dim0, dim1):
        return O.TransposeBackward0.apply(self, dim0, dim1)

    def permute(self, *dims):
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

    def __getitem__(self, index):
        if self.dim() == 0 and isinstance(index, (int, np.integer, slice)) and not isinstance(index, bool):
            # PyTorch sends a lone int or slice straight to select / slice, which refuse a 0-d tensor
            if isinstance(index, slice):
                raise IndexError("slice() cannot be applied to a 0-dim tensor.")
            return O.SelectBackward0.apply(self, 0, int(index))   # "invalid index of a 0-dim tensor..."
        index = index if isinstance(index, tuple) else (index,)
        if any(_is_advanced(i) for i in index):
            return O.IndexBackward0.apply(self, _np_index(index))
        # Basic indexing: one view node per indexed dim, as PyTorch records it.
        n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
        if n_real > self.dim():
            raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
        t, dim = self, 0
        for i in index:
            if i is Ellipsis:
                dim += self.dim() - n_real
            elif i is None:
                t, dim = O.UnsqueezeBackward0.apply(t, dim), dim + 1
            elif isinstance(i, slice):
                if i != slice(None):
                    t = O.SliceBackward0.apply(t, dim, _int_slice(i))
                dim += 1
            elif isinstance(i, (int, np.integer)) or (isinstance(i, Tensor) and i.dim() == 0):
                t = O.SelectBackward0.apply(t, dim, int(i))
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                                 f"Variables are valid indices (got {type(i).__name__})")
        return t if t is not self else O.SliceBackward0.apply(self, 0, slice(None)) if self.dim() else self

    def __setitem__(self, index, value):
        idx = _np_index(index if isinstance(index, tuple) else (index,))
        self._inplace(lambda src, v: O.CopySlices.apply(src, v, (), idx), _operand(value), view=True)

    # -- comparisons (no gradient) ------------------------------------------------
    def _compare(self, op, other):
        other = _operand(other)
        b = other._data if isinstance(other, Tensor) else other
        if isinstance(other, Tensor):
            check_broadcast(self.shape, other.shape)
        return Tensor._make(np.asarray(op(self._data, b)))

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

    def equal(self, other):
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08):
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol))

    # -- in-place ops ------------------------------------------------------------
    def _check_inplace(self, view=False):
        if not grad_mode._enabled:
            return
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(("a view of a leaf Variable" if view else "a leaf Variable") +
                               " that requires grad is being used in an in-place operation.")
        base = self._base
        if base is not None and base._requires_grad and base.grad_fn is None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                               "operation.")

    def _snapshot(self):
        """A copy of the values with the same history: what a node must see of
        self from before an in-place write."""
        t = Tensor._make(self._data.copy(order="K"))
        t.grad_fn, t._requires_grad, t._acc = self.grad_fn, self._requires_grad, self._acc
        return t

    def _take_history(self, node):
        """After an in-place op inside a graph, node made self's new values."""
        self.grad_fn, self._requires_grad = node, True
        if self._retains_grad:   # the retained gradient now comes from the new node
            self._retains_grad = False
            self.retain_grad()

    def _inplace(self, op, *args, view=False):
        """Run op out of place, write the result into self's storage, bump the
        version, and (inside a graph) make the new node self's grad_fn. On a
        view inside a graph, the base's history changes too, as in PyTorch: the
        base becomes CopySlices(old base, result), and the view is re-derived
        from the new base."""
        self._check_inplace(view)
        needs_graph = grad_mode._enabled and (
            self._requires_grad or any(isinstance(a, Tensor) and a._requires_grad for a in args))
        src = self._snapshot() if needs_graph else self
        result = op(src, *args)
        if result.dtype is not self.dtype and not np.can_cast(result._data.dtype, self._data.dtype, "same_kind"):
            raise RuntimeError(f"result type {result.dtype.legacy_name} can't be cast to the desired output "
                               f"type {self.dtype.legacy_name}")
        if result.shape != self.shape:
            raise RuntimeError(f"output with shape {_dims(self.shape)} doesn't match the broadcast shape "
                               f"{_dims(result.shape)}")
        if needs_graph and self._base is not None and result.grad_fn is not None:
            base = self._base
            new_base = O.CopySlices.apply(base._snapshot(), result, self._view_chain, Ellipsis)
            base._data[...] = new_base._data        # writes self's region too: it is a view
            base._version_box[0] += 1
            base._take_history(new_base.grad_fn)
            view = base
            for cls, params in self._view_chain:
                view = cls.apply(view, *params)
            self._take_history(view.grad_fn)
            return self
        self._data[...] = result._data
        self._version_box[0] += 1
        if result.grad_fn is not None:
            self._take_history(result.grad_fn)
        return self

    def add_(self, other, alpha=1):
        return self._inplace(Tensor.add, _operand(other), alpha)

    def sub_(self, other, alpha=1):
        return self._inplace(Tensor.sub, _operand(other), alpha)

    def mul_(self, other):
        return self._inplace(Tensor.mul, _operand(other))

    def div_(self, other):
        return self._inplace(Tensor.div, _operand(other))

    def pow_(self, exponent):
        return self._inplace(Tensor.pow, _operand(exponent))

    def clamp_(self, min=None, max=None):
        return self._inplace(Tensor.clamp, min, max)

    def zero_(self):
        return self._inplace(O.ZeroBackward0.apply)

    def fill_(self, value):
        return self._inplace(O.FillBackward2.apply, float(value) if isinstance(value, Tensor) else value)

    def copy_(self, src):
        return self._inplace(lambda dst, s: O.CopySlices.apply(dst, s, (), Ellipsis), _operand(src))

    def uniform_(self, a=0.0, b=1.0):
        return self._inplace(O.UniformBackward0.apply, a, b)

    def normal_(self, mean=0.0, std=1.0):
        return self._inplace(O.NormalBackward0.apply, mean, std)

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_

    # --- added for torch.nn / next chapters (issue 8) ---
    def softmax(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        return O.SoftmaxBackward0.apply(t, dim)

    def log_softmax(self, dim, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        return O.LogSoftmaxBackward0.apply(t, dim)

    def prod(self, dim=None, keepdim=False, dtype=None):
        t = self if dtype is None else self._cast(dtype)
        if dim is None:
            return O.ProdBackward0.apply(t)
        return O.ProdBackward1.apply(t, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return O.VarBackward0.apply(self, *_var_args(dim, unbiased, keepdim, correction))

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return O.StdBackward0.apply(self, *_var_args(dim, unbiased, keepdim, correction))

    def __floordiv__(self, other):
        other = _operand(other)
        if isinstance(other, Tensor):
            return _FloorDivide.apply(self, other)
        return _FloorDivideScalar.apply(self, other)

    def __rfloordiv__(self, other):
        return _FloorDivide.apply(_scalar_like(other, self), self)

    floor_divide = __floordiv__

    def remainder(self, other):
        other = _operand(other)
        if isinstance(other, Tensor):
            return O.RemainderBackward1.apply(self, other)
        return O.RemainderBackward0.apply(self, other)

    __mod__ = remainder

    def __rmod__(self, other):
        # PyTorch's 2 % x has no derivative formula: its node is NotImplemented
        return _RemainderScalarSelf.apply(_scalar_like(other, self), self)

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
        value = value.item() if isinstance(value, Tensor) else value
        return O.MaskedFillBackward0.apply(self, np.broadcast_to(mask._data, self._data.shape), value)

    def masked_fill_(self, mask, value):
        return self._inplace(Tensor.masked_fill, mask, value)

    def exp_(self):
        return self._inplace(Tensor.exp)

    def log_(self):
        return self._inplace(Tensor.log)

    def sqrt_(self):
        return self._inplace(Tensor.sqrt)

    def abs_(self):
        return self._inplace(Tensor.abs)

    def neg_(self):
        return self._inplace(Tensor.neg)

    def reciprocal_(self):
        return self._inplace(Tensor.reciprocal)

    def sin_(self):
        return self._inplace(Tensor.sin)

    def cos_(self):
        return self._inplace(Tensor.cos)

    def tanh_(self):
        return self._inplace(Tensor.tanh)

    def sigmoid_(self):
        return self._inplace(Tensor.sigmoid)

    def relu_(self):
        return self._inplace(Tensor.relu)

    def square_(self):
        return self._inplace(Tensor.square)

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    def remainder_(self, other):
        return self._inplace(Tensor.remainder, _operand(other))

    def is_contiguous(self, memory_format=None):
        return self._data.flags.c_contiguous

    def stride(self, dim=None):
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        if dim is None:
            return strides
        return strides[O.shape.check_dim(dim, self._data.ndim)]

    def isnan(self):
        return Tensor._make(np.isnan(self._data))

    def isinf(self):
        return Tensor._make(np.isinf(self._data))

    def isfinite(self):
        return Tensor._make(np.isfinite(self._data))


function.Tensor = Tensor


class _Storage:
    """What untyped_storage() returns: enough to compare data_ptr()s."""

    def __init__(self, data):
        while isinstance(data.base, np.ndarray):
            data = data.base
        self._data = data

    def data_ptr(self):
        return self._data.__array_interface__["data"][0]

    def nbytes(self):
        return self._data.nbytes

    def size(self):
        return self._data.nbytes


class _ReturnTypes(tuple):
    """torch.return_types.max(values=..., indices=...)"""

    def __new__(cls, name, values, indices):
        self = super().__new__(cls, (values, indices))
        self._name = name
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def _argreduce(fn, t, dim, keepdim):
    if dim is None:
        return Tensor._make(np.asarray(fn(t._data), dtype=np.int64))
    d = O.shape.check_dim(dim, t.dim())
    out = fn(t._data, axis=d)
    return Tensor._make(np.asarray(np.expand_dims(out, d) if keepdim else out, dtype=np.int64))


def _operand(x):
    """Tensors and Python numbers pass through; lists and arrays become tensors."""
    if isinstance(x, Tensor) or isinstance(x, (int, float, bool)):
        return x
    if isinstance(x, (np.number, np.bool_)):
        return x.item()
    if isinstance(x, (list, tuple, np.ndarray)):
        from .creation import tensor
        return tensor(x)
    raise TypeError(f"unsupported operand type: '{type(x).__name__}'")


def _unwrap(x):
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (list, tuple)):
        return [_unwrap(v) for v in x]
    return x


def _shape_arg(shape):
    """view(2, 3), view((2, 3)) and view(torch.Size([2, 3])) all mean (2, 3)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _is_advanced(i):
    return (isinstance(i, (list, np.ndarray)) or (isinstance(i, Tensor) and i.dim() > 0)
            or isinstance(i, (bool, np.bool_)))


def _np_index(index):
    out = []
    for i in index:
        if isinstance(i, Tensor):
            out.append(i._data)
        elif isinstance(i, list):
            out.append(np.asarray(i))
        elif isinstance(i, float):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             "Variables are valid indices (got float)")
        else:
            out.append(i)
    return tuple(out) if len(out) != 1 else out[0]


def _int_slice(s):
    return slice(*(None if v is None else int(v) for v in (s.start, s.stop, s.step)))


def _check_bool_sub(a, b):
    """PyTorch refuses - on bools: it is almost always a mask that wanted ~."""
    bools = [isinstance(v, (bool, np.bool_)) or (isinstance(v, Tensor) and v._data.dtype == np.bool_)
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
    return Tensor._make(np.array(number, dtype=dtypes.result_type(t, number).np))


class _NoDerivative(function.Function):
    """Ops PyTorch gives no derivative formula: their node prints as
    <NotImplemented> and backward through it raises."""
    inputs = ("self", "other")
    elementwise = True

    def backward(self, grad):
        raise RuntimeError(f"derivative for aten::{self._op} is not implemented")


class _FloorDivide(_NoDerivative):
    _op = "floor_divide"

    @function.quiet
    def forward(self, a, b):
        if np.asarray(a).dtype.kind in "iub" and np.asarray(b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return np.floor_divide(a, b)


class _FloorDivideScalar(_FloorDivide):
    """x // 2: the number is not an input of the node"""
    inputs = ("self",)
    elementwise = False
    promote_params = True


class _RemainderScalarSelf(_NoDerivative):
    _op = "remainder"

    @function.quiet
    def forward(self, a, b):
        if b.dtype.kind in "iub" and np.asarray(b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return np.mod(a, b)


_FloorDivide.__name__ = _FloorDivideScalar.__name__ = _RemainderScalarSelf.__name__ = "NotImplemented"
