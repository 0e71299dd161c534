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
starts and returns a watcher; ``end()`` is called when the run is over,
after ``failed(error)`` when it raised (viz/failure.py: what draw() shows then).  A
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
  gradient (``leaf_grads.made_from_sent``).
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

One job per file, each using only those above it:

    limits      how much is kept: FULL_VALUES, BUDGET, SNAPSHOT_STEPS, Summary
    holding     how the nodes are held (weakly; PyTorch's by a Holder)
    leaf_grads  what a step keeps of a leaf's .grad
    snapshots   what a derivative rule reads, taken before backward frees it
    model       Recording (one run's watcher and its steps), TorchRecording, Step
    store       Recorder and the background store, within BUDGET
    observe     autorecord and record(): subscribing to the engine's observers
"""
from .limits import FULL_VALUES, SNAPSHOT_STEPS, STEP_BYTES, Summary
from .model import Recording, Step, TorchRecording, recording
from .observe import autorecord, autorecording, record, subscribe
from .snapshots import reads_values
from .store import Recorder, clear, find_recording, was_dropped

__all__ = ["FULL_VALUES", "SNAPSHOT_STEPS", "STEP_BYTES", "Summary", "Recording", "Step", "TorchRecording",
           "recording", "autorecord", "autorecording", "record", "subscribe", "reads_values", "Recorder", "clear",
           "find_recording", "was_dropped"]
