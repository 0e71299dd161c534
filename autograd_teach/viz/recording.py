"""Record what an engine does during backward, one step per node it runs.

Nothing is recorded unless asked, and importing ``autograd_teach.viz``
does not ask.  Two ways to ask:

``autorecord(True)`` / ``autorecord(False)``
    Background recording: every backward run is kept in a small store, so
    that ``draw(out)`` after a plain ``out.backward()`` shows the gradients.
``with record() as rec:``
    Records the backward runs made while the block runs, in any thread,
    into ``rec`` (``rec.recordings``, ``rec.last``, ``rec.steps``).

Both subscribe through the engine's public registry of observers,
``engine.add_observer(begin) -> handle``, which real PyTorch's runs reach
too while viz/torch_record.py watches them: ``begin(roots)`` is called as a run
starts and returns a watcher; ``end()`` is called when the run is over.  A
:class:`Recorder` is such a ``begin``; each run gets a watcher of its own
(a :class:`Recording`), so backward in several threads never shares state.
Our engine appends ``(node, grad_output, grad_inputs)`` to the watcher's
``trace`` list after each node (a list append: a Python call per node would
cost more than all the recording does); PyTorch's engine
(viz/torch_record.py) calls the watcher's ``step(node, grad_outputs,
grad_inputs)`` instead.

What a recording holds, and what it does not:

* the Nodes, strongly while the run lasts (they are alive anyway: the
  engine holds the roots, and every node it runs is reachable from them),
  then through weak references, so a recording never keeps a graph alive
  (``del y`` frees it) and never takes a new object at a dead node's
  address for that node.  PyTorch's C++ nodes take no weak references:
  those are held while the tensors backward started from live (``loss``),
  and let go when they go, or when the store drops the recording.
* gradients by reference (the engine never writes into one it passed on),
  those past :data:`FULL_VALUES` elements as a :class:`Summary` (shape,
  norm, min, max) once the run ended, so memory stays bounded after it
  (while it lasts, each gradient sent is held, as large as the forward's
  tensors, where the engine would have dropped it at once); a leaf's
  ``.grad`` as a copy, taken as the run ends (as the run left it), except a
  large one the run made from the gradient its step got, which is that
  gradient (``_made_from_sent``).
* for the :data:`SNAPSHOT_STEPS` nodes nearest the roots, what their
  derivative rule reads (the chain-rule inspector's numbers), taken as the
  run begins, before backward frees it.
* the background store keeps recordings while their graph lives, up to
  :data:`BUDGET` bytes in all (steps, gradients, copies of .grad, the chain
  rule's numbers); past that the oldest go first, and a diagram of a graph
  whose recording went says so.  A ``record()`` block's Recorder keeps at
  most as much (``rec.dropped`` counts the oldest it let go).

Recording is on the engine's hot path: while the run lasts, only the engine's
append per node; ``end()`` sorts the trace with C-level tools (zip, map,
index) rather than a Python loop per step, and the :class:`Step` objects are
built when ``steps`` is first read (figures: the "Recording cost" section of
docs/benchmarks.md).
"""
from __future__ import annotations

import contextlib
import functools
import itertools
import operator
import threading
import weakref
from collections import deque

import numpy as np

from ..core import engine
from ..core.node import SavedTensor
from ..core.accumulate_grad import AccumulateGrad, has_post_accumulate_hooks
from . import teach, torch_record

FULL_VALUES = 4096        # a gradient of at most this many elements is kept whole
BUDGET = 64 * 2 ** 20     # bytes the background store (and each Recorder) may hold
STEP_BYTES = 200          # what one Step costs beside its arrays, roughly
# The chain rule's numbers are kept for this many nodes of a run, those nearest the
# output. The lessons' largest graph has 18 nodes (measured over every lesson
# notebook, 2026-12-01), so each of their nodes keeps its numbers; holding a node's
# saved values through the run is the largest part of what recording costs
# (docs/benchmarks.md, "Recording cost"), so a long chain keeps the top 24.
SNAPSHOT_STEPS = 24


# --- where recordings come from --------------------------------------------------------
def subscribe(begin, handles):
    """Add to ``handles`` (a dict) what is missing for ``begin`` to watch every
    backward run: one observer in the engine's registry, and, once the learner
    has imported real PyTorch, torch_record's watch over its engine, which
    reports to the same observers (viz never imports torch itself)."""
    if "engine" not in handles:
        handles["engine"] = engine.add_observer(begin)
    if "torch" not in handles and torch_record.torch_imported():
        handles["torch"] = torch_record.watch()
    return handles
