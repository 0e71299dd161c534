"""Nodes with several outputs: unbind, split, chunk (and custom Functions
that return a tuple, autograd/function.py).

    a, b = y.chunk(2)     # a.grad_fn is b.grad_fn: ONE SplitBackward0
    a.output_nr, b.output_nr  ->  0, 1

In PyTorch all the outputs of such an op share one node, and each output
remembers which one it is (`output_nr`). An edge into the node says which
output its gradient belongs to: `z = b * 2` gives z.grad_fn.next_functions
== ((SplitBackward0, 1), ...). So the node receives one gradient per output,
in its own slot (PyTorch's InputBuffer), and runs once, with all the slots,
when every edge into it has delivered. A slot that got nothing is None:
split's backward puts zeros there, a custom Function gets zeros too.

    Slots            the gradients of a node's outputs, one per output
    MultiOutputNode  the slot plumbing every such node shares: the engine
                     hands it Slots; hooks and retain_grad() on output k see
                     slot k
    MultiOutputOp    the base of the view ops below: forward returns a list
                     of arrays, each output is a view of the input
    UnbindBackward0, SplitBackward0, SplitWithSizesBackward0, UnsafeSplitBackward0

Their rules read one gradient per output (PyTorch's `grads`), which the
single-gradient rule evaluator (rules.py) does not take: each op computes its
backward on arrays (`backward`) and, with create_graph=True, as one
differentiable op on Tensors (`call_backward_on_tensors`: a StackBackward0 or
CatBackward0 node, as in PyTorch).

The outputs are views of the input that PyTorch does not let you modify in
place ("This view is the output of a function that returns multiple views"):
one in-place write would have to rewrite the history of all the outputs.
"""
import numpy as np

from .. import grad_mode
from ..node import Node, SavedInfo, call_post_hooks, call_pre_hooks, dual, next_sequence_nr
from .join import CatBackward0, StackBackward0
from .shape import SelectBackward0, SliceBackward0, check_dim

MULTI_VIEW_INPLACE = (
    "Output {} of {} is a view and is being modified inplace. This view is the output of a function that returns "
    "multiple views. Such functions do not allow the output views to be modified inplace. You should replace the "
    "inplace operation by an out-of-place one.")


class Slots(list):
    """One gradient per output of a node (None: none arrived). Two Slots add
    slot by slot, so the engine adds them as it adds arrays."""

    def __add__(self, other):
        return Slots(_add(a, b) for a, b in zip(self, other))


def _add(a, b):
    if a is None or b is None:
        return b if a is None else a
    total = a + b
    return np.asarray(total) if isinstance(total, np.generic) else total   # keep 0-d an array


def as_slots(grad):
    """A node of this kind that has one output gets the engine's plain gradient."""
    return grad if type(grad) is Slots else Slots([grad])


def captured(capture, t):
    """What autograd.grad captured for input t: for output k of a node with
    several outputs, slot k of what reached the node."""
    g = capture[t._grad_edge()[0]]
    return g[t.output_nr] if type(g) is Slots else g


class SlotHook:
    """register_hook() on output k: the hook sees slot k only. As in PyTorch,
    it is called even when that output got no gradient (with None)."""
    __slots__ = ("hook", "output_nr")

    def __init__(self, hook, output_nr):
        self.hook, self.output_nr = hook, output_nr

    def __call__(self, grads):
        if type(grads) is not Slots:      # the node has one output: the engine's plain gradient
            return self.hook(grads)
        g = grads[self.output_nr]
        out = self.hook.hook(None) if g is None else self.hook(g)   # TensorHook checks what came back
        if out is None or g is None:
            return None
        grads = Slots(grads)
        grads[self.output_nr] = out
        return grads


class MultiOutputNode(Node):
    """What every node with several outputs shares. `num_outputs` is set
    per node; the engine gives such a node Slots instead of one gradient."""
    num_outputs = 1

    def slot(self, output_nr, grad):
        """grad, for output output_nr: what an edge (self, output_nr) delivers."""
        slots = Slots([None] * self.num_outputs)
        slots[output_nr] = grad
        return slots

    def add_tensor_pre_hook(self, hook, output_nr=0):
        return super().add_tensor_pre_hook(SlotHook(hook, output_nr))

    def add_retains_grad_hook(self, keep, output_nr=0):
        super().add_retains_grad_hook((output_nr, keep))

    def slots_of(self, grads):
        """What reached this node, one entry per output (the engine's None: nothing at all)."""
        return (None,) * self.num_outputs if grads is None else tuple(as_slots(grads))

    def call_pre_hooks(self, grads, task):
        """retain_grad() on output k keeps slot k; then the node's pre-hooks see every slot."""
        grads = Slots(self.slots_of(grads))
        for k, keep in self.retains_grad_hooks or ():
            if grads[k] is not None:      # an output that got nothing keeps .grad None
                keep(self, grads[k], task.undo)
        return Slots(call_pre_hooks(self, tuple(grads), task)) if self.pre_hooks else grads

    def run(self, grads, task):
        grads = Slots(self.slots_of(grads))
        out = self.call_backward_on_tensors(grads) if task.create_graph else self.call_backward(grads)
        if not task.retain_graph:
            self.release_variables()
        return call_post_hooks(self, out, tuple(grads), task) if self.post_hooks else out


