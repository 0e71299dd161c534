"""The Tensor: a numpy array plus the autograd bookkeeping PyTorch keeps.

    _data          the numpy array (the "storage"; views share it)
    requires_grad  whether ops on it are recorded
    grad_fn        the Node that made it (None on leaves)
    grad           where backward accumulates its gradient (leaves only)
    _version       bumped by every in-place op; shared with views and detach()
                   (views.py, the base class of Tensor, has that machinery)

Arithmetic goes through the op classes in `ops/`; Tensor only dispatches.
AccumulateGrad, the node that adds into a leaf's .grad, is in
accumulate_grad.py, with the attributes it writes (a base class of Tensor).

The protocol: the rest of the core reads a tensor's private members only
through these (tests/test_architecture.py checks it):

    t._data               the numpy array
    t._requires_grad      the flag, without the property's checks
    t._version_box        the version counter (a one-element list), shared by views
    Tensor._wrap(array)   a new plain tensor around an array (what ops return)
    t._grad_edge()        the (node, input_nr) a new node's edge points to
    t._output_nr          which output of its grad_fn t is (unbind, split: several)
    t._inference          made in inference mode: may not be saved for backward
    t._set_grad_fn(node)  make node the tensor's history (an op's output)
    t._track_view(...)    t is a view; t._inplace(op, ...) runs an in-place op;
    t._bump_version()     an in-place write happened (all three in views.py)
    dtypes._BY_NUMPY      numpy dtype -> torch dtype, for t.dtype on every op
"""
import copy
import warnings
import weakref

import numpy as np

from . import engine, grad_mode, views
from .. import ops as O
from ..compat import dtypes, messages, printing
from ..compat.hook_results import check_single_result
from ..compat.device import check as check_device, device
from ..compat.size import Size
from ..compat.storage import Storage
from ..ops.methods import OpMethods
from .accumulate_grad import AccumulateGrad, LeafGrad, RetainGrad
from .node import Node, RemovableHandle, dual
from .tensor_methods import TensorMethods, unwrap
from .views import InplaceOrView

_CPU = device("cpu")


