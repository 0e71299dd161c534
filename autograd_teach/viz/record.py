"""Record what an engine does during backward, one step per node it runs.

Nothing is recorded unless asked, and importing ``autograd_teach.viz``
does not ask.  Two ways to ask:

``autorecord(True)`` / ``autorecord(False)``
    Background recording: every backward run is kept in a small store, so
    that ``draw(out)`` after a plain ``out.backward()`` shows the gradients.
``with record() as rec:``
    Records the backward runs made while the block runs, in any thread,
    into ``rec`` (``rec.recordings``, ``rec.last``, ``rec.steps``).

Both subscribe through the engines' public observer hook,
``add_observer(begin) -> handle``: ``begin(roots)`` is called as a run
starts and returns a watcher whose ``step(node, grad_outputs, grad_inputs)``
is called after each node and ``end()`` when the run is over.  A
:class:`Recorder` is such a ``begin``; each run gets a watcher of its own,
so backward in several threads never shares state.

What a recording holds, and what it does not:

* the Nodes through weak references, so a recording never keeps a graph
  alive (``del y`` frees it).  PyTorch's C++ nodes take no weak references;
  those are held until the recording goes.
* gradients of at most :data:`FULL_VALUES` elements as copies; larger ones
  as a :class:`Summary` (shape, norm, min, max), so memory stays bounded.
* the background store keeps recordings while their graph lives, up to
  :data:`BUDGET` bytes in all; past that the oldest go first, and a diagram
  of a graph whose recording went says so.
"""
from __future__ import annotations

import contextlib
import threading
import weakref
from collections import deque
from dataclasses import dataclass

import numpy as np

from .. import engine
from ..node import SavedTensor
from . import torch_record

FULL_VALUES = 4096        # a gradient of at most this many elements is kept whole
BUDGET = 64 * 2 ** 20     # bytes of gradients the background store may hold
STEP_BYTES = 200          # what one Step costs beside its arrays, roughly
SNAPSHOT_STEPS = 64       # the chain rule's numbers are kept for this many nodes of a run: the
                          # widget's graphs are small, and each snapshot costs ~2 µs per node


# --- where recordings come from --------------------------------------------------------
# Every engine that offers add_observer(begin) -> handle with the begin/step/end
# protocol.  Ours always; real PyTorch's (viz/torch_record.py) only when that module
# exists and the learner has imported torch: viz never imports torch itself.
def sources():
    """The modules whose ``add_observer`` recording subscribes to, right now."""
    return [engine, torch_record] if torch_record.torch_imported() else [engine]
# -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """Stands for a gradient too large to keep: what a label needs of it."""
    shape: tuple
    dtype: str
    norm: float
    min: float
    max: float

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    nbytes = 64


def keep(array):
    """A copy of a small array (the engine's buffers may be reused); a Summary of a large one."""
    if array is None:
        return None
    a = array if type(array) is np.ndarray else np.asarray(array)
    if a.size <= FULL_VALUES:
        return a.copy()
    f = a.astype(np.float64, copy=False)
    return Summary(tuple(a.shape), str(a.dtype), float(np.linalg.norm(f.ravel())),
                   float(np.min(f)), float(np.max(f)))


def _ref(obj):
    """A weak reference when the object allows one, else a stand-in holding it."""
    try:
        return weakref.ref(obj)
    except TypeError:                 # PyTorch's C++ nodes
        return lambda: obj


class Step:
    """One node the engine ran.  ``fn`` is None once that node is gone."""
    __slots__ = ("index", "_fn", "grad_output", "grad_inputs", "leaf_grad", "values")

    def __init__(self, index, fn, grad_output, grad_inputs, leaf_grad=None, values=None):
        self.index = index
        try:
            self._fn = weakref.ref(fn)
        except TypeError:                   # PyTorch's C++ nodes take no weak reference
            self._fn = _ref(fn)
        self.grad_output = grad_output      # the gradient flowing into fn (summed over its uses)
        self.grad_inputs = grad_inputs      # one per next_functions entry: what fn sent on
        self.leaf_grad = leaf_grad          # after an AccumulateGrad step: the leaf's .grad
        self.values = values                # what fn's derivative rule reads, before backward freed it

    @property
    def fn(self):
        return self._fn()

    def __repr__(self):
        fn = self.fn
        return f"<Step {self.index}: {type(fn).__name__ if fn is not None else 'freed node'}>"


