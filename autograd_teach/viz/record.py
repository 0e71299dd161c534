"""Record what the engine does during backward, one step per node it runs.

A :class:`Recorder` subscribes to the engine through
``autograd_teach.engine.add_observer``: the engine calls its ``step(node,
grad_outputs, grad_inputs)`` after running each node, and it turns those calls
into :class:`Recording`\\ s: an ordered list of :class:`Step`.

Nothing is recorded unless asked: the engine checks one list and the cost
of recording is all here.  Importing ``autograd_teach.viz`` asks, though:
it installs a background recorder (:func:`autorecord`) so that ``draw(out)``
after a plain ``out.backward()`` can show the gradients.  It keeps only the
last :data:`KEEP` recordings, so old graphs are not kept alive; call
``autorecord(False)`` to switch it off.

``with record() as rec:`` records every backward call inside the block into
``rec`` (and the background store), whatever ``autorecord`` says;
``with rec.watching():`` records into a Recorder of your own.
"""
from __future__ import annotations

import contextlib
from collections import deque
from dataclasses import dataclass

import numpy as np

from .. import engine

KEEP = 4  # recordings kept by the background store: enough to draw the last few backward calls


@dataclass
class Step:
    """One node the engine ran."""
    index: int
    fn: object                 # the autograd Node
    grad_output: object        # ndarray: the gradient flowing into fn (summed over contributions)
    grad_inputs: tuple         # ndarray or None per next_functions entry: what fn sent on
    leaf_grad: object = None   # ndarray: the leaf's .grad after an AccumulateGrad step


class Recording:
    """The steps of one backward call, in the order the engine ran them."""

    def __init__(self, roots):
        self.roots = list(roots)
        self.steps = []

    def __len__(self):
        return len(self.steps)

    def __repr__(self):
        return f"<Recording: {len(self.steps)} steps>"


def _copy(a):
    # The engine may reuse its buffers; what we show must be what flowed then.
    return None if a is None else np.array(a, copy=True)


class Recorder:
    """What the engine's observer hook calls.  One Recording per backward."""

    def __init__(self, store=True):
        self.recordings = []
        self._current = None
        self._store = store

    @property
    def last(self):
        return self.recordings[-1] if self.recordings else None

    @property
    def steps(self):
        return self.last.steps if self.last else []

    def on_begin(self, roots):
        self._current = Recording(roots)
        self.recordings.append(self._current)

    def on_step(self, node, grad_outputs, grad_inputs):
        if self._current is None:         # an engine that does not call on_begin
            self.on_begin([node])
        leaf_grad = None
        var = getattr(node, "variable", None)
        if var is not None and getattr(var, "grad", None) is not None:
            leaf_grad = _copy(var.grad.detach().numpy())   # with create_graph, .grad has history
        steps = self._current.steps
        steps.append(Step(len(steps), node, _copy(grad_outputs[0]) if grad_outputs else None,
                          tuple(_copy(g) for g in grad_inputs), leaf_grad))

    def on_end(self):
        current, self._current = self._current, None
        if current is not None and self._store:
            _store(current)

    # the engine's observer protocol (engine.add_observer)
    def begin(self, roots):
        self.on_begin(roots)
        return self

    def step(self, node, grad_outputs, grad_inputs):
        self.on_step(node, grad_outputs, grad_inputs)

    def end(self):
        self.on_end()

    @contextlib.contextmanager
    def watching(self):
        """Record every backward call inside the block."""
        handle = engine.add_observer(self.begin)
        try:
            yield self
        finally:
            handle.remove()

    def __repr__(self):
        return f"<Recorder: {len(self.recordings)} recordings>"


# --- the background store: the last KEEP recordings, newest last ------------

_recent = deque(maxlen=KEEP)
_auto = None
_auto_handle = None


def _store(recording):
    if not any(r is recording for r in _recent):
        _recent.append(recording)


def find_recording(fn):
    """The newest kept Recording whose backward ran the autograd Node ``fn``."""
    for rec in reversed(_recent):
        if any(s.fn is fn for s in rec.steps):
            return rec
    return None


def clear():
    """Forget every kept recording (and the graphs they keep alive)."""
    _recent.clear()


class _AutoRecorder(Recorder):
    """The background recorder: stores into the store, keeps nothing itself."""

    def on_end(self):
        super().on_end()
        self.recordings.clear()


def autorecord(enabled=True):
    """Switch the background recorder on or off.  On by default once viz is imported."""
    global _auto, _auto_handle
    if enabled:
        if _auto is None:
            _auto = _AutoRecorder()
        if _auto_handle is None:
            _auto_handle = engine.add_observer(_auto.begin)
    elif _auto_handle is not None:
        _auto_handle.remove()
        _auto_handle = None


def recording_in_background():
    return _auto_handle is not None


@contextlib.contextmanager
def record():
    """``with record() as rec:`` records each backward call in the block into ``rec``
    (instead of the background recorder, which it pauses)."""
    rec = Recorder()
    was_on = recording_in_background()
    autorecord(False)
    try:
        with rec.watching():
            yield rec
    finally:
        autorecord(was_on)
