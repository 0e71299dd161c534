"""The nodes of the backward graph: what `tensor.grad_fn` points to.

In PyTorch every op records a `Node` (named like `MulBackward0`) whose
`next_functions` lead to the nodes of its inputs; leaves that require grad end
in an `AccumulateGrad` node that adds the incoming gradient into `leaf.grad`.
Here `Function` is the shared base of all op nodes: it runs the forward on
numpy arrays, decides the output dtype, records the edges, saves what backward
needs (with the tensor's version, so in-place changes are caught), and on the
way back un-broadcasts each gradient to its input's shape. The ops in `ops/`
only say forward and backward.
"""
import itertools
import weakref
from collections import namedtuple

import numpy as np

from . import dtypes, grad_mode

Tensor = None          # set by tensor.py (tensor.py imports this module)
_sequence = itertools.count()   # PyTorch's sequence_nr: later nodes run first

_NO_EDGE = (None, 0)        # next_functions entry of an input that is not a tensor
_NO_META = ((), None)
SavedInfo = namedtuple("SavedInfo", "name value saved_version current_version")

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
         "after they have already been freed). Saved intermediate values of the graph are freed "
         "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
         "backward through the graph a second time or if you need to access saved tensors after "
         "calling backward.")


class SavedTensor:
    """In PyTorch: SavedVariable. The array backward needs, the version counter
    it shares with its tensor, and the version it had when saved."""
    __slots__ = ("data", "box", "version", "ref", "made_by")

    def __init__(self, t, output_of=None):
        self.data, self.box = t._data, t._version_box
        self.version = self.box[0]
        # For the error message only: an input is reported by its current
        # grad_fn; a node's own output by that node's class (PyTorch keeps no
        # strong reference to its outputs, and a class makes no cycle).
        if output_of is not None:
            self.ref, self.made_by = None, type(output_of)
        else:
            self.ref, self.made_by = weakref.ref(t), t.grad_fn

    def unpack(self):
        if self.box[0] != self.version:
            t = self.ref() if self.ref is not None else None
            made_by = t.grad_fn if t is not None and t.grad_fn is not None else self.made_by
            fn = None if made_by is None else (made_by.__name__ if isinstance(made_by, type) else made_by.name())
            shape = ", ".join(map(str, self.data.shape))
            which = f", which is output 0 of {_op_name(fn)}," if fn else ""
            tensor_type = dtypes._BY_NUMPY[self.data.dtype]._tensor_type
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [torch.{tensor_type} [{shape}]]{which} is at version "
                f"{self.box[0]}; expected version {self.version} instead. Hint: enable anomaly detection "
                "to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")
        return self.data

    def as_tensor(self, node):
        """What PyTorch's grad_fn._saved_<name> returns: the saved input itself
        (while it lives), or for a saved output a tensor with that node as grad_fn."""
        self.unpack()
        t = self.ref() if self.ref is not None else None
        if t is not None:
            return t
        t = Tensor._make(self.data)
        t._version_box = self.box
        if self.ref is None:
            t.grad_fn, t._requires_grad = node, True
        return t


def _op_name(node_name):
    # PyTorch names the forward op in this message: MulBackward0 -> Mul
    name = node_name.rstrip("0123456789")
    return name[:-len("Backward")] if name.endswith("Backward") else name


class Node:
    """Base of every graph node. `next_functions` is a tuple of (node, input_nr)."""
    next_functions = ()
    _retain_refs = None     # weakrefs of non-leaf tensors that called retain_grad()
    _pre_hooks = None       # hooks a non-leaf registered with register_hook()

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def saved_tensors_info(self):
        return []

    @property
    def saved_freed(self):
        return False


class RemovableHandle:
    """What register_hook returns (torch.utils.hooks.RemovableHandle)."""

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class AccumulateGrad(Node):
    """The sink for a leaf: adds the incoming gradient into `variable.grad`."""
    _seq = float("inf")     # in PyTorch's ready queue AccumulateGrad runs first

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"


