"""Where finished recordings are kept, within limits.BUDGET bytes: a
:class:`Recorder` (what ``record()`` yields) and the background store that
``draw(out)`` looks in; past the budget the oldest go first, and a diagram of
a graph whose recording went says so."""
import threading
import weakref
from collections import deque

from .. import torch_record
from . import limits
from .model import recording


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
            if recording.error is not None:
                note_later(self.recordings, recording)
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


def note_later(recordings, failed):
    """A run that failed (``failed.error``) from the roots of an earlier one
    that finished: note it on the newest such in ``recordings`` (oldest
    first), which stays what draw() shows (a second ``y.backward()`` must not
    hide the first); return that one, or None when there is none."""
    roots = failed.roots
    for rec in reversed(recordings):
        if rec is not failed and rec.error is None and any(map(rec.started_from, roots)):
            rec.later_error = failed.error
            return rec
    return None


def choose(runs, fn):
    """Of ``runs`` (newest first), all of which ran the node ``fn``, the one to
    draw: the newest, unless it failed and an earlier one from ``fn`` finished."""
    if runs[0].error is not None:
        return next((r for r in runs[1:] if r.error is None and r.started_from(fn)), runs[0])
    return runs[0]


def _drop_oldest(recordings):
    """Remove the oldest of ``recordings`` (a list, newest last) while they hold
    more than BUDGET bytes in all, keeping the newest; return those removed,
    their nodes let go."""
    total = sum(r.nbytes for r in recordings)
    dropped = []
    while total > limits.BUDGET and len(recordings) > 1:
        old = recordings.pop(0)
        total -= old.nbytes
        dropped.append(old)
    return dropped


class _Store:
    """Recordings of live graphs, newest last, at most BUDGET bytes in all."""

    def __init__(self):
        self._lock = threading.Lock()
        self._recent = []
        self._dropped = deque(maxlen=256)   # weak refs to roots whose recording went for memory

    def add(self, recording):
        with self._lock:
            self._recent = [r for r in self._recent if r.alive()]
            if recording.error is not None and note_later(self._recent, recording) is not None:
                return                        # the run it failed after stays, noted (not its partial steps)
            self._recent.append(recording)
            for old in _drop_oldest(self._recent):
                self._dropped.extend(map(_mark, old.roots))
                old.release()

    def find(self, fn):
        with self._lock:
            recent = list(self._recent)
        for rec in reversed(recent):          # the root first: that is what draw(out) asks for
            if rec.started_from(fn):
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


def find_recording(fn):
    """The newest kept Recording whose backward ran the autograd Node ``fn``."""
    return _store.find(fn)


def was_dropped(fn):
    """True when the recording of a backward from ``fn`` was dropped to bound memory."""
    return _store.dropped(fn)


def clear():
    """Forget every kept recording."""
    _store.clear()


def add(recording):
    """Keep a finished recording in the background store."""
    _store.add(recording)
