"""The nodes of the backward graph: what `tensor.grad_fn` points to.

In PyTorch every op records a node (named like `MulBackward0`) whose
`next_functions` lead to the nodes of its inputs; a leaf that requires grad
ends in an `AccumulateGrad` node (in accumulate_grad.py, with the .grad it
fills). This file has:

    Node         the base of every node: name, next_functions, sequence_nr,
                 hooks, and `run`, which the engine calls
    OpNode       the base of the op nodes in ops/: `apply` runs the forward
                 and records the node; `call_backward` runs the op's backward
                 and un-broadcasts each gradient to its input's shape;
                 `call_backward_on_tensors` does the same with Tensor ops
                 (create_graph=True), so the backward is itself a graph
    SavedTensor  what a node saved for backward, with the version it had

An op in ops/ only says `forward` and `backward`, and declares by name which
inputs backward needs. Tensors are reached through the small protocol that
tensor.py documents (`t._data`, `t._wrap(array)`, ...).
"""
import itertools
import re
import weakref
from collections import namedtuple

import numpy as np
from numpy import ndarray   # (3.11 cannot specialize np.<name>: numpy's module has a __getattr__)

from ..compat import dtypes
from ..compat.hook_results import checked_result
from ..compat.numpy_errors import QUIET, numpy_errors, quiet_call  # noqa: F401  (engine, tensor import them here)
from ..kernels.degenerate import live_data
from . import grad_mode, rules
from ..compat import saved_hooks
from ..forward_mode import dual     # forward-mode AD; the core's other modules reach it through here

# PyTorch's sequence_nr: each node gets the next number; the engine runs the
# ready node with the highest one first (see engine.py).
_sequence_nr = itertools.count()


next_sequence_nr = _sequence_nr.__next__    # next_sequence_nr() is next(_sequence_nr), as cheap


# what may stand in a tensor's place: 2 * x, or None for an absent optional tensor (clamp(min=t))
NUMBERS = frozenset({int, float, bool, type(None)})
new_object = object.__new__
NO_EDGE = (None, 0)                       # the next_functions entry of an input that needs no gradient
SavedInfo = namedtuple("SavedInfo", "name value saved_version current_version")

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
         "after they have already been freed). Saved intermediate values of the graph are freed "
         "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
         "backward through the graph a second time or if you need to access saved tensors after "
         "calling backward.")


