"""Subscribing to backward runs: ``autorecord`` and ``record()`` put a begin
in the engine's one registry of observers, and have torch_record watch real
PyTorch's engine once the learner imported torch."""
import contextlib
import threading

from ...core import engine
from .. import torch_record
from . import store
from .model import recording


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


_auto = {}                 # subscribe's handles while autorecord is on
_auto_lock = threading.Lock()


def _background(roots):
    """The background recorder's begin(roots)."""
    return recording(roots, store.add)


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
    rec = store.Recorder(keep=store.add)
    handles = subscribe(rec, {})
    try:
        yield rec
    finally:
        for handle in handles.values():
            handle.remove()
