"""The backward engine: it only schedules. In PyTorch this is
torch/csrc/autograd/engine.cpp.

1. Count, for every node reachable from the roots, how many edges lead into
   it (`dependencies`): it is ready once that many gradients have arrived.
2. Start with the roots' gradients in their input buffers.
3. Loop: take the ready node with the highest priority, run it (the node
   knows its own work: an op node calls its backward, AccumulateGrad adds
   into .grad), add each gradient it returns into the buffer of the node its
   edge leads to, and count that dependency off. The priority is PyTorch's
   ready queue: the highest sequence_nr first, that is the node created
   last; AccumulateGrad's is the largest there is (UINT64_MAX), so a leaf's
   .grad is filled as soon as its gradient is complete.

Everything else is the node's business (node.py, tensor.py) or the task's:
a `GraphTask` holds what one backward call asked for (retain_graph,
create_graph, the inputs of autograd.grad) and a log that puts every .grad
back if the call fails half-way. Observers (viz, anomaly mode) subscribe with
`add_observer`: the one registry, for this engine's runs and for real
PyTorch's, which viz/torch_record.py reports to the same observers.

With create_graph=True the loop is the same; only what flows through it
changes: the gradients are Tensors instead of numpy arrays, and grad mode is
on while the nodes run, so each node's backward is recorded as a graph of its
own (Node.run makes that choice). As in PyTorch, grad mode during a backward
is create_graph.
"""
import heapq
import itertools
import threading

import numpy as np
from numpy import add as np_add, ndarray   # (3.11 cannot specialize np.<name>: numpy's module has a __getattr__)

from . import grad_mode
from .node import QUIET, numpy_errors, quiet_call

_observers = []          # what add_observer subscribed; empty unless someone asked
_observers_lock = threading.Lock()


def accumulate_into(buffer, grad):
    """The sum of two gradients for one node. numpy adds two 0-d arrays into a
    numpy scalar, which a node writing into its gradient (CopySlices) would
    write into a copy of: make it an array again. (Tensors under create_graph
    add as Tensors.)"""
    total = np.add(buffer, grad) if type(buffer) is np.ndarray else buffer + grad   # inf - inf: nan, silently (GraphTask)
    return np.asarray(total) if isinstance(total, np.generic) else total


def execute(roots, retain_graph=False, accumulate=True, capture=None, create_graph=False, wrap=None, run=()):
    """Run backward from roots, a list of (node, gradient): numpy arrays, or
    Tensors when create_graph. For what the other arguments mean, see GraphTask."""
    task = GraphTask(roots, retain_graph, accumulate, capture, create_graph, wrap, run)
    needed = task.needed    # None: every node runs
    deps = dependencies(task.roots)
    buffers, ready, arrival = start(roots, deps, task)
    with task:    # observers see the run begin and end; if it fails, every .grad it wrote is put back
        traces, pop, push = task.traces, heapq.heappop, heapq.heappush
        while ready:
            node = pop(ready)[-1]
            grad = buffers.pop(node)
            if node.tensor_pre_hooks:                # register_hook: a hook may change the gradient
                grad = node.call_tensor_pre_hooks(grad)
            if capture is not None and node in capture:
                capture[node] = grad                 # an input of autograd.grad: keep its gradient
            if needed is not None and node not in needed:
                continue                             # not on a path to what autograd.grad wants
            if node.retains_grad_hooks or node.pre_hooks:   # retain_grad(), grad_fn.register_prehook
                grad = node.call_pre_hooks(grad, task)
            grads = node.run(grad, task)             # one gradient per next_functions edge
            for trace in traces:   # observers (see add_observer): an append, far cheaper than a Python call
                trace.append((node, grad if node.num_outputs == 1 else node.slots_of(grad), grads))
            edges = node.next_functions
            for i, g in enumerate(grads):      # (enumerate costs less than a zip here)
                nxt, nr = edges[i]
                if nxt is None or (needed is not None and nxt not in needed and nxt not in capture):
                    continue
                if g is not None:
                    if nxt.num_outputs != 1:     # a node with several outputs: g goes to slot nr
                        g = nxt.slot(nr, g)
                    if (before := buffers.get(nxt)) is not None:   # gradients from several edges add up
                        g = np_add(before, g) if type(before) is ndarray and before.ndim else accumulate_into(before, g)
                    buffers[nxt] = g
                elif nxt not in buffers:   # None counts too: as in PyTorch, the node runs with None
                    buffers[nxt] = None     # (a custom backward's None for an input that needed a gradient)
                left = deps[nxt] = deps[nxt] - 1
                if left == 0:  # PyTorch's ready queue: newest node first (see the docstring); ties: arrival
                    push(ready, (-nxt.sequence_nr, next(arrival), nxt))