class RemovableHandle:
    """What register_hook returns (torch.utils.hooks.RemovableHandle): remove()
    takes the hook out of the list it was added to, or, for nn.Module's
    hooks, out of the dicts where it is kept under the handle's id."""
    _ids = itertools.count()

    def __init__(self, hooks, hook=None, *more_dicts):
        self.hooks, self.hook, self.more_dicts = hooks, hook, more_dicts
        self.id = next(RemovableHandle._ids)

    def remove(self):
        if isinstance(self.hooks, dict):
            for hooks in (self.hooks, *self.more_dicts):
                hooks.pop(self.id, None)
        elif self.hook in self.hooks:
            self.hooks.remove(self.hook)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class Node:
    """Base of every graph node (torch.autograd.graph.Node).

    next_functions -- one (node, input_nr) per input: where its gradient goes
    sequence_nr    -- creation order; among ready nodes the engine runs the
                      highest first
    tensor_pre_hooks -- what register_hook() on the output tensor added:
                      functions of the incoming gradient (array -> array or
                      None) that the engine calls before `run`
    """
    next_functions = ()
    sequence_nr = 0
    num_outputs = 1             # unbind, split...: several (ops/multi_output.py)
    tensor_pre_hooks = None     # (an op node has its own four, None: 3.11 reads a class's default slower)
    retains_grad_hooks = None   # retain_grad() on the output: keep(node, grad, undo)
    pre_hooks = None            # register_prehook(): hook(grad_outputs) -> None or new grad_outputs
    post_hooks = None           # register_hook(): hook(grad_inputs, grad_outputs) -> None or new grad_inputs
    # Tensor._wrap (array -> Tensor), to show what a node saved as tensors
    # (grad_fn._saved_self). tensor.py sets it: this module cannot import tensor.py.
    wrap = None
    call = None  # grad_fn(*grads), PyTorch's Node.__call__: set by autograd/node_call.py

    def __call__(self, *grads):
        return self.call(*grads)

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def add_tensor_pre_hook(self, hook, output_nr=0):
        if self.tensor_pre_hooks is None:
            self.tensor_pre_hooks = []
        self.tensor_pre_hooks.append(hook)
        return RemovableHandle(self.tensor_pre_hooks, hook)

    def register_prehook(self, hook):
        """hook(grad_outputs) is called before this node runs, with the gradients
        of its outputs (a tuple of Tensors); it may return a tuple to use instead."""
        if self.pre_hooks is None:
            self.pre_hooks = []
        self.pre_hooks.append(hook)
        return RemovableHandle(self.pre_hooks, hook)

    def register_hook(self, hook):
        """hook(grad_inputs, grad_outputs) is called after this node ran, with what
        it sends along each next_functions edge and what it received; it may
        return a tuple to send instead."""
        if self.post_hooks is None:
            self.post_hooks = []
        self.post_hooks.append(hook)
        return RemovableHandle(self.post_hooks, hook)

    def add_retains_grad_hook(self, keep, output_nr=0):
        if self.retains_grad_hooks is None:
            self.retains_grad_hooks = []
        self.retains_grad_hooks.append(keep)

    def call_tensor_pre_hooks(self, grad):
        """Each hook sees the gradient and may replace it."""
        for hook in list(self.tensor_pre_hooks):
            out = hook(grad)
            if out is not None:
                grad = out
        return grad

    def call_pre_hooks(self, grad, task):
        """Before the node runs (the engine calls this when there are any):
        retain_grad() keeps the gradient, then the grad_fn.register_prehook
        hooks may change it, in PyTorch's order."""
        if self.retains_grad_hooks and grad is not None:     # None: nothing to retain, as in PyTorch
            for keep in self.retains_grad_hooks:
                keep(self, grad, task.undo)
        return call_pre_hooks(self, (grad,), task)[0] if self.pre_hooks else grad

    def run(self, grad, task):
        """What the engine calls once the gradient w.r.t. this node's output is
        complete: returns one gradient per next_functions entry."""
        if task.create_graph:
            # create_graph=True: grad is a Tensor and grad mode is on, so the
            # backward's own ops are recorded and can be differentiated again.
            grads = self.call_backward_on_tensors(grad)
        else:
            grads = self.call_backward(grad)         # numpy arrays: the fast path
        if task.needed is not None:    # as PyTorch, no gradient along an edge to nothing autograd.grad wants
            grads = tuple(g if fn is not None and task.reaches(fn) else None
                          for g, (fn, _) in zip(grads, self.next_functions))
        if not task.retain_graph:
            self.release_variables()
        if self.post_hooks:                          # grad_fn.register_hook: may change what goes out
            grads = call_post_hooks(self, grads, (grad,), task)
        return grads

    def call_backward(self, grad):
        raise NotImplementedError

    def call_backward_on_tensors(self, grad):
        raise NotImplementedError

    def release_variables(self):
        """Free what was saved for backward, as PyTorch does after a backward."""

    def saved_tensors_info(self):
        return []

    @property
    def saved_freed(self):
        return False

def call_pre_hooks(node, grads, task):
    """A node's register_prehook hooks, in order: each sees the gradients of
    its outputs (a tuple) as Tensors and may return a tuple to go on with."""
    for hook in list(node.pre_hooks):
        out = hook(_as_tensors(grads, task))
        if out is not None:
            grads = checked_result(hook, out, grads, task.create_graph)
    return grads


def call_post_hooks(node, grads, grad_outputs, task):
    """A node's register_hook hooks, in order: each sees (grad_inputs,
    grad_outputs) as Tensors (None where nothing goes) and may return a tuple
    of grad_inputs to send instead."""
    for hook in list(node.post_hooks):
        out = hook(_as_tensors(grads, task), _as_tensors(grad_outputs, task))
        if out is not None:
            grads = checked_result(hook, out, grads, task.create_graph)
    return tuple(grads)


def _as_tensors(grads, task):
    return tuple(task.wrap(g) if type(g) is np.ndarray else g for g in grads)


INFERENCE_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                   "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
                   "normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                   "`torch.inference_mode()`.")


