"""Watch real PyTorch run backward, one node at a time.

``watch()`` reports every real PyTorch backward run, until its handle is
removed, to the observers of ``autograd_teach.core.engine.add_observer``: the
one registry, so an observer (the viz recorder) subscribes once and watches
both engines with the same begin / step / end protocol.

* ``begin(roots)`` is called when a backward run starts, with its root Nodes
  (PyTorch's own ``grad_fn`` objects; ``AccumulateGrad`` for a leaf), and
  returns a per-run watcher, or None to skip the run;
* ``watcher.step(node, grad_outputs, grad_inputs)`` after each node PyTorch's
  engine ran, in the order it ran them: ``grad_outputs`` the gradients that
  flowed into the node (one per output of its forward), ``grad_inputs`` what
  it sent on (one per ``next_functions`` entry, ``()`` for AccumulateGrad);
  numpy copies, None where PyTorch had no gradient;
* ``watcher.failed(error)``, if the watcher has it, when the run raised
  (a second backward through a freed graph, a hook or a custom Function's
  backward that raised), with the exception, before ``end()``;
* ``watcher.end()`` once the run is over, also when it failed;
* ``watcher.hold_while(tensors)``, if the watcher has it, as the run begins,
  with the tensors backward started from: PyTorch's nodes take no weak
  references, so a watcher that keeps them can let go when those tensors go.

How, with PyTorch's public API only.  While anyone watches,
``torch.autograd.backward`` and ``torch.autograd.grad`` (which
``Tensor.backward`` calls) are wrapped.  The wrapper walks the graph from the
roots and puts a pre-hook and a hook (``Node.register_prehook`` /
``Node.register_hook``) on every node, runs the real backward, then removes
them.  PyTorch calls a node's hook right after the node ran, with the
gradients in and out: one step.  A run begins at the first node's pre-hook,
as in autograd_teach's engine: a call that fails before any node runs
(a non-scalar output without ``gradient=``) is no run.

Notes, all of them PyTorch's behaviour, not ours:

* CPU backward runs on the thread that called it, so a hook knows its run by
  the thread (``_running``); a backward inside a backward (a custom
  Function calling ``torch.autograd.grad``) is a run of its own.
  Backward on a GPU runs on PyTorch's device threads: not recorded.
* Every hook is removed through its handle, as a user's own
  ``register_hook`` + ``remove`` would: none of ours runs again, and nothing
  of the graph is kept alive (tested).  While a node has hooks, PyTorch's
  AccumulateGrad may copy the gradient into ``.grad`` where it could have
  reused the engine's buffer: the values are the same.
* A run that fails before our first pre-hook (a hook registered with
  ``register_hook`` on the very tensor backward starts from, which PyTorch
  calls before any node's pre-hook) is, like a call with wrong arguments,
  no run: it is not recorded, and draw() shows the last one that was.
* ``torch.func`` transforms and ``is_grads_batched=True`` calls are not
  recorded: their gradients are wrapped tensors with no values to show.
* Code that took ``backward``/``grad`` out of ``torch.autograd`` before
  subscribing (``from torch.autograd import grad``) calls the unwrapped
  function: not recorded.

Importing this module imports nothing and changes nothing; the first
``watch()`` installs the wrappers, the last ``handle.remove()`` takes them
out again.
"""
from __future__ import annotations

import functools
import sys
import threading
from collections import deque
from typing import NamedTuple

import numpy as np

from ..core import engine

_lock = threading.RLock()   # guards everything below (removing a handle may run inside a backward)
_watching = []             # a WatchHandle per watch() not removed yet
_originals = None          # (torch.autograd, backward, grad) while wrapped; None otherwise
_hooked = {}               # Node -> [number of runs using it, pre handle, post handle]
_running = threading.local()   # .runs: this thread's active runs, innermost last


def torch_imported():
    """True when real PyTorch is already imported (never imports it).

    ``sys.modules["torch"]`` may be autograd_teach itself (``import
    autograd_teach as torch`` does not do that, but the golden runner
    aliases it), so look for PyTorch's compiled core, ``torch._C``
    (autograd_teach has a ``torch.autograd.graph`` of its own)."""
    torch = sys.modules.get("torch")
    return torch is not None and getattr(torch, "_C", None) is not None


class WatchHandle:
    """What watch returns: ``.remove()`` stops watching (twice is harmless)."""

    def remove(self):
        with _lock:
            if self in _watching:
                _watching.remove(self)
            if not _watching:
                _unwrap()