# -----------------------------------------------------------------------------------------


class Summary:
    """Stands for a gradient too large to keep whole: its shape and dtype, and
    its norm, min and max (exact, in float64), worked out when first read, from
    the array it holds until then.  Nobody writes into that array: the engine
    never writes into a gradient it passed on, and :func:`keep` copies any
    other.  Working them out as the run ends cost several times the backward
    itself (docs/benchmarks.md, "Recording cost"); most are never read."""
    __slots__ = ("shape", "dtype", "_array", "_stats")

    def __init__(self, array):
        self.shape, self.dtype = tuple(array.shape), array.dtype
        self._array, self._stats = array, None

    def _read(self):
        stats = self._stats
        if stats is None:
            array = self._array
            if array is None:             # another thread just worked them out
                return self._stats
            f = array.astype(np.float64)
            stats = self._stats = (float(np.linalg.norm(f.ravel())), float(np.min(f)), float(np.max(f)))
            self._array = None
        return stats

    norm = property(lambda self: self._read()[0])
    min = property(lambda self: self._read()[1])
    max = property(lambda self: self._read()[2])

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self):
        array = self._array
        return 64 + (0 if array is None else array.nbytes)

    def __repr__(self):
        return f"Summary(shape={self.shape}, dtype={self.dtype!r})"


def keep(array, owned=False):
    """A copy of a small array; a Summary of a large one, over a copy unless
    ``owned`` (an array nobody will write into: a gradient the engine sent)."""
    if array is None:
        return None
    a = array if type(array) is np.ndarray else np.asarray(array)
    if a.size <= FULL_VALUES:
        return a.copy()
    return Summary(a if owned else a.copy(order="K"))   # "K": a transposed gradient copies at memcpy speed


def _ref(obj):
    """A weak reference when the object allows one, else a stand-in holding it."""
    try:
        return weakref.ref(obj)
    except TypeError:                 # PyTorch's C++ nodes, when no _Holder holds them
        return lambda: obj


class _Holder:
    """PyTorch's nodes of one run, held until the tensors that run started from
    are gone.  Its C++ nodes take no weak reference, and a node's Python object
    is made anew when nobody holds it (so ``is`` no longer finds it): the
    recording holds them, but only as long as the learner can still draw them."""
    __slots__ = ("nodes", "_index", "outputs", "__weakref__")

    def __init__(self):
        self.nodes, self._index, self.outputs = [], {}, []

    def ref(self, node):
        """A callable giving ``node`` back, or None once released."""
        i = self._index.get(node)
        if i is None:
            i = self._index[node] = len(self.nodes)
            self.nodes.append(node)
        return _HeldRef(self, i)

    def hold_while(self, tensors):
        gone = functools.partial(_output_gone, weakref.ref(self))
        for t in tensors:
            try:
                self.outputs.append(weakref.ref(t, gone))
            except TypeError:         # a GradientEdge: nothing to watch
                pass

    def release(self):
        self.nodes = self._index = None


def _output_gone(holder_ref, _dead):
    holder = holder_ref()
    if holder is not None and not any(ref() is not None for ref in holder.outputs):
        holder.release()


class _HeldRef:
    __slots__ = ("holder", "i")

    def __init__(self, holder, i):
        self.holder, self.i = holder, i

    def __call__(self):
        nodes = self.holder.nodes
        return None if nodes is None else nodes[self.i]


class Step:
    """One node the engine ran.  ``fn`` is None once that node is gone."""
    __slots__ = ("index", "_fn", "grad_output", "grad_inputs", "leaf_grad", "values", "first_grad")

    def __init__(self, index, fn_ref, grad_output, grad_inputs, leaf_grad=None, values=None, first_grad=False):
        self.index = index
        self._fn = fn_ref                   # a weak reference (a stand-in for PyTorch's C++ nodes)
        self.grad_output = grad_output      # the gradient flowing into fn (summed over its uses)
        self.grad_inputs = grad_inputs      # one per next_functions entry: what fn sent on
        self.leaf_grad = leaf_grad          # after an AccumulateGrad step: the leaf's .grad
        self.first_grad = first_grad        # ... which was None before it (not zeros: x.grad.zero_())
        self.values = values                # what fn's derivative rule read, before backward freed it

    @property
    def fn(self):
        return self._fn()

    def __repr__(self):
        fn = self.fn
        return f"<Step {self.index}: {type(fn).__name__ if fn is not None else 'freed node'}>"