class SavedTensor:
    """In PyTorch: SavedVariable. The array backward needs, the version counter
    it shares with its tensor, and the version it had when saved."""
    __slots__ = ("data", "box", "version", "ref", "made_by", "output_nr", "hooks", "tangents")

    def __init__(self, t, output_of=None):
        if t._inference:
            raise RuntimeError(INFERENCE_SAVED)
        self.data, self.box = t._data, t._version_box
        self.version = self.box[0]
        # For the error message only: an input is reported by its current
        # grad_fn; a node's own output by that node's class (PyTorch keeps no
        # strong reference to its outputs, and a class makes no cycle).
        if output_of is not None:
            self.ref, self.made_by = None, type(output_of)
        else:
            self.ref, self.made_by = weakref.ref(t), t.grad_fn
        self.output_nr = t._output_nr   # which output of made_by it was (unbind, split: several)
        self.hooks = saved_hooks.pack(t) if saved_hooks.in_use else None   # saved_tensors_hooks
        self.tangents = dual.tangents_of(t) if dual.levels else None   # forward-mode AD (forward_mode/dual.py)
        if self.hooks is not None:
            self.data = None          # as in PyTorch, only what pack_hook returned is kept

    @classmethod
    def of(cls, entry):
        """A compact entry (see `compact`) as a SavedTensor, for the readers that are not backward."""
        s = object.__new__(cls)
        s.data, s.box, s.version, kept, s.made_by, s.output_nr = entry
        s.ref = None if kept is None else weakref.ref(kept)
        s.hooks = s.tangents = None
        return s

    def unpack(self):
        if self.hooks is not None:    # the hooks decide what backward sees: no version check
            return saved_hooks.unpack(self.hooks)._data
        if self.box[0] != self.version:
            raise RuntimeError(self.modified_message())
        return live_data(self.data, self.ref)

    def modified_message(self):
        t = self.ref() if self.ref is not None else None
        made_by = t.grad_fn if t is not None and t.grad_fn is not None else self.made_by
        fn = None if made_by is None else (made_by.__name__ if isinstance(made_by, type) else made_by.name())
        if t is None and self.ref is not None and getattr(made_by, "is_view", False) \
                and not getattr(made_by, "custom_function_view", False):
            fn = "AsStridedBackward0"   # a view gone since: PyTorch keeps it, and it was re-derived when changed
        shape = ", ".join(map(str, self.data.shape))
        which = f", which is output 0 of {op_name(fn)}," if fn else ""
        tensor_type = dtypes.from_numpy(self.data.dtype).legacy_name + "Tensor"
        return ("one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [torch.{tensor_type} [{shape}]]{which} is at version "
                f"{self.box[0]}; expected version {self.version} instead. Hint: enable anomaly detection "
                "to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")

    def as_tensor(self, node):
        """What PyTorch's grad_fn._saved_<name> returns: the saved input itself
        (while it lives), or for a saved output a tensor with that node as grad_fn.
        Saved under saved_tensors_hooks: what unpack_hook gives back."""
        if self.hooks is not None:
            t = saved_hooks.unpack(self.hooks)
            return t if self.ref is not None else node.wrap(t._data, t._version_box, node)   # an output: grad_fn is node
        self.unpack()
        if self.ref is None:          # the node's own output: its grad_fn is the node
            t = node.wrap(self.data, self.box, node)
        else:
            t = self.ref()
            if t is not None:
                return t
            # An input that is gone: its values with the history it had, so that a
            # graph built from it (create_graph=True) still leads back to the leaves.
            t = node.wrap(self.data, self.box, self.made_by)
        if self.output_nr:            # output k of a node with several outputs
            t._set_grad_fn(t.grad_fn, self.output_nr)
        dual.give_tangents(t, self.tangents)     # a dual tensor comes back dual
        return t


def compact(t, made_by, is_input):
    """What OpNode.record saves of a tensor in the usual case (no saved-tensor
    hooks, no forward-mode levels): a SavedTensor's fields as a plain tuple,
    (data, version box, version, input, made_by, output_nr), built at a
    fraction of an object's cost. An input is kept itself, as PyTorch's
    SavedVariable keeps an input (an output is not: that would be a cycle).
    Backward reads the tuple directly; the other readers turn it into a
    SavedTensor with SavedTensor.of."""
    if t._inference:
        raise RuntimeError(INFERENCE_SAVED)
    box = t._version_box
    return t._data, box, box[0], t if is_input else None, made_by, t._output_nr