class MultiOutputOp(MultiOutputNode):
    """Base of the view ops with several outputs. A subclass defines
    forward(array, *params) -> list of arrays (views of the input; it also
    stores its attrs), view_of(k) -> the (view op, params) that makes output
    k from the input, and backward(grads) with zeros where a slot is None.
    `attrs` are shown as grad_fn._saved_<name>, as PyTorch shows them."""
    attrs = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in cls.attrs:
            setattr(cls, "_saved_" + name, property(lambda self, key=name: getattr(self, key)))

    @classmethod
    def apply(cls, x, *params):
        node = cls.__new__(cls)
        arrays = node.forward(x._data, *params)
        recording = x.requires_grad and grad_mode.is_grad_enabled()
        outs = []
        for k, array in enumerate(arrays):
            out = x._wrap(array)
            out._track_view(x, *node.view_of(k))    # a view: shares the storage and version counter
            if recording:
                out._set_grad_fn(node, k)           # one node for all outputs; out is output k
            outs.append(out)
        if recording:
            node.num_outputs, node.sequence_nr = len(outs), next_sequence_nr()
            node.next_functions = (x._grad_edge(),)
            node.input_metadata = ((x._data.shape, x._data.dtype),)
        if dual.levels:     # forward-mode AD: the tangent split the same way (they are all linear)
            dual.propagate_pieces(cls, x, params, outs)
        return tuple(outs)

    def grads_or_zeros(self, grads):
        """Each output's gradient; zeros (a constant, or with create_graph a
        Tensor without history) where none arrived."""
        like = next(g for g in grads if g is not None)
        return [self.zeros_like_output(k, like) if g is None else g for k, g in enumerate(grads)]

    def call_backward(self, grads):
        if all(g is None for g in grads):    # only None reached it (engine.py): it sends None on, as op nodes do
            return (None,) * len(self.next_functions)
        return (self.backward(self.grads_or_zeros(grads)),)

    def release_variables(self):
        """Nothing is saved: the attrs are sizes."""

    def saved_tensors_info(self):    # what viz shows: the attrs, kept after backward as in PyTorch
        return [SavedInfo("_saved_" + name, getattr(self, name), None, None) for name in self.attrs]


def _zeros(shape, like):
    """Zeros of a shape, an array or (create_graph) a constant Tensor like `like`."""
    if isinstance(like, np.ndarray):
        return np.zeros(shape, dtype=like.dtype)
    return like._wrap(np.zeros(shape, dtype=like._data.dtype))


class UnbindBackward0(MultiOutputOp):
    """outs = self.unbind(dim)   (also `for row in x`)

    PyTorch's rule: self: unbind_backward(grads, dim)

    The gradients of the slices stacked back along dim, zeros for a slice
    that got none. With create_graph=True that is a StackBackward0 node.
    """
    attrs = ("dim",)

    def forward(self, a, dim):
        if a.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        self.dim = check_dim(dim, a.ndim)
        self.self_shape = a.shape
        return [a[(slice(None),) * self.dim + (k, Ellipsis)] for k in range(a.shape[self.dim])]

    def view_of(self, k):
        return _UnbindView, (self.dim, k)

    def zeros_like_output(self, k, grad):
        return _zeros(self.self_shape[:self.dim] + self.self_shape[self.dim + 1:], grad)

    def backward(self, grads):
        return np.stack(grads, axis=self.dim)

    def call_backward_on_tensors(self, grads):
        if all(g is None for g in grads):
            return (None,)
        return (StackBackward0.apply(self.grads_or_zeros(grads), self.dim),)