class Recording:
    """The steps of one backward run, in the order the engine ran them.

    A Recording is also the run's watcher (engine.add_observer's protocol).
    Our engine appends ``(node, grad_output, grad_inputs)`` to its ``trace``
    list after each node, with no call into it: recording is on the engine's
    hot path, and a Python call per node would cost more than everything else
    it does.  ``end()`` then, as the run ends, sorts the trace into columns
    with C-level tools (zip, map), and the :class:`Step` objects are built
    when ``steps`` is first read, usually by ``draw``, long after the run.
    (``step`` is for engines that call one: PyTorch's, TorchRecording.)
    ``finished`` is called with the recording as the run ends."""

    def __init__(self, roots, finished=None):
        self._roots = [self._hold(r) for r in roots]
        self._finished = finished
        self.trace = []                    # the engine's (node, grad_output, grad_inputs) per node run
        self._nodes = ()                   # from the trace as the run ends: weak references to the nodes,
        self._grads = ()                   # the gradient that flowed into each (None: none did),
        self._sent = ()                    # what each sent on, one per next_functions entry
        self._leaf_grads = {}              # step index -> a copy of the leaf's .grad (AccumulateGrad)
        self._first_grads = set()          # step indices whose leaf had no .grad before the step
        self._rule_values = {}             # step index -> what its derivative rule read
        self.nbytes = 0                    # roughly what it holds, once the run ended
        self._ended = False
        self._steps = None                 # built when first read
        # What the chain rule reads at the SNAPSHOT_STEPS nodes nearest the roots, taken
        # before the run frees it (a node's saved tensors go as it runs): the nodes, and
        # for each its saved_values dict, held by reference while the run lasts (backward
        # frees it by dropping the reference, never by changing it), or what _take_values took.
        self._first, self._first_values = self._take_first_values(roots)

    _hold = staticmethod(_ref)             # how a node is held once the run ended (TorchRecording: a _Holder)

    def step(self, node, grad_outputs, grad_inputs):
        """An engine that calls a watcher at each node: the same entry as a trace's."""
        self.trace.append((node, grad_outputs[0] if len(grad_outputs) == 1 else tuple(grad_outputs),
                           tuple(grad_inputs)))

    def _take_first_values(self, roots):
        """The SNAPSHOT_STEPS nodes nearest the roots, and what their rules read."""
        first = _nearest_nodes(roots, SNAPSHOT_STEPS)
        return first, _take_saved_values(first)

    def end(self):
        """The run is over: sort the trace into columns, bound them (Summaries
        for the gradients too large to keep whole), copy the leaves' .grad, and
        hold the nodes only weakly from now on."""
        if self._ended:
            return
        nodes, grads, sent = zip(*self.trace) if self.trace else ((), (), ())
        self.trace = None                  # it held the nodes strongly
        self._grads, self._sent, held = _bounded(grads, sent, _indices_of(nodes, self.roots))
        self._take_leaf_grads(nodes, sent)
        self._nodes = self._hold_all(nodes)
        self._file_values(nodes)
        self.nbytes = _nbytes(len(grads), held, self._leaf_grads.values()) + _values_nbytes(self._rule_values)
        self._ended = True
        if self._finished is not None:
            self._finished(self)

    @staticmethod
    def _hold_all(nodes):
        return list(map(weakref.ref, nodes))

    def _take_leaf_grads(self, nodes, sent):
        """A copy of each leaf's .grad, after the AccumulateGrad steps (they send
        nothing on). Taken as the run ends, not at the step: a hook that changes
        a leaf's .grad later in the same run shows here (the .grad the run left).
        A large .grad this run made (none before it) is not copied: it is a copy
        of the gradient the step got, which the recording holds anyway
        (_made_from_sent)."""
        plain = None                       # did only our ops' rules run? (asked when it matters)
        for i in _indices(sent, ()):
            node = nodes[i]
            first = _grad_was_none(node)
            if first and type(self._grads[i]) is Summary:
                if plain is None:
                    plain = _only_rules_ran(nodes)
                if plain and _made_from_sent(node.variable, self._grads[i]):
                    self._leaf_grads[i] = self._grads[i]
                    self._first_grads.add(i)
                    continue
            leaf_grad = _leaf_grad(node)
            if leaf_grad is not None:
                self._leaf_grads[i] = leaf_grad
                if first:
                    self._first_grads.add(i)

    def _file_values(self, nodes):
        """Settle the values taken before the run (_settle_values) and file them
        under the steps of their nodes (a node that did not run, autograd.grad's
        inputs=, has none)."""
        first, taken = self._first, self._first_values
        self._first = self._first_values = ()
        near = 2 * len(first)              # the nodes nearest the roots run first, mostly
        step_of = dict(zip(nodes[:near], itertools.count())) if first else {}
        for node, values in zip(first, taken):
            if values is not None:
                values = _settle_values(node, values)
            if values is not None:
                i = step_of.get(node)
                if i is None and len(nodes) > near:
                    i = _index(nodes, node, near)
                if i is not None:
                    self._rule_values[i] = values

    def _columns(self):
        """Weak references to the nodes, the gradients in, the gradients sent on,
        and the leaves' .grad: kept since the run ended, or read off the trace
        while it runs (by a hook, say)."""
        if self._ended:
            return self._nodes, self._grads, self._sent, self._leaf_grads
        trace = list(self.trace)
        leaf_grads = {i: _leaf_grad(n) for i, (n, _, sent) in enumerate(trace) if not sent}
        return [_ref(n) for n, _, _ in trace], [g for _, g, _ in trace], [sent for _, _, sent in trace], leaf_grads

    @property
    def steps(self):
        steps = self._steps
        if steps is None or len(steps) != len(self):
            refs, grads, sents, leaf_grads = self._columns()
            values = self._rule_values
            first = self._first_grads if self._ended else {i for i in leaf_grads if _grad_was_none(refs[i]())}
            steps = [Step(i, ref, _kept(grad), tuple(sent), leaf_grads.get(i), _read_values(values.get(i)), i in first)
                     for i, (ref, grad, sent) in enumerate(zip(refs, grads, sents))]
            if self._ended:
                self._steps = steps
        return steps

    @property
    def roots(self):
        return [r for r in (ref() for ref in self._roots) if r is not None]

    def release(self):
        """Let go of the nodes (ours are held weakly: nothing to do)."""

    def alive(self):
        return any(ref() is not None for ref in self._roots)

    def ran(self, fn):
        """True when this run ran the node ``fn`` (or started from it)."""
        if any(ref() is fn for ref in self._roots):
            return True
        if not self._ended:
            return any(n is fn for n, _, _ in list(self.trace))
        return any(ref() is fn for ref in self._nodes)

    def __len__(self):
        return len(self._sent) if self._ended else len(self.trace)

    def __repr__(self):
        return f"<Recording: {len(self)} steps>"