class Recording:
    """The steps of one backward run, in the order the engine ran them."""

    def __init__(self, roots):
        self._roots = [_ref(r) for r in roots]
        self.steps = []
        self.nbytes = 0
        self._values = {}                  # id(node) -> its rule's values, taken before it runs
        self._taken = 0                    # how many nodes' values were taken
        for r in roots:
            self._snapshot(r)

    def _snapshot(self, node):
        # A node's saved tensors are freed when it runs; its parents all run
        # before it, so the values its chain rule reads are taken then.
        if id(node) in self._values:
            return
        self._taken += 1
        cls = type(node)
        plan = _PLANS.get(cls)
        if plan is None:
            plan = _PLANS[cls] = _plan(cls)
        saved_names, attr_names, other_names = plan
        values = None
        if saved_names or attr_names or other_names:
            values = {}
            saved = getattr(node, "saved_values", None)
            if saved is not None:
                # Our own op: read its SavedTensors directly (the arrays backward will
                # unpack, by reference: backward drops them, never writes them), not
                # through the _saved_<name> properties, which wrap each in a Tensor.
                for name in saved_names:
                    v = saved.get(name)
                    if type(v) is SavedTensor:
                        if v.box[0] != v.version:
                            continue           # modified in place: backward will raise
                        v = v.data
                    elif v is None:
                        continue               # not saved: no gradient needs it
                    else:
                        v = np.array(v)        # a number in a tensor's place: shown as tensor(2)
                    values[name] = v if v.size <= FULL_VALUES else keep(v)
                for name in attr_names:
                    values[name] = getattr(node, name)
            for name in other_names:           # anything else: through _saved_<name>
                try:
                    v = getattr(node, "_saved_" + name)
                except Exception:          # noqa: BLE001 - not saved, or already freed
                    continue
                if hasattr(v, "numpy"):
                    v = _numpy(v)
                    v = v if v.size <= FULL_VALUES else keep(v)
                values[name] = v
        self._values[id(node)] = values

    @property
    def roots(self):
        return [r for r in (ref() for ref in self._roots) if r is not None]

    def alive(self):
        return any(ref() is not None for ref in self._roots)

    def ran(self, fn):
        """True when this run ran the node ``fn`` (or started from it)."""
        return any(ref() is fn for ref in self._roots) or any(s._fn() is fn for s in self.steps)

    def add(self, node, grad_outputs, grad_inputs):
        # The hot path: one call per node of every recorded backward, so no
        # copies and no temporary lists.  Gradients are kept by reference: the
        # engine makes a new array for each and never writes into one it has
        # passed on.  Only large ones become a Summary, and a leaf's .grad (which
        # later backward runs and in-place ops write into) is copied.
        grad_output = grad_outputs[0] if grad_outputs else None
        if grad_output is not None and grad_output.size > FULL_VALUES:
            grad_output = keep(grad_output)
        nbytes = STEP_BYTES
        leaf_grad = None
        cls = type(node)
        accumulates = _ACCUMULATES.get(cls)
        if accumulates is None:           # asked once per class: a missing attribute is slow to look up
            accumulates = _ACCUMULATES[cls] = hasattr(node, "variable")
        var = node.variable if accumulates else None
        if var is not None:
            sent = tuple([None if g is None or g.size <= FULL_VALUES else keep(g) for g in grad_inputs])
            grad = getattr(var, "grad", None)
            if grad is not None:           # .grad is written in place later: this one is a copy
                leaf_grad = keep(_numpy(grad))
                nbytes += leaf_grad.nbytes
        else:
            sent = grad_inputs if type(grad_inputs) is tuple else tuple(grad_inputs)
            for g in sent:
                if g is not None and g.size > FULL_VALUES:
                    sent = tuple([g if g is None or g.size <= FULL_VALUES else keep(g) for g in sent])
                    break
        for a in sent:
            if a is not None:
                nbytes += a.nbytes
        self.nbytes += nbytes
        steps = self.steps
        steps.append(Step(len(steps), node, grad_output, sent, leaf_grad, self._values.pop(id(node), None)))
        if self._taken < SNAPSHOT_STEPS:
            seen = self._values
            for child, _ in node.next_functions:
                if child is not None and id(child) not in seen:
                    self._snapshot(child)

    def __len__(self):
        return len(self.steps)

    def __repr__(self):
        return f"<Recording: {len(self.steps)} steps>"


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


class _Watcher:
    """One backward run's watcher: what add_observer's protocol calls."""
    __slots__ = ("recording", "_finished", "step")

    def __init__(self, recording, finished):
        self.recording = recording
        self._finished = finished
        self.step = recording.add          # step(node, grad_outputs, grad_inputs): one call, not two

    def end(self):
        self._finished(self.recording)


class Recorder:
    """A ``begin(roots)`` for ``add_observer``: one Recording per backward run.

    ``keep`` (a callable) is also given each finished recording: ``record()``
    passes the background store's, so that ``draw(out)`` after the block
    finds the run without being handed ``rec``."""

    def __init__(self, keep=None):
        self.recordings = []
        self._lock = threading.Lock()
        self._keep = keep

    def __call__(self, roots):
        return _Watcher(Recording(roots), self._finished)

    def _finished(self, recording):
        with self._lock:
            self.recordings.append(recording)
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
            total = sum(r.nbytes for r in self._recent)
            while total > BUDGET and len(self._recent) > 1:
                old = self._recent.pop(0)
                total -= old.nbytes
                self._dropped.extend(old._roots)

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
        with self._lock:
            return any(ref() is fn for ref in self._dropped)

    def clear(self):
        with self._lock:
            self._recent.clear()
            self._dropped.clear()

    def __len__(self):
        with self._lock:
            return len(self._recent)


_store = _Store()
_auto = []                 # (source module, handle) while autorecord is on
_auto_lock = threading.Lock()


def _background(roots):
    """The background recorder's begin(roots)."""
    return _Watcher(Recording(roots), _store.add)


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
            have = {id(src) for src, _ in _auto}
            for src in sources():          # a source that appeared since (torch imported) joins
                if id(src) not in have:
                    _auto.append((src, src.add_observer(_background)))
        else:
            for _, handle in _auto:
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
    handles = [src.add_observer(rec) for src in sources()]
    try:
        yield rec
    finally:
        for handle in handles:
            handle.remove()