class _Split(MultiOutputOp):
    """split and split_with_sizes: outputs are consecutive slices along dim."""

    def cut(self, a, dim, sizes):
        self.dim, self.self_sym_sizes = dim, a.shape
        self.starts = np.cumsum([0] + list(sizes[:-1])).tolist()
        self.sizes = list(sizes)
        return [a[(slice(None),) * dim + (slice(s, s + n),)] for s, n in zip(self.starts, self.sizes)]

    def view_of(self, k):
        return _SplitView, (self.dim, slice(self.starts[k], self.starts[k] + self.sizes[k]))

    def zeros_like_output(self, k, grad):
        shape = list(self.self_sym_sizes)
        shape[self.dim] = self.sizes[k]
        return _zeros(tuple(shape), grad)

    def backward(self, grads):
        return np.concatenate(grads, axis=self.dim)

    def call_backward_on_tensors(self, grads):
        if all(g is None for g in grads):
            return (None,)
        return (CatBackward0.apply(self.grads_or_zeros(grads), self.dim),)


class SplitBackward0(_Split):
    """outs = self.split(split_size, dim)   (also chunk)

    PyTorch's rule: self: split_backward(grads, split_size, dim, self_sym_sizes)

    The gradients of the pieces concatenated back along dim, zeros for a
    piece that got none. With create_graph=True that is a CatBackward0 node.
    """
    attrs = ("dim", "self_sym_sizes", "split_size")

    def forward(self, a, split_size, dim):
        if a.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        dim = check_dim(dim, a.ndim)
        n = a.shape[dim]
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        if split_size == 0 and n != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        self.split_size = split_size
        count = max(1, -(-n // split_size)) if split_size else 1
        sizes = [split_size] * (count - 1) + [n - split_size * (count - 1)]
        return self.cut(a, dim, sizes)


class UnsafeSplitBackward0(SplitBackward0):
    """outs = self.unsafe_split(split_size, dim)   (also unsafe_chunk: the RNN cells' gates)

    PyTorch's rule: self: split_backward(grads, split_size, dim, self_sym_sizes)

    split's rule. "Unsafe" because PyTorch does not mark the pieces as views
    of the input, so its RNN cells may write into them in place; here they
    are split's views, and the cells (nn/modules/rnn.py) write out of place.
    """


class SplitWithSizesBackward0(_Split):
    """outs = self.split(split_sizes, dim)   (a list of sizes)

    PyTorch's rule: self: split_with_sizes_backward(grads, split_sizes, dim, self_sym_sizes)

    As split: the pieces' gradients concatenated back, zeros where none came.
    """
    attrs = ("dim", "self_sym_sizes", "split_sizes")

    def forward(self, a, split_sizes, dim):
        if a.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        dim = check_dim(dim, a.ndim)
        n = a.shape[dim]
        sizes = [int(s) for s in split_sizes]
        if sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
                               f"at dimension {dim}), but got split_sizes=[{', '.join(map(str, sizes))}]")
        self.split_sizes = tuple(sizes)
        return self.cut(a, dim, sizes)


class _UnbindView(SelectBackward0):
    """How output k of unbind is made from its input, for the view machinery
    (views.py): a select that may not be written in place."""
    multi_output_view = True


class _SplitView(SliceBackward0):
    """How output k of split is made from its input: a slice that may not be
    written in place."""
    multi_output_view = True


# -- the Tensor methods and torch functions ---------------------------------------------

def unbind(input, dim=0):
    return UnbindBackward0.apply(input, dim)


def split(tensor, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, (list, tuple)):
        return SplitWithSizesBackward0.apply(tensor, split_size_or_sections, dim)
    return SplitBackward0.apply(tensor, int(split_size_or_sections), dim)


def split_with_sizes(x, split_sizes, dim=0):
    return SplitWithSizesBackward0.apply(x, split_sizes, dim)


def chunk(input, chunks, dim=0):
    """split into pieces of ceil(size / chunks): fewer than chunks if they do not divide."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if input.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    n = input.shape[check_dim(dim, input.dim())]
    if n == 0:      # PyTorch: `chunks` empty pieces
        return SplitWithSizesBackward0.apply(input, [0] * chunks, dim)
    return SplitBackward0.apply(input, -(-n // chunks), dim)


def unsafe_chunk(input, chunks, dim=0):
    """chunk recorded as UnsafeSplitBackward0 (PyTorch's RNN cells on the CPU)."""
    n = input.shape[check_dim(dim, input.dim())]
    return UnsafeSplitBackward0.apply(input, -(-n // chunks), dim)


def tensor_split(input, indices_or_sections, dim=0):
    """Not one node: each piece is its own slice (SliceBackward0), as in PyTorch."""
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = check_dim(dim, input.dim())
    n = input.shape[d]
    if isinstance(indices_or_sections, (list, tuple)):
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    else:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        small, extra = divmod(n, sections)
        sizes = [small + 1] * extra + [small] * (sections - extra)
        bounds = np.cumsum([0] + sizes).tolist()
    return tuple(SliceBackward0.apply(input, d, slice(s, e)) for s, e in zip(bounds, bounds[1:]))