class TorchRecording(Recording):
    """A run of real PyTorch's engine (viz/torch_record.py), which calls ``step``:
    a node may have several outputs, and a gradient may be None; each step is
    bounded at once, and a leaf's .grad copied at its step.  Its nodes are held
    by a _Holder until the tensors backward started from are gone (``hold_while``,
    called by torch_record as the run begins), or at once as it ends when there
    are none to watch: a training loop's graphs and inputs are never kept."""

    def __init__(self, roots, finished=None):
        self._holder = _Holder()
        super().__init__(roots, finished)

    def _hold(self, node):
        return self._holder.ref(node)

    def _hold_all(self, nodes):
        return [self._holder.ref(n) for n in nodes]

    def hold_while(self, tensors):
        """Hold the run's nodes while any of ``tensors`` (backward's) lives."""
        self._holder.hold_while(tensors)

    def end(self):
        super().end()
        if not self._holder.outputs:
            self.release()

    def release(self):
        """Let go of the nodes: the steps keep their numbers, their ``fn`` is None."""
        self._holder.release()

    def alive(self):
        return self._holder.nodes is not None

    def step(self, node, grad_outputs, grad_inputs):
        grad = grad_outputs[0] if grad_outputs else None
        self.trace.append((node, _bounded_one(grad), tuple(map(_bounded_one, grad_inputs))))
        if hasattr(node, "variable"):
            self._leaf_grads[len(self.trace) - 1] = _leaf_grad(node)
            if _grad_was_none(node):
                self._first_grads.add(len(self.trace) - 1)

    def _take_leaf_grads(self, nodes, sent):
        pass                               # taken at each step

    def _take_first_values(self, roots):
        """What the teaching forms (viz/teach.py) read, at the nodes nearest the
        roots, through PyTorch's ``_saved_<name>`` before backward frees it."""
        first = _nearest_nodes(roots, SNAPSHOT_STEPS)
        return first, [_take_torch_values(node) for node in first]