class Tensor(InplaceOrView, LeafGrad, TensorMethods, OpMethods):
    __module__ = "autograd_teach"   # type(t) prints <class 'autograd_teach.Tensor'>, as torch.Tensor; pickle finds it there
    # What every tensor has is a slot; what only some have (views, leaves with
    # hooks...) is a class default, overridden per tensor when set.
    __slots__ = ("_data", "_requires_grad", "grad_fn", "_version_box", "__dict__", "__weakref__")
    _base = None            # for a view: the tensor it views
    _view_chain = ()        # ... and the (op class, params) that made it from _base
    _retains_grad = False
    _inference = False      # made under torch.inference_mode() (or a view or .data of such a tensor)
    _output_nr = 0          # which output of grad_fn this is: a, b = y.chunk(2) share one node
    _no_grad_view = False   # a view made under no_grad of a tensor that requires grad (its class says so: views.py)

    def __init__(self, *args):
        # torch.Tensor([1, 2]) copies data as float32; torch.Tensor(2, 3) makes a 2x3 tensor.
        if len(args) == 1 and not isinstance(args[0], int):
            data = np.array(unwrap(args[0]), dtype=np.float32)
        else:
            data = np.zeros(tuple(args), dtype=np.float32)
        self._init(data)

    @staticmethod
    def _wrap(data, version_box=None, grad_fn=None):
        """A plain Tensor around a numpy array (also for a subclass's ops)."""
        t = _new_tensor(Tensor)
        t._data = data
        t._version_box = [0] if version_box is None else version_box
        t.grad_fn, t._requires_grad, t._output_nr = grad_fn, grad_fn is not None, 0   # (3.11: own attrs read fast)
        t._inference = grad_mode.flags.inference if grad_mode.threads_in_inference else False
        return t

    def _init(self, data):
        self._data = data
        self._version_box = [0]
        self.grad_fn, self._requires_grad, self._inference = None, False, grad_mode.is_inference_mode_enabled()

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

    device = property(lambda self: _CPU)
    is_cuda = property(lambda self: False)

    output_nr = property(lambda self: self._output_nr)

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def requires_grad(self):
        return self._requires_grad

    def is_inference(self):
        return self._inference

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, (bool, np.bool_)):
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None:
            if not value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to "
                                   "use a computed variable in a subgraph that doesn't require differentiation "
                                   "use var_no_grad = var.detach().")
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        if value and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value and self._inference and not grad_mode.is_inference_mode_enabled():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._requires_grad = bool(value) or self._no_grad_view   # (a no_grad view requires grad as its base does)

    def requires_grad_(self, requires_grad=True):
        if not isinstance(requires_grad, (bool, np.bool_)):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, "
                            f"not {type(requires_grad).__name__}")
        if requires_grad and self.grad_fn is not None:
            return self   # a non-leaf already requires grad: PyTorch lets requires_grad_() pass
        if requires_grad and self.grad_fn is None and self._data.dtype.kind != "f":
            # PyTorch words this one differently from the attribute's
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(messages.NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            _check_grad(self, value)
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
            self.grad_fn.add_retains_grad_hook(RetainGrad(self), self._output_nr)

    def register_hook(self, hook):
        """Call hook(grad) whenever the gradient w.r.t. this tensor is computed;
        if it returns a tensor, that is used instead. Runs before accumulation
        into a leaf's .grad and before retain_grad() keeps it, as in PyTorch."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn.add_tensor_pre_hook(TensorHook(hook), self._output_nr)
        if self._hooks is None:
            self._hooks = []
            acc = self._acc() if self._acc is not None else None
            if acc is not None:      # a node made before the first hook: it runs them too
                acc.tensor_pre_hooks = self._hooks
        self._hooks.append(TensorHook(hook))
        return RemovableHandle(self._hooks, self._hooks[-1])

    def register_post_accumulate_grad_hook(self, hook):
        """Call hook(tensor) after each gradient is accumulated into this leaf's
        .grad (not by autograd.grad, which accumulates nothing); it returns None."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = []
        self._post_accumulate_hooks.append(hook)
        return RemovableHandle(self._post_accumulate_hooks, hook)

    @property
    def data(self):
        """The same storage, cut off from autograd, with a version counter of
        its own: changes made through .data are invisible to backward."""
        return self._same_storage(Tensor._wrap(self._data))

    @data.setter
    def data(self, value):
        if self._requires_grad and value._data.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        if value._data.dtype != self._data.dtype:    # as PyTorch's set_data: later graphs get a new AccumulateGrad
            self._acc = None
        self._data = value._data

    def detach(self):
        """The same storage and version counter, no history, no grad."""
        alias = self._same_storage(Tensor._wrap(self._data, self._version_box))
        self._share_views(alias)
        return alias

    def _same_storage(self, t):
        t._inference = self._inference   # the same storage: still an inference tensor, as in PyTorch
        return t

    def detach_(self):
        if self._base is not None:   # the view's history is its base's: cutting it here would lie
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
                               "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
                               "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
                               "function in torch/optim/optimizer.py as the solution.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    # -- the protocol with the node base (node.py) ---------------------------------
    def _grad_edge(self):
        """The (node, input_nr) that a new op's next_functions points to."""
        if self.grad_fn is not None:
            return (self.grad_fn, self._output_nr)
        if not self._requires_grad:
            return (None, 0)
        acc = ref() if (ref := self._acc) is not None else None   # (3.11 specializes this load, not self._acc())
        if acc is None:  # one AccumulateGrad per leaf, alive while a graph uses it
            acc = AccumulateGrad(self)
            self._acc = weakref.ref(acc)
        return (acc, 0)

    def _set_grad_fn(self, node, output_nr=0):
        self.grad_fn, self._requires_grad = node, True
        if output_nr or self._output_nr:
            self._output_nr = output_nr

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        autograd_backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # -- conversion and printing -------------------------------------------------
    def __repr__(self):
        if views.is_invalid(self):
            suffixes = ["grad_fn=<Invalid>"]    # its base changed in place: PyTorch prints this
        elif self.grad_fn is not None:
            suffixes = [f"grad_fn=<{type(self.grad_fn).__name__}>"]
        elif self._requires_grad:
            suffixes = ["requires_grad=True"]
        else:
            suffixes = []
        suffixes += dual.tangent_suffix(self) if dual.levels else []     # a dual tensor's tangent (forward mode)
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
        if self._requires_grad and grad_mode.is_grad_enabled():    # (under no_grad PyTorch hands the array out)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    # As PyTorch's Tensor: numpy defers binary operators to a tensor (so
    # np.float32(2) * x is x.__rmul__, a Tensor), and a numpy function applied
    # to a tensor gives a tensor back (np.sqrt(t)), bools as uint8 as there.
    __array_priority__ = 1000

    def __array_wrap__(self, array, context=None, return_scalar=False):
        return Tensor._wrap(np.asarray(array, dtype=np.uint8 if array.dtype == np.bool_ else None))

    def untyped_storage(self):
        return Storage(self._data)

    def data_ptr(self):
        return self._data.__array_interface__["data"][0]

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))     # as PyTorch: each row is an output of one UnbindBackward0

    def __bool__(self):
        if self._data.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._data.size > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item())

    def __float__(self):
        if self._requires_grad:
            warn_float_of_grad()
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __index__(self):
        if self._data.dtype.kind not in "iub":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = object.__hash__

    def to(self, *args, **kwargs):
        """to(dtype), to(device), to(device, dtype), to(other): the CPU is the only device here."""
        dtype, where = kwargs.get("dtype"), kwargs.get("device")
        for a in args:
            if isinstance(a, dtypes.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, (str, device, int)) and not isinstance(a, bool):
                where = a
        check_device(where)
        return self if dtype is None else self._cast(dtype)

    def cuda(self, device=None, non_blocking=False):
        check_device("cuda" if device is None else device)
        return self

    def _cast(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        if dtype is self.dtype:
            return self
        # integer and bool results never require grad in PyTorch: the cast cuts the graph
        return O.ToCopyBackward0.apply(self if dtype.is_floating_point else self.detach(), dtype.np)

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
            return f"torch.{self.dtype.legacy_name}Tensor"
        return self._cast(dtype)

    def cpu(self):
        return self

    def contiguous(self):
        # a copy, recorded as CloneBackward0, when the strides are not row-major, as in PyTorch
        return self if self._data.flags.c_contiguous else O.CloneBackward0.apply(self)

    def clone(self):
        return O.CloneBackward0.apply(self)

    # -- copy and pickle: a new leaf, never tied to this tensor's graph -----------
    def __reduce_ex__(self, protocol):
        """pickle and copy.copy: a leaf with the values and requires_grad (as
        PyTorch's: copy.copy shares the data, pickle does not)."""
        return (rebuilt, (views.plain_class(type(self)), self._data, self._requires_grad))

    def __deepcopy__(self, memo):
        return deepcopy_leaf(self, memo)


_new_tensor = object.__new__


def rebuilt(cls, data, requires_grad):
    """A new leaf of class cls (Tensor, Parameter) around data."""
    t = _new_tensor(cls)
    t._data, t._version_box, t.grad_fn, t._requires_grad = data, [0], None, requires_grad
    return t


def deepcopy_leaf(t, memo):
    """copy.deepcopy as PyTorch's: a leaf with its own copy of the data, of
    .grad and of a learner's own attributes; no history, no hooks, and above
    all not t's AccumulateGrad (sharing it would send the copy's gradients
    into t's .grad). A copy of a non-leaf is refused, as in PyTorch."""
    if t.grad_fn is not None:
        raise RuntimeError(messages.DEEPCOPY_NON_LEAF)
    if id(t) in memo:
        return memo[id(t)]
    new = memo[id(t)] = rebuilt(views.plain_class(type(t)), t._data.copy(order="K"), t._requires_grad)
    if t._grad is not None:
        new._grad = copy.deepcopy(t._grad, memo)
    for key, value in vars(t).items():     # ours are class defaults (hasattr(Tensor, key)); the rest is the learner's
        if not hasattr(Tensor, key):
            setattr(new, key, copy.deepcopy(value, memo))
    return new


Node.wrap = staticmethod(Tensor._wrap)    # how a node shows what it saved (node.py cannot import this module)

# torch.autograd.backward, beside grad in autograd/functional.py, which sets it
# here when the package loads, as node_call.py sets Node.call: the core cannot
# import autograd/ (which imports the core), and a hook on the Tensor class
# would show in dir(torch.Tensor), which must stay PyTorch's.
autograd_backward = None


def _check_grad(t, value):
    """What `t.grad = value` accepts, with PyTorch's messages."""
    if not isinstance(value, Tensor):
        raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                        f"{type(value).__name__}")
    if value.dtype is not t.dtype:
        raise RuntimeError(f"attempting to assign a gradient with dtype '{dtypes.c_name(value.dtype)}' to a "
                           f"tensor with grad_dtype '{t.dtype.legacy_name}'. The gradient must match the "
                           "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                           "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set "
                           "grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may "
                           "break downstream systems that assume they match.")
    if value.shape != t.shape:
        raise RuntimeError(f"attempting to assign a gradient of size '{_dims(value.shape)}' to a tensor "
                           f"of size '{_dims(t.shape)}'. Please ensure that the gradient and the "
                           "tensor are the same size")


