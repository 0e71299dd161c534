"""torch.autograd.Function: write your own op, forward and backward, and see it
in the graph as a node named <YourClass>Backward, exactly as in PyTorch.

    class MyExp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            y, = ctx.saved_tensors
            return grad * y

    y = MyExp.apply(x)     # y.grad_fn is a MyExpBackward node; ctx is that node

A forward may return a tuple: every tensor in it is an output of the same
node (a, b = F.apply(x): a.grad_fn is b.grad_fn, b.output_nr == 1), and
backward receives one gradient per output, zeros for an output that got none
(None instead after ctx.set_materialize_grads(False)); see
core/ops/multi_output.py for how a node with several outputs gets its gradients.
"""
import functools
import inspect
import warnings

import numpy as np

from ..core import grad_mode, views
from ..forward_mode import dual
from ..core.node import FREED, SavedTensor, next_sequence_nr, unbroadcast
from ..core.ops.multi_output import MultiOutputNode
from ..core.ops.shape import ViewBackward0
from ..core.tensor import Tensor


class BackwardCFunction(MultiOutputNode):
    """The graph node of a custom Function; it is also the `ctx` that forward
    and backward receive."""
    _fn = None          # the user's Function class

    def __init__(self, args):
        self.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        self._tensor_args = tuple(isinstance(a, Tensor) for a in args)
        self._saved = ()
        self._freed = False
        self._dirty = self._non_differentiable = ()
        self.materialize_grads = True
        self.output_metadata = ()     # (shape, dtype) of each output; None where it is not a tensor

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):     # a number belongs on ctx (ctx.k = 3)
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        self._saved = tuple(None if t is None else SavedTensor(t) for t in tensors)

    def mark_dirty(self, *tensors):
        """forward changed these inputs in place (and returns them)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        """These outputs get no gradient: requires_grad False, zeros in backward."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """False: backward gets None, not zeros, for an output that got no gradient."""
        self.materialize_grads = value

    def materialized(self, grads, wrap):
        """One gradient per output, as backward receives it: wrap(array) makes
        a Tensor of an array; None becomes zeros of the output's shape and
        dtype (materialize_grads), or stays None (and for a non-tensor output)."""
        out = []
        for g, meta in zip(grads, self.output_metadata):
            if g is None and self.materialize_grads and meta is not None:
                g = Tensor._wrap(np.zeros(*meta))
            out.append(wrap(g) if g is not None and not isinstance(g, Tensor) else g)
        return out

    wrap = staticmethod(Tensor._wrap)

    @property
    def saved_tensors(self):
        if self._freed:
            raise RuntimeError(FREED)
        if grad_mode.is_grad_enabled():   # inside backward(create_graph=True): the tensors with their history
            return tuple(None if s is None else s.as_tensor(self) for s in self._saved)
        return tuple(None if s is None else Tensor._wrap(s.unpack()) for s in self._saved)

    @property
    def saved_freed(self):
        return self._freed

    def saved_tensors_info(self):
        return []

    def call_backward(self, grads):
        return checked_grads(self, self._fn.backward(self, *self.materialized(grads, Tensor._wrap)))

    def call_backward_on_tensors(self, grads):
        """create_graph=True: the user's backward runs on Tensors with grad mode
        on, so its ops are recorded, as PyTorch does. Checked as without a graph."""
        grads = self._fn.backward(self, *self.materialized(grads, Tensor._wrap))
        checked_grads(self, grads)
        grads = grads if isinstance(grads, tuple) else (grads,)
        return tuple(g for g, is_tensor in zip(grads, self._tensor_args) if is_tensor)

    def release_variables(self):
        if self._saved:
            self._freed = True
            self._saved = ()


def checked_grads(node, grads):
    """What a custom backward returned, checked as PyTorch checks it, as one
    array (or None) per edge: one gradient per forward argument (extra Nones
    are dropped), a Tensor or None, None for a non-tensor argument, of a shape
    the input broadcasts to (summed back to it) and cast to the input's dtype.
    A wrong gradient is refused here rather than accumulated into .grad."""
    name = type(node).__name__
    grads = grads if isinstance(grads, tuple) else (grads,)
    expected = len(node._tensor_args)
    if len(grads) > expected and all(g is None for g in grads[expected:]):
        grads = grads[:expected]
    if len(grads) != expected:
        raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                           f"(expected {expected}, got {len(grads)})")
    out = []
    for i, (g, is_tensor) in enumerate(zip(grads, node._tensor_args)):
        if not is_tensor:
            if g is not None:
                raise RuntimeError(f"function {name} returned a gradient different than None at position {i + 1}, "
                                   "but the corresponding forward input was not a Variable")
        elif g is None:
            out.append(None)
        elif not isinstance(g, Tensor):
            kind = type(g).__module__ + "." + type(g).__name__ if type(g).__module__ != "builtins" else type(g).__name__
            raise RuntimeError(f"expected Variable or None (got {kind})")
        else:
            out.append(g._data)
    for i, (g, (shape, dt)) in enumerate(zip(out, node.input_metadata)):
        if g is None:
            continue
        if g.shape != shape:
            if not _expandable(shape, g.shape):
                raise RuntimeError(f"Function {name} returned an invalid gradient at index {i} - got "
                                   f"[{', '.join(map(str, g.shape))}] but expected shape compatible with "
                                   f"[{', '.join(map(str, shape))}]")
            g = unbroadcast(g, shape)
        out[i] = g if g.dtype == dt else g.astype(dt)
    return tuple(out)


def _expandable(shape, to):
    """PyTorch's is_expandable_to: does `shape` broadcast to `to`?"""
    return len(shape) <= len(to) and all(s in (t, 1) for s, t in zip(reversed(shape), reversed(to)))