def recording(roots, finished=None):
    """A Recording of the run from ``roots``, for our engine or PyTorch's."""
    torch_run = bool(roots) and torch_record.is_torch_node(roots[0])
    return (TorchRecording if torch_run else Recording)(roots, finished)


# --- what a step keeps beside its gradients ------------------------------------------

def _grad_was_none(node):
    """After an AccumulateGrad step: True when the leaf had no .grad before it.
    A .grad the step made is a new tensor, version 0; one it added into (or one
    zeroed in place, x.grad.zero_()) has been written, so its version is past 0."""
    grad = getattr(getattr(node, "variable", None), "grad", None) if hasattr(node, "variable") else None
    if grad is None:
        return False
    box = getattr(grad, "_version_box", None)
    return (box[0] if box is not None else grad._version) == 0


def _only_rules_ran(nodes):
    """True when no code but our ops' derivative rules and AccumulateGrad ran
    in the run: no hook on any node or leaf (post-accumulate), no custom
    Function (module backward hooks are both). Then nothing but AccumulateGrad
    wrote a leaf's .grad."""
    for cls in set(map(type, nodes)):
        if cls is not AccumulateGrad and not isinstance(getattr(cls, "inputs", None), tuple):
            return False
    leaves = [node.variable for node in nodes if type(node) is AccumulateGrad]
    return not any(map(any, map(_HOOKS, nodes))) and not any(map(has_post_accumulate_hooks, leaves))


_HOOKS = operator.attrgetter("tensor_pre_hooks", "pre_hooks", "post_hooks")


def _made_from_sent(leaf, summary):
    """Is the leaf's .grad, as the run left it, the one its AccumulateGrad made
    from the gradient ``summary`` holds (a copy of it: np.astype to the same
    dtype), untouched since? It had none before (_grad_was_none: version 0),
    and nothing but AccumulateGrad wrote .grad (_only_rules_ran). Holding that
    gradient is then exact, and stays exact: later writes into .grad (the next
    backward adds into it, x.grad.zero_()) go into the leaf's own array, never
    into one the engine sent."""
    grad = leaf.grad
    if grad is None or grad.grad_fn is not None or not leaf._requires_grad:
        return False
    return grad._data.shape == summary.shape and grad._data.dtype == summary.dtype


def _leaf_grad(node):
    """A copy of the leaf's .grad after an AccumulateGrad step (None for another node)."""
    cls = type(node)
    accumulates = _ACCUMULATES.get(cls)
    if accumulates is None:           # asked once per class: a missing attribute is slow to look up
        accumulates = _ACCUMULATES[cls] = hasattr(node, "variable")
    var = node.variable if accumulates else None
    if var is None:
        return None
    data = getattr(getattr(var, "_grad", None), "_data", None)   # our leaf: its array, without a Tensor made
    if data is not None:
        return keep(data)
    grad = getattr(var, "grad", None)     # a PyTorch leaf (its _grad is a torch.Tensor: no _data)
    return None if grad is None else keep(_numpy(grad), owned=True)   # _numpy copied it


def _nearest_nodes(roots, count):
    """The ``count`` nodes nearest the roots, breadth first."""
    nodes = list(dict.fromkeys(roots))     # a root given twice is one node
    seen = set(nodes)
    for node in nodes:                     # the list grows as it is walked
        if len(nodes) >= count:
            break
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                nodes.append(child)
    return nodes[:count]


def _take_saved_values(nodes):
    """For each node, what its rule reads that backward frees: most ops read
    only their saved tensors, so their saved_values dict, by reference (a
    C-level getattr); the few that read more get _take_values."""
    taken = list(map(getattr, nodes, itertools.repeat("saved_values"), itertools.repeat(None)))
    for cls in set(map(type, nodes)):
        if _plan_of(cls)[1:] != ((), ()):
            for i in [i for i, node in enumerate(nodes) if type(node) is cls]:
                taken[i] = _take_values(nodes[i])
    return taken


def _plan_of(cls):
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    return plan