def op_name(node_name):
    # PyTorch's messages drop "Backward0" but keep another overload's number:
    # MulBackward0 -> Mul, MaxBackward1 -> Max1; C++ nodes keep their name
    # (torch::autograd::CopyBackwards, torch::autograd::CopySlices)
    if node_name.startswith("torch::"):
        return node_name
    return re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) == "0" else m.group(1), node_name)


def promoted(op, inputs, params, arrays):
    """The output's dtype, by PyTorch's type promotion and each op's
    exceptions, and the arrays cast to it. (apply asks this only when its
    inputs are not of one dtype, or the op promotes otherwise.)"""
    first = inputs[0]
    if op.promote_params:     # clamp(int tensor, 0.5) is float
        dt = dtypes.result_type(*inputs, *params)
    elif len(inputs) == 1 or op.keeps_dtype or (type(inputs[1]) not in NUMBERS
                                                 and inputs[1]._data.dtype == first._data.dtype):
        dt = first.dtype      # one dtype: no promotion rule needed
    else:
        dt = dtypes.result_type(*inputs)
    if op.to_float and not dt.is_floating_point:   # exp, mean, division of ints
        dt = dtypes.default_float
    return dt, [a if type(a) in NUMBERS or a.dtype is dt.np else a.astype(dt.np) for a in arrays]