class CustomFunctionView(ViewBackward0):
    """Not a node of the graph (made under no_grad): how the view a custom
    Function returns for an input is marked, so that an in-place op on it (or
    on a view of it) is refused with PyTorch's message (core/views.py)."""
    custom_function_view = True
    custom_function_output = True    # made under the forward's no_grad, yet not a no_grad view (core/views.py)


class CustomFunctionMultiView(ViewBackward0):
    """The same, for an input returned in a tuple of outputs: PyTorch treats
    it as a view made by a function that returns several views."""
    multi_output_view = True
    custom_function_output = True


LEAF_DIRTY = "a leaf Variable that requires grad has been used in an in-place operation."
LEGACY = ("Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
          "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html"
          "#torch.autograd.Function)")


def _saved_output_is_ours(ctx, out, k):
    """ctx.save_for_backward(y) of forward's own output k: if y is changed in
    place later, PyTorch's error names this Function ('output 0 of MyExp'),
    not the op that changed it, as for any node's saved output."""
    for s in ctx._saved:
        if s is not None and s.ref is not None and s.ref() is out:
            s.ref, s.made_by, s.output_nr = None, type(ctx), k


def _alias_if_input(out, args, several):
    """A forward that returns one of its inputs unchanged (`return x`) gets,
    as in PyTorch, a view of it: the output takes the new grad_fn and the
    input keeps its own history (a leaf stays a leaf)."""
    if any(out is a for a in args):
        with grad_mode.no_grad():
            view = CustomFunctionMultiView if several else CustomFunctionView
            return view.apply(out, tuple(out.shape))
    return out


def _mark_view_of_input(out, args, several):
    """A view of an input made inside forward (under its no_grad) is, as in
    PyTorch, a view made in a custom Function, not a no_grad view: changing it
    in place is refused with the custom Function's message (views.py)."""
    views.mark_custom_function_view(out, args, CustomFunctionMultiView if several else CustomFunctionView)


def _wrap_output(ctx, k, out, args, recording, several):
    """Output k of forward as apply returns it: a dirty input itself (version
    bumped), an input returned as-is as a view of it, and, if it is
    differentiable, with ctx as its grad_fn."""
    if not isinstance(out, Tensor):
        return out
    _saved_output_is_ours(ctx, out, k)
    if any(out is d for d in ctx._dirty):
        return _dirty_output(ctx, k, out, recording)
    differentiable = out._data.dtype.kind == "f" and not any(out is n for n in ctx._non_differentiable)
    out = _alias_if_input(out, args, several)     # after the check: the view is a new object
    _mark_view_of_input(out, args, several)
    if recording and differentiable:
        out._set_grad_fn(ctx, k)
    return out