class Function(Node):
    """Base of the op nodes. A subclass sets:
      inputs  -- PyTorch's names of the differentiable arguments ("self", "other")
      saved   -- which of them (or "result") backward receives, version-checked
      save_if -- {saved name: input index}: save it only if that input needs a
                 gradient (else backward gets None), as PyTorch does
      attrs   -- non-tensor values forward stored on self, shown as _saved_<name>
      saved_arrays -- those of attrs that are arrays (indices): freed with the
                 saved tensors, shown as tensors
      is_view -- output shares storage and version counter with the input
      to_float -- integer inputs give a float result (exp, mean, division...)
      keeps_dtype -- the output has the first input's dtype (x[i] = v casts v)
      promote_params -- Python-number params take part in type promotion
      elementwise -- the two inputs broadcast (checked with PyTorch's message)
    and defines forward(*arrays, *params) -> array and backward(grad, *saved)
    -> one gradient per input (None where not needed)."""
    inputs = ("self",)
    saved = ()
    attrs = ()
    is_view = False
    to_float = False
    save_if = {}
    saved_arrays = ()
    keeps_dtype = False
    promote_params = False
    elementwise = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Where apply finds each saved value: the output (None) or input i;
        # and which input's gradient needs it (None: always saved).
        cls._saved_from = tuple((name, None if name == "result" else cls.inputs.index(name),
                                 cls.save_if.get(name)) for name in cls.saved)

    @classmethod
    def apply(cls, *args):
        # This runs for every op, so it is written as plain loops (no
        # generators) and does the common case first: see docs/benchmarks.md.
        n = len(cls.inputs)
        ins, params = args[:n], args[n:]
        first = ins[0]
        if cls.promote_params:
            dt = dtypes.result_type(*ins, *params)
        elif n == 1 or cls.keeps_dtype or (isinstance(ins[1], Tensor) and ins[1]._data.dtype == first._data.dtype):
            dt = first.dtype    # tensors of one dtype: no promotion rule needed
        else:
            dt = dtypes.result_type(*ins)
        if cls.to_float and not dt.is_floating_point:
            dt = dtypes.default_float
        arrays, requires_grad = [], False
        for a in ins:
            if isinstance(a, Tensor):
                requires_grad = requires_grad or a._requires_grad
                a = a._data if a._data.dtype == dt.np else a._data.astype(dt.np)
            arrays.append(a)
        if cls.elementwise and isinstance(ins[1], Tensor) and first._data.shape != ins[1]._data.shape:
            check_broadcast(first._data.shape, ins[1]._data.shape)
        node = cls.__new__(cls)
        data = node.forward(*arrays, *params)
        if type(data) is not np.ndarray:
            data = np.asarray(data)
        if data.dtype != dt.np and not cls.is_view:
            data = data.astype(node.out_dtype(dt).np, copy=False)
        out = Tensor._make(data)
        if cls.is_view and np.may_share_memory(data, first._data):   # reshape may have had to copy
            out._version_box = first._version_box
            if first._base is None:
                out._base, out._view_chain = first, ((cls, params),)
            else:   # a view of a view: remember the whole way from the base
                out._base, out._view_chain = first._base, first._view_chain + ((cls, params),)
        if not (requires_grad and grad_mode._enabled):
            return out
        # Record the node: where each input's gradient goes, the input's shape
        # and dtype (to reduce the gradient to), and what backward needs.
        node._seq = next(_sequence)
        edges, meta = [], []
        for a in ins:
            if isinstance(a, Tensor):
                edges.append(a._grad_edge())
                meta.append((a._data.shape, a._data.dtype))
            else:
                edges.append(_NO_EDGE)
                meta.append(_NO_META)
        node.next_functions, node._meta = tuple(edges), tuple(meta)
        saved = {}
        for name, i, needed_by in cls._saved_from:
            if needed_by is not None and edges[needed_by][0] is None:
                saved[name] = None    # no gradient will need it: PyTorch does not save it either
            elif i is None:
                saved[name] = SavedTensor(out, node)
            else:
                a = ins[i]
                saved[name] = SavedTensor(a) if isinstance(a, Tensor) else a
        node._saved = saved
        out._requires_grad = True
        out.grad_fn = node
        return out

    def out_dtype(self, dt):
        return dt

    # -- backward, called by the engine -------------------------------------
    def _apply_backward(self, grad):
        """Unpack the saved tensors (checking versions), run backward, reduce
        each gradient to its input's shape and dtype."""
        saved = []
        if self._saved is None:
            if self.saved or self.saved_arrays:
                raise RuntimeError(FREED)
        else:
            for s in self._saved.values():
                saved.append(s.unpack() if type(s) is SavedTensor else s)
        grads = self.backward(grad, *saved)
        if type(grads) is not tuple:
            grads = (grads,)
        out = []
        for g, (shape, dt), (fn, _) in zip(grads, self._meta, self.next_functions):
            if fn is not None and g is not None:
                if type(g) is not np.ndarray:
                    g = np.asarray(g)
                if g.shape != shape:
                    g = unbroadcast(g, shape)
                if g.dtype != dt:
                    g = g.astype(dt)
                out.append(g)
            else:
                out.append(None)
        return tuple(out)

    def _release(self):
        """Free the saved tensors, as PyTorch does after backward."""
        if self.saved or self.saved_arrays:
            self._saved = None
            for name in self.saved_arrays:
                setattr(self, name, None)

    @property
    def needs_input_grad(self):
        """Which inputs get a gradient (as ctx.needs_input_grad in PyTorch): a
        backward may skip the work for the others, as PyTorch's kernels do."""
        return tuple([fn is not None for fn, _ in self.next_functions])

    @property
    def saved_freed(self):
        return self._saved is None

    def saved_tensors_info(self):
        if self._saved is None:
            return []
        info = []
        for name, s in self._saved.items():
            if s is None:
                continue
            if type(s) is SavedTensor:
                info.append(SavedInfo("_saved_" + name, Tensor._make(s.data), s.version, s.box[0]))
            else:   # a Python number in a tensor's place: PyTorch shows it wrapped, tensor(2)
                info.append(SavedInfo("_saved_" + name, Tensor._make(np.array(s)), None, None))
        for name in self.attrs:
            info.append(SavedInfo("_saved_" + name, getattr(self, name), None, None))
        return info

    def __getattr__(self, name):
        # PyTorch exposes what a node saved as _saved_<name>.
        if name.startswith("_saved_"):
            key = name[len("_saved_"):]
            saved = self.__dict__.get("_saved")
            if key in type(self).saved:
                if saved is None:
                    raise RuntimeError(FREED)
                s = saved[key]
                if type(s) is SavedTensor:
                    return s.as_tensor(self)
                # a Python number in a tensor's place: PyTorch shows it wrapped (2 -> tensor(2))
                return None if s is None else Tensor._make(np.array(s))
            if key in type(self).attrs:
                if key in self.saved_arrays:   # index arrays: freed like tensors, shown as tensors
                    if saved is None:
                        raise RuntimeError(FREED)
                    value = getattr(self, key)
                    return Tensor._make(value) if type(value) is np.ndarray else value
                return getattr(self, key)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


# Ops whose values can be inf/nan (1/0, log 0, ...) return them silently, as PyTorch does.
quiet = np.errstate(divide="ignore", invalid="ignore", over="ignore")


def unbroadcast(grad, shape):
    """Sum a gradient back to the shape of an input that was broadcast."""
    extra = grad.ndim - len(shape)
    if extra > 0:
        grad = grad.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and grad.shape[i] != 1)
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)


def check_broadcast(a, b):
    """PyTorch's message for shapes that do not broadcast."""
    for k in range(1, min(len(a), len(b)) + 1):
        if a[-k] != b[-k] and a[-k] != 1 and b[-k] != 1:
            raise RuntimeError(f"The size of tensor a ({a[-k]}) must match the size of tensor b ({b[-k]}) "
                               f"at non-singleton dimension {max(len(a), len(b)) - k}")
