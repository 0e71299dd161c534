"""The recording model: a :class:`Recording` is the watcher of one backward
run and holds its steps, in the order the engine ran them; a
:class:`TorchRecording` is one of real PyTorch's engine; a :class:`Step` is one
node that ran."""
import itertools
import weakref

from .. import torch_record
from .holding import Holder, reference
from .leaf_grads import grad_was_none, leaf_grad_copy, made_from_sent, only_rules_ran
from .limits import SNAPSHOT_STEPS, Summary, bounded, bounded_one, kept, run_nbytes, values_nbytes
from .snapshots import nearest_nodes, read_values, settle_values, take_saved_values, take_torch_values


class Step:
    """One node the engine ran.  ``fn`` is None once that node is gone; ``kind``,
    its class, stays (its name: a root backward started from, freed with its tensor)."""
    __slots__ = ("index", "_fn", "grad_output", "grad_inputs", "leaf_grad", "values", "first_grad", "kind")

    def __init__(self, index, fn_ref, grad_output, grad_inputs, leaf_grad=None, values=None, first_grad=False,
                 kind=None):
        self.index = index
        self.kind = kind
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
    ``finished`` is called with the recording as the run ends.

    A run that raised has ``error``, the exception as text ("RuntimeError:
    Trying to backward through the graph a second time ..."), and the steps
    that ran before it.  ``later_error`` is the error of a later run from the
    same roots that failed while this one was the last to finish (store.py)."""

    def __init__(self, roots, finished=None):
        self._roots = [self._hold(r) for r in roots]
        self._finished = finished
        self.trace = []                    # the engine's (node, grad_output, grad_inputs) per node run
        self._nodes = ()                   # from the trace as the run ends: weak references to the nodes,
        self._grads = ()                   # the gradient that flowed into each (None: none did),
        self._sent = ()                    # what each sent on, one per next_functions entry
        self._kinds = ()                   # the class of each node: its name once the node is gone
        self._leaf_grads = {}              # step index -> a copy of the leaf's .grad (AccumulateGrad)
        self._first_grads = set()          # step indices whose leaf had no .grad before the step
        self._rule_values = {}             # step index -> what its derivative rule read
        self.nbytes = 0                    # roughly what it holds, once the run ended
        self._ended = False
        self._steps = None                 # built when first read
        self.error = None                  # "RuntimeError: ..." when the run raised (failed)
        self.later_error = None            # ... when a later run from these roots did (store.note_later)
        # What the chain rule reads at the SNAPSHOT_STEPS nodes nearest the roots, taken
        # before the run frees it (a node's saved tensors go as it runs): the nodes, and
        # for each its saved_values dict, held by reference while the run lasts (backward
        # frees it by dropping the reference, never by changing it), or what snapshots.take_saved_values took.
        self._first, self._first_values = self._take_first_values(roots)

    _hold = staticmethod(reference)    # how a node is held once the run ended (TorchRecording: a Holder)

    def step(self, node, grad_outputs, grad_inputs):
        """An engine that calls a watcher at each node: the same entry as a trace's."""
        self.trace.append((node, grad_outputs[0] if len(grad_outputs) == 1 else tuple(grad_outputs),
                           tuple(grad_inputs)))

    def failed(self, error):
        """The run raised ``error`` (engine.add_observer calls this before end()).
        Kept as text: the exception's traceback would keep the graph alive."""
        text = str(error)
        self.error = f"{type(error).__name__}: {text}" if text else type(error).__name__   # KeyboardInterrupt: none

    def _take_first_values(self, roots):
        """The SNAPSHOT_STEPS nodes nearest the roots, and what their rules read."""
        first = nearest_nodes(roots, SNAPSHOT_STEPS)
        return first, take_saved_values(first)

    def end(self):
        """The run is over: sort the trace into columns, bound them (Summaries
        for the gradients too large to keep whole), copy the leaves' .grad, and
        hold the nodes only weakly from now on."""
        if self._ended:
            return
        nodes, grads, sent = zip(*self.trace) if self.trace else ((), (), ())
        self.trace = None                  # it held the nodes strongly
        self._grads, self._sent, held = bounded(grads, sent, _indices_of(nodes, self.roots))
        self._take_leaf_grads(nodes, sent)
        self._nodes = self._hold_all(nodes)
        self._kinds = tuple(map(type, nodes))
        self._file_values(nodes)
        self.nbytes = run_nbytes(len(grads), held, self._leaf_grads.values()) + values_nbytes(self._rule_values)
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
        (made_from_sent)."""
        plain = None                       # did only our ops' rules run? (asked when it matters)
        for i in _indices(sent, ()):
            node = nodes[i]
            first = grad_was_none(node)
            if first and type(self._grads[i]) is Summary:
                if plain is None:
                    plain = only_rules_ran(nodes)
                if plain and made_from_sent(node.variable, self._grads[i]):
                    self._leaf_grads[i] = self._grads[i]
                    self._first_grads.add(i)
                    continue
            leaf_grad = leaf_grad_copy(node)
            if leaf_grad is not None:
                self._leaf_grads[i] = leaf_grad
                if first:
                    self._first_grads.add(i)

    def _file_values(self, nodes):
        """Settle the values taken before the run (settle_values) and file them
        under the steps of their nodes (a node that did not run, autograd.grad's
        inputs=, has none)."""
        first, taken = self._first, self._first_values
        self._first = self._first_values = ()
        near = 2 * len(first)              # the nodes nearest the roots run first, mostly
        step_of = dict(zip(nodes[:near], itertools.count())) if first else {}
        for node, values in zip(first, taken):
            if values is not None:
                values = settle_values(node, values)
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
            return self._nodes, self._grads, self._sent, self._leaf_grads, self._kinds
        trace = list(self.trace)
        leaf_grads = {i: leaf_grad_copy(n) for i, (n, _, sent) in enumerate(trace) if not sent}
        return ([reference(n) for n, _, _ in trace], [g for _, g, _ in trace], [sent for _, _, sent in trace],
                leaf_grads, [type(n) for n, _, _ in trace])

    @property
    def steps(self):
        steps = self._steps
        if steps is None or len(steps) != len(self):
            refs, grads, sents, leaf_grads, kinds = self._columns()
            values = self._rule_values
            first = self._first_grads if self._ended else {i for i in leaf_grads if grad_was_none(refs[i]())}
            steps = [Step(i, ref, kept(grad), tuple(sent), leaf_grads.get(i), read_values(values.get(i)), i in first,
                          kind) for i, (ref, grad, sent, kind) in enumerate(zip(refs, grads, sents, kinds))]
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

    def started_from(self, fn):
        """True when ``fn`` is one of the nodes this run started from."""
        return any(ref() is fn for ref in self._roots)

    def ran(self, fn):
        """True when this run ran the node ``fn`` (or started from it)."""
        if self.started_from(fn):
            return True
        if not self._ended:
            return any(n is fn for n, _, _ in list(self.trace))
        return any(ref() is fn for ref in self._nodes)

    def __len__(self):
        return len(self._sent) if self._ended else len(self.trace)

    def __repr__(self):
        return f"<Recording: {len(self)} steps{', failed' if self.error else ''}>"


class TorchRecording(Recording):
    """A run of real PyTorch's engine (viz/torch_record.py), which calls ``step``:
    a node may have several outputs, and a gradient may be None; each step is
    bounded at once, and a leaf's .grad copied at its step.  Its nodes are held
    by a Holder until the tensors backward started from are gone (``hold_while``,
    called by torch_record as the run begins), or at once as it ends when there
    are none to watch: a training loop's graphs and inputs are never kept."""

    def __init__(self, roots, finished=None):
        self._holder = Holder()
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
        self.trace.append((node, bounded_one(grad), tuple(map(bounded_one, grad_inputs))))
        if hasattr(node, "variable"):
            self._leaf_grads[len(self.trace) - 1] = leaf_grad_copy(node)
            if grad_was_none(node):
                self._first_grads.add(len(self.trace) - 1)

    def _take_leaf_grads(self, nodes, sent):
        pass                               # taken at each step

    def _take_first_values(self, roots):
        """What the teaching forms (viz/teach.py) read, at the nodes nearest the
        roots, through PyTorch's ``_saved_<name>`` before backward frees it."""
        first = nearest_nodes(roots, SNAPSHOT_STEPS)
        return first, [take_torch_values(node) for node in first]


def recording(roots, finished=None):
    """A Recording of the run from ``roots``, for our engine or PyTorch's."""
    torch_run = bool(roots) and torch_record.is_torch_node(roots[0])
    return (TorchRecording if torch_run else Recording)(roots, finished)


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