def watch():
    """Report every real PyTorch backward run from now on, until the handle is
    removed, to the engine's observers (``engine.add_observer``)."""
    import torch
    if getattr(torch, "_C", None) is None:      # see torch_imported
        raise ImportError("torch_record watches real PyTorch, but 'torch' is not PyTorch here")
    handle = WatchHandle()
    with _lock:
        _watching.append(handle)
        _wrap(torch.autograd)
    return handle


# --- the wrappers around torch.autograd.backward / torch.autograd.grad ------

def _wrap(autograd):
    global _originals
    if _originals is None:
        _originals = (autograd, autograd.backward, autograd.grad)
        autograd.backward = _watched(autograd.backward, "tensors")
        autograd.grad = _watched(autograd.grad, "outputs")


def _unwrap():
    global _originals
    if _originals is not None:
        autograd, backward, grad = _originals
        # Put back only what is still ours; a wrapper someone put over ours
        # stays, and ours then just passes calls through.
        if getattr(autograd.backward, "__wrapped__", None) is backward:
            autograd.backward = backward
        if getattr(autograd.grad, "__wrapped__", None) is grad:
            autograd.grad = grad
        _originals = None


def _watched(original, first):
    """``original`` (backward or grad), reported to the engine's observers."""
    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        begins = engine.observers()
        tensors = args[0] if args else kwargs.get(first)
        if not begins or tensors is None or _transformed(kwargs):
            return original(*args, **kwargs)
        run = _Run(begins, _roots(tensors), _tensors(tensors))
        nodes = _hook(run.roots)
        stack = _running.__dict__.setdefault("runs", [])
        stack.append(run)
        try:
            return original(*args, **kwargs)
        except BaseException as error:
            run.failed(error)
            raise
        finally:
            stack.pop()
            _unhook(nodes)
            run.end()
    return wrapper


def _transformed(kwargs):
    """True for the calls whose gradients are not plain tensors: batched
    (``is_grads_batched=True``) or inside a ``torch.func`` transform, whose
    ``grad`` calls ``torch.autograd.grad`` on wrapped tensors.  They are not
    recorded.  (PyTorch's ``backward`` makes the same functorch check.)"""
    import torch
    active = getattr(torch._C, "_are_functorch_transforms_active", lambda: False)
    return bool(kwargs.get("is_grads_batched")) or active()


def _tensors(tensors):
    """The tensors a backward starts from, as a list (a GradientEdge is none)."""
    return [tensors] if hasattr(tensors, "grad_fn") else [t for t in tensors if hasattr(t, "grad_fn")]


def _roots(tensors):
    """The Nodes a backward starts from: grad_fn, or a leaf's AccumulateGrad."""
    from torch.autograd.graph import GradientEdge, get_gradient_edge
    if isinstance(tensors, GradientEdge) or hasattr(tensors, "grad_fn"):
        tensors = (tensors,)
    roots = []
    for t in tensors:
        if isinstance(t, GradientEdge):
            roots.append(t.node)
        elif getattr(t, "grad_fn", None) is not None:
            roots.append(t.grad_fn)
        elif getattr(t, "requires_grad", False):
            roots.append(get_gradient_edge(t).node)
    return list(dict.fromkeys(roots))


# --- hooks on every node of the graph, while a run needs them --------------

def _hook(roots):
    """Hook every node reachable from roots (not hooked yet); return them all.

    A node shared by two runs at once (a parameter used in two threads) is
    hooked once and counted: its hooks report to whichever run is running
    on the thread that executes it."""
    nodes = _walk(roots)
    done = []
    with _lock:
        try:
            for node in nodes:
                entry = _hooked.get(node)
                if entry is None:
                    _hooked[node] = entry = [0, node.register_prehook(functools.partial(_prehook, node)),
                                             node.register_hook(functools.partial(_posthook, node))]
                entry[0] += 1
                done.append(node)
        except BaseException:
            _unhook(done)
            raise
    return nodes


def _unhook(nodes):
    with _lock:
        for node in nodes:
            entry = _hooked[node]
            entry[0] -= 1
            if entry[0] == 0:
                del _hooked[node]
                entry[1].remove()
                entry[2].remove()


def _walk(roots):
    """Every node reachable from roots, each once (iterative: graphs can be deep)."""
    seen, queue = set(roots), deque(roots)
    order = []
    while queue:
        node = queue.popleft()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                queue.append(child)
    return order


