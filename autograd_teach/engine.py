"""The backward engine. In PyTorch this is torch/csrc/autograd/engine.cpp.

1. Walk the graph from the roots (iteratively, no recursion) and count, for
   every node, how many edges lead into it: its dependencies.
2. Start with the roots' gradients in their input buffers. A node is ready
   when all its dependencies have delivered; ready nodes wait in a priority
   queue ordered like PyTorch's: AccumulateGrad first, then the most recently
   created node (highest sequence number).
3. Run a ready node: its backward turns the gradient w.r.t. its output into
   one gradient per `next_functions` entry; add each into that node's buffer.
   AccumulateGrad nodes add into `leaf.grad`.
4. Without retain_graph, each node frees its saved tensors once it has run.

If anything fails mid-way, every `.grad` written so far is restored, so a
failed backward leaves no half-updated gradients behind.
"""
import heapq
import threading

import numpy as np

from . import function
from .function import AccumulateGrad

# Set by autograd_teach.viz to watch the engine: on_step(node, grad_outputs,
# grad_inputs) after each node, on_begin(roots) / on_end() around a run.
# (Being replaced by add_observer below.)
_recorder = None

_observers = []          # what add_observer subscribed; empty unless someone asked
_observers_lock = threading.Lock()


class ObserverHandle:
    """What add_observer returns: .remove() unsubscribes (twice is harmless)."""

    def __init__(self, begin):
        self._begin = begin

    def remove(self):
        with _observers_lock:
            if self._begin in _observers:
                _observers.remove(self._begin)


def add_observer(begin):
    """Watch every backward run from now on, until the handle is removed.

    ``begin(roots)`` is called as a run starts (roots: its root nodes) and
    returns a per-run watcher, or None to skip this run. The watcher's
    ``step(node, grad_outputs, grad_inputs)`` is called after each node runs,
    and ``end()`` once the run is over, also when it failed. Each run gets its
    own watcher, so runs in several threads never share one."""
    with _observers_lock:
        _observers.append(begin)
    return ObserverHandle(begin)


def dependencies(roots):
    """Number of incoming edges of every node reachable from roots."""
    deps = {}
    stack = list(dict.fromkeys(roots))   # a root given twice is still one node
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def topological_order(roots):
    """The order in which `execute` runs the nodes (used by tests and viz)."""
    order = []
    placeholders = [(r, 0) for r in roots]   # any summable stand-in for a gradient: only the order matters
    execute(placeholders, retain_graph=True, accumulate=False, visit=order.append)
    return order


def execute(roots, retain_graph=False, accumulate=True, capture=None, visit=None, recorder=None):
    """Run backward from roots: a list of (node, gradient array).

    accumulate -- add into leaf .grad (backward) or not (autograd.grad)
    capture    -- dict {node: None}: gradients arriving at these nodes are
                  stored there (autograd.grad, backward(inputs=...)); then
                  only the nodes on a path to them run, as in PyTorch
    visit      -- called with each node in run order, which is all it does
    """
    if visit is None and recorder is None:   # an order-only walk is not a backward pass: not recorded
        recorder = _recorder
    root_nodes = [n for n, _ in roots]
    deps = dependencies(root_nodes)
    needed = None if capture is None else _needed(root_nodes, capture)
    buffers = {}
    for node, grad in roots:
        buffers[node] = grad if node not in buffers else buffers[node] + grad
    ready, tie = [], 0
    for node in dict.fromkeys(root_nodes):
        if deps.get(node, 0) == 0 and (needed is None or node in needed or node in capture):
            heapq.heappush(ready, (-node._seq, tie, node))
            tie += 1
    undo = []  # (leaf, its .grad before this run, a copy of its data) for rollback
    if recorder is not None and hasattr(recorder, "on_begin"):
        recorder.on_begin(root_nodes)
    watchers = _begin_watchers(root_nodes) if _observers and visit is None else ()
    try:
        while ready:
            node = heapq.heappop(ready)[2]
            grad = buffers.pop(node)
            hooks = node.variable._hooks if type(node) is AccumulateGrad else node._pre_hooks
            if hooks and visit is None:
                grad = _run_hooks(hooks, grad)
            if capture is not None and node in capture:
                capture[node] = grad
            if needed is not None and node not in needed:
                continue
            if visit is not None:
                visit(node)
                grads = tuple(None if n is None else grad for n, _ in node.next_functions)
            elif type(node) is AccumulateGrad:
                if accumulate:
                    _accumulate(node.variable, grad, undo)
                grads = ()
            else:
                if node._retain_refs:
                    _retain(node, grad, undo)
                grads = node._apply_backward(grad)
                if not retain_graph:
                    node._release()
            if recorder is not None:
                recorder.on_step(node, (grad,), grads)
            for w in watchers:
                w.step(node, (grad,), grads)
            for (nxt, _), g in zip(node.next_functions, grads):
                if nxt is None or (needed is not None and nxt not in needed and nxt not in capture):
                    continue
                if g is not None:
                    buffers[nxt] = g if nxt not in buffers else buffers[nxt] + g
                deps[nxt] -= 1
                if deps[nxt] == 0 and nxt in buffers:
                    heapq.heappush(ready, (-nxt._seq, tie, nxt))
                    tie += 1
    except BaseException:
        for leaf, old_grad, old_data in reversed(undo):
            if old_grad is not None:
                old_grad._data[...] = old_data
            leaf._grad = old_grad
        raise
    finally:
        if recorder is not None and hasattr(recorder, "on_end"):
            recorder.on_end()
        for w in watchers:
            w.end()


def _begin_watchers(root_nodes):
    with _observers_lock:
        begins = tuple(_observers)
    return [w for w in (b(root_nodes) for b in begins) if w is not None]


def _run_hooks(hooks, grad):
    """Tensor hooks (register_hook): each sees the gradient and may replace it."""
    for hook in list(hooks):
        out = hook(function.Tensor._make(grad))
        if out is not None:
            if out.shape != grad.shape:
                raise RuntimeError(f"hook '{getattr(hook, '__name__', hook)}' has changed the size of value")
            grad = out._data
    return grad


def _accumulate(leaf, grad, undo):
    """AccumulateGrad: the first gradient becomes .grad (a fresh copy, so that
    no two leaves ever share one array); later ones are added in place."""
    old = leaf._grad
    if old is None:
        undo.append((leaf, None, None))
        leaf._grad = function.Tensor._make(np.array(grad, dtype=leaf._data.dtype))
    else:
        undo.append((leaf, old, old._data.copy()))
        old._data += grad
        old._version_box[0] += 1


def _needed(roots, targets):
    """The nodes that must run for gradients to reach targets: those with a
    path to one (PyTorch's exec_info). Other branches are skipped, so a freed
    or modified part of the graph that the targets do not depend on is harmless."""
    parents, stack, seen = {}, list(roots), set(roots)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                parents.setdefault(nxt, []).append(node)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    needed, stack = set(), [t for t in targets if t in seen]
    while stack:
        for p in parents.get(stack.pop(), ()):
            if p not in needed:
                needed.add(p)
                stack.append(p)
    return needed


def _retain(node, grad, undo):
    """retain_grad(): a non-leaf keeps the gradient that reached its grad_fn.
    Unlike AccumulateGrad, PyTorch's hook adds out of place: a new tensor each time."""
    Tensor = function.Tensor
    for ref in node._retain_refs:
        t = ref()
        if t is not None and t.grad_fn is node:
            old = t._grad
            undo.append((t, old, None if old is None else old._data.copy()))
            t._grad = Tensor._make(np.array(grad if old is None else old._data + grad, dtype=t._data.dtype))