class OpNode(Node):
    """Base of the op nodes in ops/. A subclass sets:
      inputs  -- PyTorch's names of the tensor arguments ("self", "other")
      saved   -- which of them (or "result") backward receives, version-checked
      needed_for -- {saved name: input name}: save it only if that input needs
                 a gradient (else backward gets None), as PyTorch does
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
    needed_for = {}
    attrs = ()
    saved_arrays = ()
    is_view = False
    hooked = False        # saved under saved_tensors_hooks (saved_hooks.py)
    to_float = False
    keeps_dtype = False
    promote_params = False
    elementwise = False
    exact_for = None      # (shape, dtype): for a gradient like that, backward's need no reducing (fast paths)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Where record() finds each saved value: the output (None) or input i;
        # and which input's gradient needs it (None: always saved).
        position = {name: i for i, name in enumerate(cls.inputs)}
        cls.n_inputs = len(cls.inputs)
        if not set(cls.needed_for.values()) <= set(position):
            raise TypeError(f"{cls.__name__}: needed_for = {{saved name: input name}} names an input "
                            f"{cls.__name__} does not have: {cls.needed_for}")
        cls.save_plan = tuple((name, position.get(name), position.get(cls.needed_for.get(name)))
                              for name in cls.saved)
        cls.save_plan_by_name = tuple(sorted(cls.save_plan))   # PyTorch's order (saved_hooks.py)
        cls.settings = (cls.n_inputs, cls.promote_params, cls.to_float, cls.elementwise, cls.is_view)
        # What PyTorch shows of a node: grad_fn._saved_self, grad_fn._saved_alpha, ...
        for name in cls.saved:
            setattr(cls, "_saved_" + name, property(lambda self, key=name: self.saved_value(key)))
        for name in cls.attrs:
            if "_saved_" + name not in cls.__dict__:     # (an op may show one its own way)
                setattr(cls, "_saved_" + name, property(lambda self, key=name: self.saved_attr(key)))

    @classmethod
    def apply(cls, *args):
        """The op on tensors, in three steps: forward, views, graph (and, in forward mode, the tangent)."""
        n, promote, to_float, elementwise, is_view = cls.settings    # (read once: see the notes at the end)
        inputs, params, node = args[:n], args[n:], new_object(cls)
        first = args[0]
        # 1. The forward on numpy arrays, in the dtype PyTorch gives the result:
        #    the inputs' own when they share one (the usual case), else by promotion.
        arrays, recording, dt = [], False, first._data.dtype
        for a in inputs:
            if type(a) in NUMBERS:    # 2 * x: a Python number takes part in type promotion
                dt = None
            else:
                recording = recording or a._requires_grad
                a = a._data
                dt = dt if a.dtype is dt else None
            arrays.append(a)
        if dt is None or promote or to_float and dt.kind != "f":   # (to_float: exp, mean... of ints)
            dt, arrays = promoted(cls, inputs, params, arrays)
            dt = dt.np
        if elementwise and type(inputs[1]) not in NUMBERS and arrays[0].shape != arrays[1].shape:
            check_broadcast(arrays[0].shape, arrays[1].shape)
        token = numpy_errors.set(QUIET)    # inf and nan as PyTorch: no numpy warning (compat/numpy_errors.py)
        try:
            data = node.forward(*arrays, *params)
        finally:
            numpy_errors.reset(token)
        data = data if type(data) is np.ndarray else np.asarray(data)
        if data.dtype is not dt and not is_view:
            data = data.astype(node.out_dtype(dtypes._BY_NUMPY[dt]).np, copy=False)
        recording = recording and (not grad_mode.threads_without_grad or grad_mode.flags.enabled)   # grad mode on?
        out = first._wrap(data, None, node if recording else None)
        # 2. A view shares its input's storage and version counter (views.py).
        if is_view:
            out._track_view(first, cls, params)
        # 3. The node joins the graph: edges to the inputs, what backward needs.
        if recording:
            node.record(inputs, out)
        if dual.levels:     # 4. Forward-mode AD (forward_mode/dual.py), while a dual level exists: out's tangent
            dual.propagate(cls, node, inputs, params, out, OpNode.apply.__func__)
        return out

    def out_dtype(self, dt):
        return dt

    def record(self, inputs, out):
        """Put this node in the graph: an edge to each input's node, the shape
        and dtype to reduce its gradient to, and what backward needs."""
        self.sequence_nr = next(_sequence_nr)
        self.tensor_pre_hooks = self.retains_grad_hooks = self.pre_hooks = self.post_hooks = None   # (see Node)
        edges, meta = [], []
        for a in inputs:
            if type(a) in NUMBERS:
                edges.append(NO_EDGE)
                meta.append(None)
            else:
                edges.append(a._grad_edge() if a.grad_fn is None else (a.grad_fn, a._output_nr))
                meta.append((a._data.shape, a._data.dtype))
        self.next_functions, self.input_metadata = tuple(edges), tuple(meta)
        self.saved_values = saved = {}
        rich = saved_hooks.in_use or dual.levels      # else the compact form (see `compact`)
        plan = self.save_plan_by_name if saved_hooks.in_use else self.save_plan
        for name, i, needed_by in plan:
            a = out if i is None else inputs[i]
            if needed_by is not None and edges[needed_by][0] is None:
                saved[name] = None    # no gradient will need it: PyTorch does not save it either
            elif type(a) in NUMBERS:
                saved[name] = a       # shown as PyTorch shows it: tensor(2)
            elif rich:
                saved[name] = SavedTensor(a, self if i is None else None)
            else:    # an output refers to its node by class (no cycle); an input is kept, with its grad_fn
                saved[name] = compact(a, type(self), False) if i is None else compact(a, a.grad_fn, True)
        if plan is not self.save_plan:    # saved_tensors_hooks saw them by name; backward takes them in its order
            self.saved_values, self.hooked = {name: saved[name] for name in self.saved}, True

    # -- backward, called by the engine (Node.run) ------------------------------
    def call_backward(self, grad):
        """Unpack the saved tensors (checking versions), run backward, reduce
        each gradient to its input's shape and dtype."""
        values = self.saved_values
        if not values:
            if values is None and (self.saved or self.saved_arrays):
                raise RuntimeError(FREED)
            saved = ()                                   # add, sum...: nothing saved
        else:
            saved = []
            for s in values.values():
                if type(s) is tuple:   # compact: SavedTensor.of(s).unpack(), its usual case inline
                    data, box, version, t, _, _ = s      # (t: the input itself; None for an output)
                    s = data if box[0] == version and (t is None or t._data is data) else SavedTensor.of(s).unpack()
                elif type(s) is SavedTensor:
                    if self.hooked:    # saved under saved_tensors_hooks: unpacked in PyTorch's order
                        saved = self.unpacked_by_name()
                        break
                    s = s.unpack()
                saved.append(s)
        if grad is None:     # only None reached this node (see engine.py): it sends None on
            return (None,) * len(self.next_functions)
        grads = self.backward(grad, *saved)     # (numpy's warnings are off for the engine's whole run)
        if type(grads) is not tuple:
            grads = (grads,)
        if (exact := self.exact_for) is not None and grad.shape == exact[0] and grad.dtype is exact[1]:
            return grads    # each already its input's shape and dtype (ops/fast_paths.py; test_op_fast_paths)
        metas, edges = self.input_metadata, self.next_functions
        for i, g in enumerate(grads):    # the usual case: each already its input's shape and dtype
            if g is not None and (edges[i][0] is None or type(g) is not ndarray or g.shape != metas[i][0]
                                  or g.dtype is not metas[i][1]):
                return self.to_input_arrays(grads)
        return grads

    def to_input_arrays(self, grads):
        """Each gradient as its input's: summed to its shape, cast to its dtype (PyTorch's validate_outputs)."""
        out = []
        for g, meta, (fn, _) in zip(grads, self.input_metadata, self.next_functions):
            if fn is None or g is None:
                out.append(None)
            else:
                g = np.asarray(g)
                g = g if g.shape == meta[0] else unbroadcast(g, meta[0])
                out.append(g if g.dtype is meta[1] else g.astype(meta[1]))
        return tuple(out)

    def unpacked_by_name(self):
        """Saved under saved_tensors_hooks: unpacked in PyTorch's order (by
        name, as they were packed), handed to backward in its own order."""
        values = {name: s.unpack() if type(s) is SavedTensor else s
                  for name, s in sorted(self.rich_saved_values().items(), key=lambda item: item[0])}
        return [values[name] for name in self.saved_values]

    def call_backward_on_tensors(self, grad):
        """create_graph=True: the docstring's rule evaluated on Tensors (grad,
        and the saved values as the live tensors, which lead back to the
        leaves), with grad mode on, so that every op of the backward is
        recorded. Then, as Tensor ops too, each gradient is summed back to its
        input's shape and cast to its dtype (PyTorch: validate_outputs).
        In PyTorch, likewise, the backward formulas of derivatives.yaml are
        made of differentiable ops."""
        if self.saved_values is None and (self.saved or self.saved_arrays):
            raise RuntimeError(FREED)
        missing = [name for name, (fn, _) in zip(self.inputs, self.next_functions)
                   if fn is not None and name not in rules.rules(self)]
        if grad is None:     # only None reached this node (see engine.py): it sends None on
            self.live_values()   # the saved tensors are still checked, as PyTorch unpacks them first
            return (None,) * len(self.next_functions)
        if missing:
            raise NotImplementedError(f"autograd_teach: the derivative of {self.name()} for {missing[0]} has no "
                                      "rule in its docstring, so it cannot run with create_graph=True")
        grads = rules.evaluate(self, grad, self.live_values(), create_graph=True)
        return self.to_inputs(rules.per_input(self.inputs, grads))

    def live_values(self):
        """What the rules read, as a double backward needs them: each saved
        tensor as the tensor that leads back to the leaves (the input itself;
        for `result`, a tensor whose grad_fn is this node), a number that
        stood in a tensor's place as that number, and the attributes."""
        out = {}
        for name, s in self.rich_saved_values().items():
            out[name] = s.as_tensor(self) if type(s) is SavedTensor else s
        for name in self.attrs:
            out[name] = self.saved_attr(name)
        return out

    def to_inputs(self, grads):
        """create_graph=True: each gradient summed back to its input's shape and
        cast to its dtype, as Tensor ops (PyTorch's validate_outputs)."""
        out = []
        for g, meta, (fn, _) in zip(grads, self.input_metadata, self.next_functions):
            if fn is None or g is None:
                out.append(None)
                continue
            if g.shape != meta[0]:
                g = g.sum_to_size(meta[0])
            out.append(g if g._data.dtype is meta[1] else g.to(dtypes.from_numpy(meta[1])))
        return tuple(out)

    def release_variables(self):
        if self.saved_values or self.saved_arrays:    # (nothing saved: a second backward may run, as in PyTorch)
            self.saved_values = None
            for name in self.saved_arrays:
                setattr(self, name, None)

    @property
    def needs_input_grad(self):
        """Which inputs get a gradient (as ctx.needs_input_grad in PyTorch): a
        backward may skip the work for the others, as PyTorch's kernels do."""
        edges = self.next_functions
        if len(edges) == 2:      # the usual case (mul, mm...), without a comprehension's call
            return edges[0][0] is not None, edges[1][0] is not None
        return tuple([fn is not None for fn, _ in edges])

    # -- what PyTorch shows of a node: grad_fn._saved_<name> ----------------------
    @property
    def saved_freed(self):
        return self.saved_values is None

    def rich_saved_values(self):
        """saved_values with each compact entry as a SavedTensor ({} once freed)."""
        return {name: SavedTensor.of(s) if type(s) is tuple else s for name, s in (self.saved_values or {}).items()}

    def saved_tensors_info(self):
        if self.saved_values is None:
            return []
        info = []
        for name, s in self.rich_saved_values().items():
            if type(s) is SavedTensor:
                info.append(SavedInfo("_saved_" + name, self.wrap(s.data if s.hooks is None else s.unpack()),
                                      s.version, s.box[0]))
            elif s is not None:   # a Python number in a tensor's place: PyTorch shows it wrapped, tensor(2)
                info.append(SavedInfo("_saved_" + name, self.wrap(np.array(s)), None, None))
        for name in self.attrs:
            info.append(SavedInfo("_saved_" + name, getattr(self, name), None, None))
        return info

    def saved_attr(self, key):
        value = getattr(self, key)
        if key in self.saved_arrays:   # index arrays: freed like tensors, shown as tensors
            if self.saved_values is None:
                raise RuntimeError(FREED)
            return self.wrap(value) if type(value) is np.ndarray else value
        return value

    def saved_value(self, key):
        saved = self.saved_values
        if saved is None:
            raise RuntimeError(FREED)
        s = saved[key]
        if type(s) is tuple:
            s = SavedTensor.of(s)
        if type(s) is SavedTensor:
            return s.as_tensor(self)
        return None if s is None else self.wrap(np.array(s))


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
    # np.asarray: a sum down to 0-d is a numpy scalar, and a node that writes
    # into its gradient (CopySlices) would write into a copy of it instead
    return np.asarray(grad).reshape(shape)