def _take_values(node):
    """What the derivative rule of ``node`` reads, taken before it runs, as
    ``[saved names, saved_values, other values]``, or None when it reads nothing.
    Our own op's saved_values dict is held by reference while the run lasts
    (backward frees it by dropping the reference, never by changing it), then
    settled (_settle_values) and read when steps are built; anything else is
    read now."""
    saved_names, attr_names, other_names = _plan_of(type(node))
    saved = getattr(node, "saved_values", None) if saved_names else None
    now = {name: getattr(node, name) for name in attr_names}
    for name in other_names:           # anything else: through _saved_<name>, now
        try:
            v = getattr(node, "_saved_" + name)
        except Exception:          # noqa: BLE001 - not saved, or already freed
            continue
        now[name] = keep(_numpy(v)) if hasattr(v, "numpy") else v
    return [saved_names, saved, now]


def _take_torch_values(node):
    """``[(), None, {name: value}]`` of a PyTorch node's saved values its teaching form reads, or None."""
    names = teach.READS.get(node.name())
    if names is None:
        return None
    now = {}
    for name in names:
        try:
            v = getattr(node, "_saved_" + name)
        except Exception:          # noqa: BLE001 - not saved, or already freed
            continue
        now[name] = keep(_numpy(v), owned=True) if torch_record.is_torch_tensor(v) else v
    return [(), None, now]


def _settle_values(node, values):
    """As the run ends, what was taken of ``node`` (its saved_values dict, or
    _take_values's list) as ``[saved names, settled saved values, other values]``,
    or None when its rule reads nothing.  Of each saved tensor only its array
    and version counter are kept (a SavedTensor also refers to the node that
    made its tensor, which would keep that part of the graph alive), whatever
    its size: it is copied, or summarised, only when the steps are read, and
    left out then if it was modified in place since (_read_saved)."""
    if type(values) is list:
        names, saved, now = values
    else:                                  # a saved_values dict: what most ops read
        names, saved, now = _PLANS[type(node)][0], values, {}   # (_take_saved_values planned the class)
        if not names:
            return None
    if saved is None:
        return [names, None, now]
    settled = {}
    for name in names:
        s = saved.get(name)
        if type(s) is SavedTensor:
            data, box, version = _SAVED(s)
            if data is not None:           # (None: saved under saved_tensors_hooks, not ours to read)
                settled[name] = (data, box, version)
        elif s is not None:
            settled[name] = s              # a number in a tensor's place: read as tensor(2) (_read_saved)
    return [names, settled, now]


_SAVED = operator.attrgetter("data", "box", "version")


class PerOutput(tuple):
    """The gradients that flowed into a node with several outputs (unbind,
    split, ...), one per output, None where none came; `size` and `nbytes` are
    their sums, as one array's would be."""

    @property
    def size(self):
        return sum(g.size for g in self if g is not None)

    @property
    def nbytes(self):
        return sum(g.nbytes for g in self if g is not None)


def _bounded(grads, sent, root_steps):
    """The gradients that flowed in and those sent on, with the ones too large to
    keep whole (past FULL_VALUES elements) as Summaries, and the bytes of those
    sent on.  The check is C-level, over what was sent: a gradient that flowed
    into a node is one sent to it, or their sum (the same shape: the engine
    checks what a hook returns), except at the roots, which are checked too.
    (An array of at most FULL_VALUES bytes has at most FULL_VALUES elements.)
    The Python loop runs only when there may be something to change."""
    held = list(map(_NBYTES, filter(_IS_ARRAY, itertools.chain.from_iterable(sent))))
    roots = [grads[i] for i in root_steps]
    if max(held, default=0) <= FULL_VALUES and not any(_too_large(g) for g in roots):
        return list(grads), sent, sum(held)
    grads = list(map(_kept, grads))
    sent = [tuple(map(_bounded_one, s)) for s in sent]
    return grads, sent, sum(map(_NBYTES, filter(_IS_ARRAY, itertools.chain.from_iterable(sent))))


def _too_large(grad):
    return type(grad) is tuple or (grad is not None and grad.nbytes > FULL_VALUES)


def _bounded_one(grad):
    """grad, or its Summary when it is an array too large to keep whole."""
    return Summary(grad) if type(grad) is np.ndarray and grad.size > FULL_VALUES else grad


def _kept(grad):
    """A gradient that flowed in as a step shows it: one per output as a
    PerOutput (the engine gives a tuple), one too large as a Summary (a node
    pre-hook may return another shape than the node's output; checked here,
    as the steps are read)."""
    return PerOutput(map(_bounded_one, grad)) if type(grad) is tuple else _bounded_one(grad)


def _indices_of(items, values):
    """Where each of values is first found in items (those found)."""
    found = (_index(items, v) for v in values)
    return [i for i in found if i is not None]


