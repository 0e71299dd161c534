"""How much a recording keeps: small gradients whole, large ones as a
:class:`Summary`, and roughly how many bytes a run holds, so that the stores
(store.py) stay within :data:`BUDGET`."""
import functools
import itertools
import operator

import numpy as np

from .. import torch_record

FULL_VALUES = 4096        # a gradient of at most this many elements is kept whole
BUDGET = 64 * 2 ** 20     # bytes the background store (and each Recorder) may hold
STEP_BYTES = 200          # what one Step costs beside its arrays, roughly
# The chain rule's numbers are kept for this many nodes of a run, those nearest the
# output. The lessons' largest graph has 18 nodes (measured over every lesson
# notebook, 2026-12-01), so each of their nodes keeps its numbers; holding a node's
# saved values through the run is the largest part of what recording costs
# (docs/benchmarks.md, "Recording cost"), so a long chain keeps the top 24.
SNAPSHOT_STEPS = 24


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
            if array.dtype.kind == "c":    # a PyTorch complex gradient: a norm, but no order
                stats = self._stats = (float(np.linalg.norm(array.astype(np.complex128).ravel())), None, None)
            else:
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


def numpy_of(t):
    if torch_record.is_torch_tensor(t):   # on a GPU, bfloat16, or needing grad under create_graph
        return torch_record.to_numpy(t)
    return t.detach().numpy() if hasattr(t, "detach") else t.numpy()


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


def bounded(grads, sent, root_steps):
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
    grads = list(map(kept, grads))
    sent = [tuple(map(bounded_one, s)) for s in sent]
    return grads, sent, sum(map(_NBYTES, filter(_IS_ARRAY, itertools.chain.from_iterable(sent))))


def _too_large(grad):
    return type(grad) is tuple or (grad is not None and grad.nbytes > FULL_VALUES)


def bounded_one(grad):
    """grad, or its Summary when it is an array too large to keep whole."""
    return Summary(grad) if type(grad) is np.ndarray and grad.size > FULL_VALUES else grad


def kept(grad):
    """A gradient that flowed in as a step shows it: one per output as a
    PerOutput (the engine gives a tuple), one too large as a Summary (a node
    pre-hook may return another shape than the node's output; checked here,
    as the steps are read)."""
    return PerOutput(map(bounded_one, grad)) if type(grad) is tuple else bounded_one(grad)


def values_nbytes(rule_values):
    """The bytes of the arrays kept for the chain rule's numbers."""
    total = 0
    for names, saved, now in rule_values.values():
        held = [v[0] if type(v) is tuple else v for v in (saved or {}).values()]   # (array, box, version)
        total += sum(v.nbytes for v in itertools.chain(held, now.values()) if isinstance(v, (np.ndarray, Summary)))
    return total


def run_nbytes(steps, held, leaf_grads):
    """Roughly what a run's steps hold: STEP_BYTES each, the gradients sent on
    (held bytes), as much again for those that flowed in (a node gets what was
    sent to it), and the copies of .grad.  A Summary counts 64 bytes."""
    return STEP_BYTES * steps + 2 * held + sum(map(_NBYTES, filter(_IS_ARRAY, leaf_grads)))


_NBYTES = operator.attrgetter("nbytes")
_IS_ARRAY = functools.partial(operator.is_not, None)


def settled(value):
    """A Summary with its numbers worked out now (the array it summarises may change later)."""
    if type(value) is Summary:
        value.norm
    return value