def start(roots, deps, task):
    """The roots' gradients in their input buffers, and the ready queue with
    the roots no other root leads to: (buffers, ready, arrival)."""
    buffers, ready, arrival = {}, [], itertools.count()
    for node, grad in roots:
        buffers[node] = grad if node not in buffers else quiet_call(accumulate_into, buffers[node], grad)   # (before the run)
    for node in buffers:    # the roots, each once, in order
        if deps.get(node, 0) == 0 and (task.needed is None or task.reaches(node)):
            heapq.heappush(ready, (-node.sequence_nr, next(arrival), node))
    return buffers, ready, arrival


def as_arrays(outs, grads):
    """A create_graph step's gradients (Tensors) as the numpy arrays observers get."""
    return tuple(None if g is None else g._data for g in outs), tuple(None if g is None else g._data for g in grads)


def trace_entry_as_arrays(node, grad, grads):
    """A create_graph trace entry (see add_observer) with numpy arrays for Tensors."""
    outs, grads = as_arrays(grad if type(grad) is tuple else (grad,), grads)
    return node, outs if type(grad) is tuple else outs[0], grads


def dependencies(roots):
    """Number of incoming edges of every node reachable from roots."""
    deps = {}
    stack = list(dict.fromkeys(roots))   # a root given twice is still one node
    root_nodes = set(stack)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:                 # reached for the first time: its edges are next (a root's already are)
                deps[nxt] = 1
                if nxt not in root_nodes:
                    stack.append(nxt)
    return deps


class GraphTask:
    """What one backward call asked for (PyTorch's GraphTask).

    accumulate -- add into leaf .grad (backward) or not (autograd.grad)
    capture    -- dict {node: None}: the gradient arriving at each of these
                  nodes is stored there (autograd.grad, backward(inputs=...)),
                  and only the nodes on a path to them run, as in PyTorch
    create_graph -- the nodes run on Tensors, recording their own backward
                  (Node.run)
    wrap        -- array -> Tensor, for the node hooks (grad_fn.register_hook),
                  which see Tensors as in PyTorch
    run         -- captured nodes that run all the same: backward(inputs=[leaf])
                  runs the leaf's AccumulateGrad, as in PyTorch

    `with task:` brackets the run: the observers' watchers begin and end
    around it, and if it fails, every .grad write in the undo log is undone.
    Inside, grad mode is create_graph, as in PyTorch: on, each node's
    backward is recorded; off, nothing a hook does is. numpy's warnings are
    off for the whole run (compat/numpy_errors.py).
    """

    def __init__(self, roots, retain_graph, accumulate, capture, create_graph=False, wrap=None, run=()):
        self.roots = [node for node, _ in roots]
        self.retain_graph, self.accumulate, self.capture = retain_graph, accumulate, capture
        self.create_graph = create_graph
        self.wrap = wrap    # array -> Tensor (Tensor._wrap): how a node hook sees a gradient
        # The nodes on a path to a captured one (PyTorch's exec_info); None: all run.
        self.needed = None if capture is None else nodes_leading_to(self.roots, capture) | set(run)
        self.undo = []      # how to put back each .grad this call writes: (function, *its arguments)

    def reaches(self, node):
        """Does anything this call wants lie at or beyond node?"""
        return self.needed is None or node in self.needed or node in self.capture

    def __enter__(self):
        self.watchers = begin_watchers(self.roots) if _observers else ()
        self.traces = [trace_of(w, self.create_graph) for w in self.watchers] if self.watchers else ()
        self.grad_mode_before = grad_mode.swap_grad_enabled(self.create_graph)
        self.numpy_errors = numpy_errors.set(QUIET)    # inf and nan silently, as PyTorch: no numpy warning
        return self

    def __exit__(self, exc_type, exc, tb):
        numpy_errors.reset(self.numpy_errors)
        grad_mode.swap_grad_enabled(self.grad_mode_before)
        if exc_type is not None:    # a failed backward leaves no half-updated .grad behind
            for restore, *args in reversed(self.undo):
                restore(*args)
        for trace in self.traces if self.create_graph else ():    # observers see numpy arrays, always
            if type(trace) is list:
                trace[:] = [trace_entry_as_arrays(*entry) for entry in trace]
        for watcher in self.watchers:
            if exc is not None and hasattr(watcher, "failed"):
                watcher.failed(exc)     # before end(): the watcher knows the run failed as it ends
            watcher.end()
        return False                # the exception goes on


