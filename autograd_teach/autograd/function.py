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
"""
import numpy as np

from .. import grad_mode
from ..node import FREED, Node, SavedTensor, next_sequence_nr
from ..tensor import Tensor


class BackwardCFunction(Node):
    """The graph node of a custom Function; it is also the `ctx` that forward
    and backward receive."""
    _fn = None          # the user's Function class

    def __init__(self, args):
        self.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        self._tensor_args = tuple(isinstance(a, Tensor) for a in args)
        self._saved = ()
        self._freed = False

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    def save_for_backward(self, *tensors):
        self._saved = tuple(None if t is None else SavedTensor(t) for t in tensors)

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

    def call_backward(self, grad):
        return tuple(None if g is None else np.asarray(g._data if isinstance(g, Tensor) else g)
                     for g in self.user_backward(Tensor._wrap(grad)))

    def call_backward_on_tensors(self, grad):
        """create_graph=True: the user's backward runs on Tensors with grad mode
        on, so its ops are recorded, as PyTorch does."""
        return tuple(None if g is None else g if isinstance(g, Tensor) else Tensor._wrap(np.asarray(g))
                     for g in self.user_backward(grad))

    def user_backward(self, grad):
        """The Function's backward: one gradient per tensor argument of forward."""
        grads = self._fn.backward(self, grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        if len(grads) != len(self.needs_input_grad):
            raise RuntimeError(f"function {type(self).__name__} returned an incorrect number of gradients "
                               f"(expected {len(self.needs_input_grad)}, got {len(grads)})")
        # one gradient per forward argument; the graph has an edge per tensor argument
        out = []
        for g, is_tensor in zip(grads, self._tensor_args):
            if is_tensor:
                out.append(g)
        return out

    def release_variables(self):
        if self._saved:
            self._freed = True
            self._saved = ()


class Function:
    """Subclass with static forward(ctx, *args) and backward(ctx, *grads); call
    with .apply(*args). Only single-tensor outputs are supported."""

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args):
        node_cls = cls.__dict__.get("_node_class")
        if node_cls is None:   # one node class per Function, named as PyTorch names it
            node_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"_fn": cls})
            cls._node_class = node_cls
        ctx = node_cls(args)
        with grad_mode.no_grad():    # forward's own ops are not recorded, as in PyTorch
            out = cls.forward(ctx, *args)
        if not isinstance(out, Tensor):
            raise NotImplementedError("autograd_teach: a custom Function must return a single Tensor")
        if grad_mode.is_grad_enabled() and any(ctx.needs_input_grad):
            ctx.next_functions = tuple(a._grad_edge() for a in args if isinstance(a, Tensor))
            ctx.sequence_nr = next_sequence_nr()
            out._set_grad_fn(ctx)
        return out