def _dirty_output(ctx, k, out, recording):
    """An input forward changed in place (ctx.mark_dirty): returned itself,
    its version bumped, and, as after any in-place op, its history is now
    ctx; on a view, its base's history changes too (CopySlices, core/views.py)."""
    if not recording:
        out._bump_version()
        return out
    if out.is_leaf and out.requires_grad:
        raise RuntimeError(LEAF_DIRTY)
    new_values = Tensor._wrap(out._data, None, ctx)
    new_values._set_grad_fn(ctx, k)
    out._inplace(lambda old: new_values)       # the values are already in place: this records the history
    if out.grad_fn is ctx:
        out._set_grad_fn(ctx, k)
    return out


class Function:
    """Subclass with static forward(ctx, *args) and backward(ctx, *grads); call
    with .apply(*args). forward may return a Tensor or a tuple."""

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will raise "
                      "an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(LEGACY)

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """The recommended form (PyTorch 2): forward(*args) computes, without
        ctx; setup_context(ctx, inputs, output) then saves what backward needs."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @staticmethod
    def jvp(ctx, *tangents):
        """Forward-mode AD: the outputs' tangents from the inputs' (None where an input has none)."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        setup_context = cls.setup_context is not Function.setup_context
        if setup_context:    # as PyTorch: the arguments bound to forward's signature, defaults filled in
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        node_cls = cls.__dict__.get("_node_class")
        if node_cls is None:   # one node class per Function, named as PyTorch names it
            node_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"_fn": cls})
            cls._node_class = node_cls
        ctx = node_cls(args)
        # forward's own ops are not recorded, as in PyTorch, nor are their tangents (jvp gives those)
        with grad_mode.no_grad(), dual.suspended():
            if setup_context:
                out = cls.forward(*args)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args)
        outs = out if isinstance(out, tuple) else (out,)
        recording = grad_mode.is_grad_enabled() and any(ctx.needs_input_grad)
        if recording:   # the edges first: a dirty input's edge is to its history before forward
            ctx.input_metadata = tuple((a._data.shape, a._data.dtype) for a in args if isinstance(a, Tensor))
            ctx.next_functions = tuple(a._grad_edge() for a in args if isinstance(a, Tensor))
            ctx.sequence_nr = next_sequence_nr()
        ctx.num_outputs = len(outs)
        ctx.output_metadata = tuple((o._data.shape, o._data.dtype) if isinstance(o, Tensor) else None for o in outs)
        with dual.suspended():
            outs = tuple(_wrap_output(ctx, k, o, args, recording, len(outs) > 1) for k, o in enumerate(outs))
        if dual.levels:        # forward-mode AD: the outputs' tangents, from the Function's jvp
            dual.custom_jvp(cls, ctx, args, outs, Function.jvp)
        return outs if isinstance(out, tuple) else outs[0]


ONCE = "trying to differentiate twice a function that was marked with @once_differentiable"


class Error(MultiOutputNode):
    """PyTorch's DelayedError node: what the gradients of a once_differentiable
    backward hang from under create_graph=True, so that differentiating them
    again fails here, with this message, rather than giving a wrong zero."""

    def __init__(self, message, num_outputs):
        self.message, self.num_outputs = message, num_outputs

    def name(self):
        return "torch::autograd::Error"

    def call_backward(self, grads):
        raise RuntimeError(self.message)

    call_backward_on_tensors = call_backward


def once_differentiable(backward):
    """Decorate a custom Function's backward that is not itself differentiable
    (say, computed in numpy): it runs under no_grad, and where a graph was
    asked for (create_graph=True) its gradients hang from an Error node, so a
    second differentiation raises instead of silently giving zero."""
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        if not grad_mode.is_grad_enabled() or not any(isinstance(g, Tensor) and g.requires_grad for g in grads):
            return outputs
        several = isinstance(outputs, tuple)
        outputs = outputs if several else (outputs,)
        err = Error(ONCE, len(outputs))
        err.next_functions = tuple(o.detach().requires_grad_()._grad_edge() if isinstance(o, Tensor) else (None, 0)
                                   for o in outputs)
        err.sequence_nr = next_sequence_nr()
        outputs = tuple(Tensor._wrap(o._data, None, err) if isinstance(o, Tensor) else o for o in outputs)
        for k, o in enumerate(outputs):
            if isinstance(o, Tensor):
                o._set_grad_fn(err, k)
        return outputs if several else outputs[0]
    return wrapper