def nodes_leading_to(roots, targets):
    """The nodes that must run for gradients to reach targets: those with a
    path to one. Other branches are skipped, so a freed or modified part of
    the graph that the targets do not depend on is harmless."""
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


def topological_order(roots):
    """The order in which `execute` would run the nodes: the same queue and
    dependency counts, but nothing runs (Kahn's algorithm)."""
    deps = dependencies(roots)
    ready, order, arrival = [], [], itertools.count()
    for node in dict.fromkeys(roots):
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, (-node.sequence_nr, next(arrival), node))
    while ready:
        node = heapq.heappop(ready)[-1]       # the same priority as execute's
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, (-nxt.sequence_nr, next(arrival), nxt))
    return order


# -- observers: who watches a backward run, of this engine or of real PyTorch's ----

class ObserverHandle:
    """What add_observer returns: .remove() unsubscribes (twice is harmless)."""

    def __init__(self, begin):
        self.begin = begin

    def remove(self):
        with _observers_lock:
            if self.begin in _observers:
                _observers.remove(self.begin)


def add_observer(begin):
    """Watch every backward run from now on, until the handle is removed:
    this engine's, and real PyTorch's while viz/torch_record.py watches it
    (it calls begin with PyTorch's nodes, and the watcher's step).

    ``begin(roots)`` is called as a run starts (roots: its root nodes) and
    returns a per-run watcher, or None to skip this run. The watcher's
    ``end()`` is called once the run is over, also when it failed; then
    first its ``failed(error)``, if it has one, with the exception. Each run
    gets its own watcher, so runs in several threads never share one. It
    sees the nodes run in one of two ways:

    * ``step(node, grad_outputs, grad_inputs)`` is called after each node
      runs (grad_outputs: one gradient per output of the node);
    * or, when the watcher has a ``trace`` attribute that is a list, the
      engine appends ``(node, grad_output, grad_inputs)`` to it after each
      node runs, and calls no ``step``: grad_output is the gradient that
      flowed in (None: none did), a tuple with one per output for a node
      with several. An append costs far less than a Python call per node, so
      a watcher that reads the run only afterwards (viz.record) takes this.

    Gradients are numpy arrays, also under create_graph (a trace's entries
    are turned into arrays as the run ends, before ``end()``); the engine
    never writes into one it has handed over."""
    with _observers_lock:
        _observers.append(begin)
    return ObserverHandle(begin)


def observers():
    """The begin callables subscribed now, in order (a copy: one may unsubscribe during a run)."""
    with _observers_lock:
        return tuple(_observers)


def begin_watchers(roots):
    """One watcher per observer for a run that starts (None: it skips this run)."""
    return [w for w in (begin(roots) for begin in observers()) if w is not None]


def trace_of(watcher, create_graph):
    """Where the engine appends a watcher's entries: its trace list, or for a
    watcher with step() a stand-in that calls it with each entry."""
    trace = getattr(watcher, "trace", None)
    return trace if type(trace) is list else StepCalls(watcher, create_graph)


class StepCalls:
    """A step watcher's trace: each entry appended becomes a step(node,
    grad_outputs, grad_inputs) call, with one gradient per output, as arrays."""

    def __init__(self, watcher, create_graph):
        self.step, self.create_graph = watcher.step, create_graph

    def append(self, entry):
        node, grad, grads = entry
        outs = grad if type(grad) is tuple else (grad,)     # several outputs: already one per output
        self.step(node, *as_arrays(outs, grads)) if self.create_graph else self.step(node, outs, grads)