def check_broadcast(a, b):
    """PyTorch's message for shapes that do not broadcast."""
    for k in range(1, min(len(a), len(b)) + 1):
        if a[-k] != b[-k] and a[-k] != 1 and b[-k] != 1:
            raise RuntimeError(f"The size of tensor a ({a[-k]}) must match the size of tensor b ({b[-k]}) "
                               f"at non-singleton dimension {max(len(a), len(b)) - k}")


# Performance notes, kept here off the reading path (figures: docs/benchmarks.md).
# OpNode.apply runs for every op and call_backward for every node, and a
# Python call costs about as much as numpy's multiply of 4 floats, so:
# - apply's three steps are written inline, each under its comment, rather
#   than as three methods;
# - dtypes are compared with `is`: numpy's built-in dtypes are singletons, and
#   `==` on dtypes is several times slower (a miss only costs a no-op astype);
# - grad_fn._saved_<name> are properties made by __init_subclass__: a
#   __getattr__ would slow down every attribute read of every node;
# - a tensor's rarely set attributes are class defaults (tensor.py), so that
#   making a tensor sets four attributes, not ten;
# - grad mode is per thread, and a thread-local read costs about as much as a
#   small op's arithmetic: apply asks grad_mode.threads_without_grad first;
# - a method or property call costs some 1,000 instructions, so the usual
#   case of SavedTensor.unpack and of the result's dtype is written inline, and the
#   saved tensors read t._inference rather than call t.is_inference();
# - numpy's warnings are switched off inline in apply and once per backward
#   run (engine.py), not per node: a set and reset cost more than a tiny op;
# - what record saves is a plain tuple (`compact`): a slotted object cost
#   about 3,000 instructions to make and free, twice per mul;
# - apply reads its class settings once (`cls.settings`): Python 3.11 does
#   not specialize a class attribute read, through the class or an instance;
# - the hottest ops skip apply's general steps (ops/fast_paths.py).
# Counted in instructions (benchmarks/bench_instructions.py), which other
# processes on a shared machine do not disturb, as they do time.