def _indices(items, value):
    """Where value is in items, found by the C-level index: a Python loop over
    every step would cost more than the rest of the recording."""
    i = _index(items, value)
    while i is not None:
        yield i
        i = _index(items, value, i + 1)


def _index(items, value, start=0):
    """The first index of value in items from start, or None."""
    try:
        return items.index(value, start)
    except ValueError:
        return None


def _values_nbytes(rule_values):
    """The bytes of the arrays kept for the chain rule's numbers."""
    total = 0
    for names, saved, now in rule_values.values():
        held = [v[0] if type(v) is tuple else v for v in (saved or {}).values()]   # (array, box, version)
        total += sum(v.nbytes for v in itertools.chain(held, now.values()) if isinstance(v, (np.ndarray, Summary)))
    return total


def _nbytes(steps, held, leaf_grads):
    """Roughly what a run's steps hold: STEP_BYTES each, the gradients sent on
    (held bytes), as much again for those that flowed in (a node gets what was
    sent to it), and the copies of .grad.  A Summary counts 64 bytes."""
    return STEP_BYTES * steps + 2 * held + sum(map(_NBYTES, filter(_IS_ARRAY, leaf_grads)))


_NBYTES = operator.attrgetter("nbytes")
_IS_ARRAY = functools.partial(operator.is_not, None)


def _settled(value):
    """A Summary with its numbers worked out now (the array it summarises may change later)."""
    if type(value) is Summary:
        value.norm
    return value


def _read_values(values):
    """A step's ``values`` dict from what ``_take_values`` took."""
    if values is None:
        return None
    names, saved, now = values
    out = {} if saved is None else _read_saved(saved, names)
    out.update(now)
    return out


def _read_saved(saved, names):
    """The values the rule read: copies of small arrays, Summaries of large ones.
    A saved tensor modified in place since it was saved is left out: its values
    are not those backward used (or backward raised)."""
    values = {}
    for name in names:
        v = saved.get(name)
        if type(v) is SavedTensor:         # the run has not ended
            v = None if v.data is None else (v.data, v.box, v.version)   # None: saved_tensors_hooks kept it
        if type(v) is tuple:               # (array, version counter, version when saved)
            data, box, version = v
            if box[0] != version:
                continue
            v = data
        if v is None:
            continue                       # not saved (no gradient needs it), or modified in place
        values[name] = v if type(v) is Summary else _settled(keep(np.asarray(v)))
    return values


_ACCUMULATES = {}         # node class -> True for AccumulateGrad (it has .variable)


def _numpy(t):
    if torch_record.is_torch_tensor(t):   # on a GPU, bfloat16, or needing grad under create_graph
        return torch_record.to_numpy(t)
    return t.detach().numpy() if hasattr(t, "detach") else t.numpy()


_RULE_NAMES = {}          # node class -> the names its derivative rule reads (ops/formulas.py)


_PLANS = {}               # node class -> (saved names, plain attr names, other names) its rule reads


def _plan(cls):
    """Where each name the rule of ``cls`` reads is found: in saved_values, as a plain
    attribute, or (index arrays, freed with the node) through ``_saved_<name>``."""
    wanted = _rule_names(cls)
    saved = set(getattr(cls, "saved", ()) or ()) if hasattr(cls, "save_plan") else set()
    attrs = set(getattr(cls, "attrs", ()) or ()) - set(getattr(cls, "saved_arrays", ()) or ()) if saved or \
        hasattr(cls, "save_plan") else set()
    return (tuple(n for n in wanted if n in saved), tuple(n for n in wanted if n in attrs and n not in saved),
            tuple(n for n in wanted if n not in saved and n not in attrs))


def reads_values(fn):
    """Does the derivative rule of node ``fn`` read saved values (so that a step
    of it has numbers to put in, when it was snapshotted)?"""
    return bool(_rule_names(type(fn)))


def _rule_names(cls):
    found = _RULE_NAMES.get(cls)
    if found is None:
        found = ()
        if isinstance(getattr(cls, "inputs", None), tuple):   # an autograd_teach op
            from ..ops import formulas
            try:
                found = tuple(sorted(formulas.names(cls)))
            except Exception:              # noqa: BLE001 - an op without readable rules
                found = ()
        _RULE_NAMES[cls] = found
    return found