def _current():
    runs = getattr(_running, "runs", None)
    return runs[-1] if runs else None


def _prehook(node, grad_outputs):
    run = _current()
    if run is not None:
        run.start()
        if node.name() == "torch::autograd::AccumulateGrad":
            # Copy the incoming gradient now: AccumulateGrad may adopt this very
            # tensor as the leaf's .grad, which another thread's backward can add
            # into before our post-hook reads it.
            run.incoming[node] = tuple(to_numpy(g) for g in grad_outputs)


def _posthook(node, grad_inputs, grad_outputs):
    # PyTorch's names, seen from the forward: grad_outputs came in, grad_inputs go out.
    run = _current()
    if run is not None:
        run.step(node, grad_outputs, grad_inputs)


class _Run:
    """One backward call: begins its watchers at the first node, ends them once."""

    def __init__(self, begins, roots, outputs):
        self.begins = begins
        self.roots = roots
        self.outputs = outputs       # the tensors backward started from: a watcher may hold what lives with them
        self.watchers = None         # None until the first node runs
        self.incoming = {}           # AccumulateGrad node -> its gradient, copied before it ran

    def start(self):
        if self.watchers is None:
            self.watchers = []
            for begin in self.begins:
                watcher = begin(list(self.roots))
                if watcher is not None:
                    self.watchers.append(watcher)
                    if hasattr(watcher, "hold_while"):
                        watcher.hold_while(self.outputs)

    def step(self, node, grad_outputs, grad_inputs):
        self.start()
        if self.watchers:
            outs = self.incoming.pop(node, None) or tuple(to_numpy(g) for g in grad_outputs)
            ins = tuple(to_numpy(g) for g in grad_inputs)
            for w in self.watchers:
                w.step(node, outs, ins)

    def failed(self, error):
        """The run raised: its watchers that ask (``failed``) are told, before ``end()``."""
        for w in self.watchers or ():
            if hasattr(w, "failed"):
                w.failed(error)

    def end(self):
        for w in self.watchers or ():
            w.end()


def is_torch_tensor(value):
    """True for a real PyTorch tensor (never imports torch)."""
    return torch_imported() and isinstance(value, sys.modules["torch"].Tensor)


class SavedInfo(NamedTuple):
    """One value a PyTorch node saved: as autograd_teach's ``saved_tensors_info`` lists them."""
    name: str
    value: object
    saved_version: int | None = None     # PyTorch does not say which version it saved
    current_version: int | None = None


def saved_tensors_info(fn):
    """What a PyTorch node saved for backward, read as torchviz reads it (its
    ``_saved_*`` attributes, a tuple of tensors one by one); None once backward
    freed them (reading one then raises)."""
    torch = sys.modules["torch"]
    out = []
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        try:
            value = getattr(fn, attr)
        except RuntimeError:
            return None
        if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
            out.extend(SavedInfo(f"{attr}[{i}]", v) for i, v in enumerate(value))
        else:
            out.append(SavedInfo(attr, value))
    return out


def saved_freed(fn):
    """True when backward freed a PyTorch node's saved tensors: reading one
    raises, as PyTorch's own "backward through the graph a second time" says."""
    for attr in dir(fn):
        if attr.startswith("_saved_"):
            try:
                getattr(fn, attr)
            except RuntimeError:
                return True
    return False


def is_torch_node(fn):
    """True for a node of real PyTorch's graph (never imports torch)."""
    return torch_imported() and isinstance(fn, sys.modules["torch"].autograd.graph.Node)


# float32 whose dtype says "bfloat16" (values.dtype_name reads it); copies keep it
BFLOAT16 = np.dtype(np.float32, metadata={"torch": "bfloat16"})


def to_numpy(g):
    """A copy of a PyTorch tensor as a numpy array: off the GPU, out of the
    graph (plain ``.numpy()`` refuses a tensor that requires grad, as a
    gradient does under ``create_graph=True``), bfloat16 as float32, and
    PyTorch's ZeroTensor (what ``SgnBackward0`` sends for real inputs) as the
    zeros it stands for."""
    if g is None:
        return None
    import torch
    g = g.detach().cpu()
    if g.layout != torch.strided:
        g = g.to_dense()
    if g.dtype == torch.bfloat16:        # numpy has no bfloat16: float32 values, marked as bfloat16
        return g.float().numpy(force=True).copy().view(BFLOAT16)
    return g.numpy(force=True).copy()     # force: resolves conj/neg, and a ZeroTensor's zeros
