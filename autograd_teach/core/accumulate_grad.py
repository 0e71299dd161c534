"""Where gradients end up: a leaf's .grad, written by its AccumulateGrad.

The engine's last step for every leaf is an `AccumulateGrad` node: the first
gradient becomes .grad (a copy), later ones are added into it in place, and
then the leaf's post-accumulate hooks run. `RetainGrad` does the same for a
non-leaf that asked for retain_grad(). Every write is logged, so that a
backward that fails half-way puts each .grad back (`restore_grad`).

`LeafGrad` is a base class of Tensor, as views.py's InplaceOrView is: the
attributes backward writes (.grad, and what a leaf keeps for it) are this
module's own, and since every Tensor is a LeafGrad, `isinstance(g, LeafGrad)`
tells a Tensor from a numpy array here without importing tensor.py (which
imports this module).
"""
import weakref

import numpy as np

from .. import ops as O
from ..compat.overlap import dense
from .node import Node, call_post_hooks, quiet_call

UINT64_MAX = 2 ** 64 - 1


class LeafGrad:
    """A tensor's .grad and what backward needs to write it (PyTorch keeps
    these in the tensor's AutogradMeta)."""
    __slots__ = ()
    _grad = None                    # .grad, without the property's checks
    _acc = None                     # a leaf's AccumulateGrad, weakly
    _hooks = None                   # a leaf's register_hook() hooks (a non-leaf's live on its grad_fn)
    _post_accumulate_hooks = None   # a leaf's register_post_accumulate_grad_hook() hooks


class AccumulateGrad(Node):
    """The sink for a leaf: adds the incoming gradient into `variable.grad`.
    The first gradient becomes .grad (a fresh copy, so that no two leaves ever
    share one array); later ones are added in place, as in PyTorch."""
    sequence_nr = UINT64_MAX    # as in PyTorch: among ready nodes, leaves accumulate first

    def __init__(self, variable):
        self.variable = variable
        self.dtype = variable._data.dtype     # PyTorch's input metadata: .grad keeps it if .data's dtype changes since
        self.tensor_pre_hooks = variable._hooks    # the leaf's register_hook() list (it adds it here if later)

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def run(self, grad, task):
        if task.accumulate and grad is not None and self.variable._requires_grad:   # (requires_grad_(False) since)
            accumulate_grad(self.variable, grad, task.undo, self.dtype)
            if self.variable._post_accumulate_hooks:
                call_post_accumulate_hooks(self.variable)
        return call_post_hooks(self, (), (grad,), task) if self.post_hooks else ()


def has_post_accumulate_hooks(leaf):
    return bool(leaf._post_accumulate_hooks)


def call_post_accumulate_hooks(leaf):
    """register_post_accumulate_grad_hook: each hook sees the leaf, .grad
    updated, and must return None (PyTorch's two errors otherwise)."""
    for hook in list(leaf._post_accumulate_hooks):
        out = hook(leaf)
        if isinstance(out, LeafGrad):
            raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        if out is not None:
            raise TypeError(f"expected Variable, but hook returned '{type(out).__name__}'")


def accumulate_grad(leaf, grad, undo, dtype=None):
    if isinstance(grad, LeafGrad):        # create_graph=True: a Tensor, added out of place
        return accumulate_grad_tensor(leaf, grad, undo)
    old = leaf._grad
    if old is None:
        undo.append((restore_grad, leaf, None, None))
        leaf._grad = leaf._wrap(first_grad(grad, leaf._data, dtype or leaf._data.dtype))
    else:
        undo.append((restore_grad, leaf, old, old._data.copy()))
        quiet_call(np.add, old._data, grad, old._data)     # += (inf - inf: nan, silently, as PyTorch's)
        old._bump_version()


def first_grad(grad, data, dtype):
    """A copy of the first gradient, laid out as the leaf is (PyTorch's
    clone_obey_contract: a transposed leaf gets a transposed .grad, and a
    leaf's .grad is row-major whatever the layout of the gradient)."""
    if grad.flags.c_contiguous and data.flags.c_contiguous:
        return grad.astype(dtype)      # (the usual case: np.array's copy, without its argument parsing)
    out = np.empty_like(data, dtype=dtype, order="K" if dense(data) else "C")
    np.copyto(out, grad, casting="unsafe")
    return out


def accumulate_grad_tensor(leaf, grad, undo):
    """With create_graph=True (grad mode on), PyTorch keeps the gradient's
    history in .grad: the first one is copied into a new tensor (grad_fn
    CopyBackwards), later ones are added out of place (AddBackward0), so .grad
    can be differentiated again."""
    old = leaf._grad
    undo.append((restore_grad, leaf, old, None))
    if old is None:
        leaf._grad = O.CopyBackwards.apply(leaf._wrap(np.empty_like(leaf._data)), grad)
    else:
        leaf._grad = old + grad


def restore_grad(t, old_grad, old_data):
    """Undo one write into t.grad: what the engine calls when a backward fails."""
    if old_grad is not None:
        old_grad._data[...] = old_data
    t._grad = old_grad


class RetainGrad:
    """retain_grad()'s hook on the tensor's grad_fn: the tensor keeps the
    gradient that reaches that node. Unlike AccumulateGrad, PyTorch's hook adds
    out of place: a new tensor each time."""
    __slots__ = ("ref",)

    def __init__(self, t):
        self.ref = weakref.ref(t)

    def __call__(self, node, grad, undo):
        t = self.ref()
        if t is None or t.grad_fn is not node:    # gone, or it has a newer history (in-place)
            return
        old = t._grad
        undo.append((restore_grad, t, old, None))
        if isinstance(grad, LeafGrad):           # create_graph=True: keep the history, as PyTorch does
            t._grad = grad.clone() if old is None else old + grad
            return
        t._grad = t._wrap(np.array(grad if old is None else old._data + grad, dtype=t._data.dtype))