class TensorHook:
    """A register_hook() hook as the engine calls it: on arrays, or on Tensors
    when the backward builds a graph (create_graph=True)."""
    __slots__ = ("hook",)

    def __init__(self, hook):
        self.hook = hook

    def __call__(self, grad):
        if grad is None:    # only None reached the node (see engine.py): the hook sees None, as in PyTorch
            if self.hook(None) is not None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            return None
        on_tensors = isinstance(grad, Tensor)
        out = self.hook(grad if on_tensors else Tensor._wrap(grad))
        if out is None:
            return None
        check_single_result(getattr(self.hook, '__name__', self.hook), grad, out)
        return out if on_tensors else out._data


def warn_float_of_grad():
    """float() of a tensor that requires grad: PyTorch warns once per process
    (TORCH_WARN_ONCE), at the caller's line; int(), bool() and .item() do not."""
    if not FLOAT_OF_GRAD_WARNED:
        FLOAT_OF_GRAD_WARNED.append(True)     # (list.append: atomic, so once with threads too)
        warnings.warn(messages.FLOAT_OF_GRAD_WARNING, UserWarning, stacklevel=3)


FLOAT_OF_GRAD_WARNED = []    # the once-per-process flag of warn_float_of_grad, as PyTorch's


# -- small helpers ------------------------------------------------------------------

def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"