class Recorder:
    """A ``begin(roots)`` for ``add_observer``: one Recording per backward run.

    ``keep`` (a callable) is also given each finished recording: ``record()``
    passes the background store's, so that ``draw(out)`` after the block
    finds the run without being handed ``rec``."""

    def __init__(self, keep=None):
        self.recordings = []
        self.dropped = 0                   # the oldest recordings let go past BUDGET bytes
        self._lock = threading.Lock()
        self._keep = keep

    def __call__(self, roots):
        return recording(roots, self._finished)

    def _finished(self, recording):
        with self._lock:
            self.recordings.append(recording)
            self.dropped += len(_drop_oldest(self.recordings))
        if self._keep is not None:
            self._keep(recording)

    @property
    def last(self):
        return self.recordings[-1] if self.recordings else None

    @property
    def steps(self):
        return self.last.steps if self.last else []

    def __repr__(self):
        return f"<Recorder: {len(self.recordings)} recordings>"


def _drop_oldest(recordings):
    """Remove the oldest of ``recordings`` (a list, newest last) while they hold
    more than BUDGET bytes in all, keeping the newest; return those removed,
    their nodes let go."""
    total = sum(r.nbytes for r in recordings)
    dropped = []
    while total > BUDGET and len(recordings) > 1:
        old = recordings.pop(0)
        total -= old.nbytes
        dropped.append(old)
    return dropped


# --- the background store ------------------------------------------------------------

class _Store:
    """Recordings of live graphs, newest last, at most BUDGET bytes in all."""

    def __init__(self):
        self._lock = threading.Lock()
        self._recent = []
        self._dropped = deque(maxlen=256)   # weak refs to roots whose recording went for memory

    def add(self, recording):
        with self._lock:
            self._recent = [r for r in self._recent if r.alive()]
            self._recent.append(recording)
            for old in _drop_oldest(self._recent):
                self._dropped.extend(map(_mark, old.roots))
                old.release()

    def find(self, fn):
        with self._lock:
            recent = list(self._recent)
        for rec in reversed(recent):          # the root first: that is what draw(out) asks for
            if any(ref() is fn for ref in rec._roots):
                return rec
        for rec in reversed(recent):
            if rec.ran(fn):
                return rec
        return None

    def dropped(self, fn):
        mark = _mark(fn, create=False)
        with self._lock:
            return mark is not None and any(ref() is mark for ref in self._dropped)

    def clear(self):
        with self._lock:
            self._recent.clear()
            self._dropped.clear()

    def __len__(self):
        with self._lock:
            return len(self._recent)


_MARK = "autograd_teach.viz"   # the key of our mark in a PyTorch node's metadata dict


class _Mark:
    __slots__ = ("__weakref__",)


def _mark(fn, create=True):
    """A weak reference to what stands for the root ``fn`` once its recording
    was dropped: our node itself; for a PyTorch node (no weak references) a
    small object put in its ``metadata`` dict, which lives as long as the node."""
    if not torch_record.is_torch_node(fn):
        return weakref.ref(fn) if create else fn
    if not create:
        return fn.metadata.get(_MARK)
    return weakref.ref(fn.metadata.setdefault(_MARK, _Mark()))


_store = _Store()
_auto = {}                 # subscribe's handles while autorecord is on
_auto_lock = threading.Lock()


def _background(roots):
    """The background recorder's begin(roots)."""
    return recording(roots, _store.add)


def find_recording(fn):
    """The newest kept Recording whose backward ran the autograd Node ``fn``."""
    return _store.find(fn)


def was_dropped(fn):
    """True when the recording of a backward from ``fn`` was dropped to bound memory."""
    return _store.dropped(fn)


def clear():
    """Forget every kept recording."""
    _store.clear()


def autorecord(enabled=True):
    """Switch background recording on (``True``) or off (``False``).  Off until called."""
    with _auto_lock:
        if enabled:
            subscribe(_background, _auto)   # again: PyTorch's engine joins if torch was imported since
        else:
            for handle in _auto.values():
                handle.remove()
            _auto.clear()


def autorecording():
    """True while background recording is on."""
    with _auto_lock:
        return bool(_auto)


@contextlib.contextmanager
def record():
    """``with record() as rec:`` records each backward run in the block into ``rec``.

    The runs are also kept where ``draw(out)`` and ``show(out)`` look by
    default (bounded like background recording), so ``with record():
    loss.backward()`` then ``draw(loss)`` shows the gradients."""
    rec = Recorder(keep=_store.add)
    handles = subscribe(rec, {})
    try:
        yield rec
    finally:
        for handle in handles.values():
            handle.remove()
