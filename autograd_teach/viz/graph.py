"""Walk ``grad_fn`` / ``next_functions`` into a plain graph model.

The model is what every other part of ``viz`` draws from: a list of
:class:`DiagramNode` and a list of :class:`Edge` in *graph order* (breadth first
from the outputs, ``next_functions`` entries in slot order), with ids from a
counter (``n0``, ``n1``, ... and ``e0``, ``e1``, ...), never ``id()``, so the
same code always gives the same ids.

It only duck-types PyTorch's interface (``grad_fn``, ``next_functions``,
``name()``, ``variable``), so it walks real PyTorch graphs just as well as
autograd_teach's: that is how the goldens in ``tests/golden/viz`` are made.

Every walk is an explicit loop over a queue: a 100,000-node chain must not
hit Python's recursion limit.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cached_property

from . import torch_record

# Node kinds.  Each has its own style in dot.py and its own entry in the legend.
OUTPUT = "output"          # a tensor passed to draw()
FUNCTION = "function"      # a backward Function: MulBackward0, ...
ACCUMULATE = "accumulate"  # AccumulateGrad: where a leaf's .grad is written
LEAF = "leaf"              # a leaf tensor that requires grad (a parameter)
CONSTANT = "constant"      # a next_functions entry of None: an input needing no grad
SAVED = "saved"            # a tensor a Function saved for backward
HIDDEN = "hidden"          # stands for nodes left out by max_nodes= / depth=
REPEAT = "repeat"          # a run of identical Functions collapsed into one
REF = "ref"                # a shared node drawn again next to one of its uses (arrange.shorten_long_edges)

DEFAULT_MAX_NODES = 400
MAX_FAN = 12          # a node with more inputs draws MAX_FAN - 1 of them and one box for the rest


@dataclass
class DiagramNode:
    id: str
    kind: str
    name: str                    # PyTorch's name ("MulBackward0") or the tensor's name
    fn: object = None            # the autograd Node, for FUNCTION / ACCUMULATE / REPEAT
    tensor: object = None        # the tensor, for OUTPUT / LEAF / SAVED
    value: object = None         # a Python scalar saved for backward (SAVED only)
    count: int = 1               # how many Functions a REPEAT / HIDDEN node stands for
    members: tuple = ()          # the autograd Nodes a REPEAT node stands for
    saved_version: int | None = None
    current_version: int | None = None
    notes: list = field(default_factory=list)  # extra label lines (freed buffers, ...)
    ref: str | None = None       # REF only: the id of the node this one stands for
    fan_in: int = 0              # how many gradient edges lead into this node
    hides: str = "nodes"         # HIDDEN only: "nodes" beyond max_nodes=/depth=, or a node's "inputs" past MAX_FAN
    auto: str = ""               # "output" / "leaf" when the name was made up here (translated when drawn)

    @property
    def stale(self):
        """True when a saved tensor was modified in place after it was saved."""
        return (self.saved_version is not None and self.current_version is not None
                and self.saved_version != self.current_version)


@dataclass
class Edge:
    id: str
    src: str
    dst: str
    slot: int | None = None      # index into the source's next_functions
    kind: str = "grad"           # grad | output | variable | constant | saved | hidden
    multi: bool = False          # the source has several next_functions entries


@dataclass
class Graph:
    nodes: list
    edges: list
    hidden: list                 # (lang key, fill) saying what was left out, for the caption
    _by_fn: dict                 # id(autograd Node) -> DiagramNode; internal, never printed

    _index: dict = None          # built on first look-up: the graph is complete by then

    def _lookup(self):
        if self._index is None:
            index = {"node": {n.id: n for n in self.nodes}, "out": {}, "in": {}}
            for e in self.edges:
                index["out"].setdefault(e.src, []).append(e)
                index["in"].setdefault(e.dst, []).append(e)
            self._index = index
        return self._index

    def changed(self):
        """Say nodes or edges were added or rewired: the look-up is rebuilt on next use."""
        self._index = None

    def node(self, node_id):
        return self._lookup()["node"][node_id]

    def node_for(self, fn):
        """The model node that draws the autograd Node ``fn`` (None if hidden)."""
        return self._by_fn.get(id(fn))

    def out_edges(self, node_id):
        return list(self._lookup()["out"].get(node_id, ()))

    def in_edges(self, node_id):
        return list(self._lookup()["in"].get(node_id, ()))


def no_grads_key(graph):
    """The lang key saying why a graph that backward has not run through has no
    gradients: not yet, or never (only tensors with no graph behind them)."""
    if not graph.nodes or any(n.kind == OUTPUT for n in graph.nodes):
        return "caption.no_grad_yet"
    return "caption.leaf" if any(n.kind == LEAF for n in graph.nodes) else "caption.no_graph"


def fn_name(fn):
    """PyTorch's node name, without the C++ namespace real PyTorch puts on AccumulateGrad."""
    name = fn.name() if callable(getattr(fn, "name", None)) else type(fn).__name__
    return name.rsplit("::", 1)[-1]


def caller_names(frame):
    """{name: tensor} for the tensors bound to variables where draw()/show() was
    called: its locals, then its globals. So ``draw(y)`` labels the leaf ``x``
    without being told. Names starting with ``_`` (IPython's ``_``, ``_3``)
    are skipped; the order is the order the variables were bound, so the
    choice between two names of one tensor is the same on every run.  Then
    the parameters of the nn.Modules found there (:func:`module_parameter_names`)."""
    found = {}
    for scope in (frame.f_locals, frame.f_globals):
        for key, value in scope.items():
            if not key.startswith("_") and hasattr(value, "grad_fn") and hasattr(value, "requires_grad"):
                found.setdefault(key, value)
    found.update((k, v) for k, v in module_parameter_names(frame).items() if k not in found)
    return found


# --- parameters of the caller's nn.Modules ----------------------------------

def module_parameter_names(frame):
    """{"model.0.weight": parameter} for every nn.Module bound to a variable
    where draw()/show() was called: the variable's name, then the
    parameter's ``named_parameters()`` name (what torchviz's ``params=``
    labels with, prefixed so that the weights of two models stay apart).
    A tensor bound to a variable of its own keeps that shorter name: these
    come after every tensor variable in :func:`caller_names`."""
    found = {}
    for scope in (frame.f_locals, frame.f_globals):
        for key, value in scope.items():
            if key.startswith("_") or isinstance(value, type):
                continue                      # a class's named_parameters is not callable unbound
            named = getattr(value, "named_parameters", None)
            if callable(named) and not hasattr(value, "grad_fn"):
                for pname, param in named():
                    found.setdefault(f"{key}.{pname}", param)
    return found


def _tensor_name(t, names):
    for key, value in names.items():
        if value is t:
            return key
    own = getattr(t, "name", None)
    return own if isinstance(own, str) and own else None


def build_graph(outputs, names=None, name=None, show_constants=False, show_saved=False,
                max_nodes=DEFAULT_MAX_NODES, depth=None, walk=None):
    """The graph PyTorch built behind ``outputs`` (one tensor or a list of them).

    ``names`` maps display names to tensors (like torchviz's ``params``);
    ``name`` names a single output.  Shared subgraphs are drawn once.  When
    the graph has more than ``max_nodes`` Functions, runs of identical
    single-input Functions are collapsed first; then whatever lies beyond
    ``max_nodes`` or ``depth`` is replaced by one "hidden" node.  A node with
    more than :data:`MAX_FAN` inputs draws the first ones and one box for the
    rest.  ``walk`` is a :class:`Walk` of the same outputs, to reuse.
    """
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    names = dict(names or {})
    if name is not None:
        if len(outputs) != 1:
            raise ValueError("name= names a single output; use names={...} for several")
        names.setdefault(name, outputs[0])
    builder = _Builder(walk or Walk(outputs), names, show_constants, show_saved, max_nodes, depth)
    return builder.build(outputs, name)


class Walk:
    """The Functions behind some outputs in graph order, and their repeated runs,
    each found once (when first asked for)."""

    def __init__(self, outputs):
        self.outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]

    @cached_property
    def functions(self):
        return list(iter_functions(self.outputs))

    @cached_property
    def runs(self):
        return _repeated_runs(self.functions)


class _Builder:
    """One model, built breadth first from the outputs: each queue entry is a
    Function to expand plus its depth; a model node is created when first reached."""

    def __init__(self, walk, names, show_constants, show_saved, max_nodes, depth):
        self.walk, self.names = walk, names
        self.show_constants, self.show_saved = show_constants, show_saved
        self.max_nodes, self.depth = max_nodes, depth
        self.g = Graph(nodes=[], edges=[], hidden=[], _by_fn={})
        self.leaves = 0
        self.queue = deque()
        self.cut = []             # (parent model node, slot, multi) left out by the limits
        self.budget = max_nodes if max_nodes is not None else float("inf")
        self.runs = {}
        if max_nodes is not None and len(walk.functions) > max_nodes and walk.runs:
            self.runs = walk.runs
            total = sum(len(r) for r in self.runs.values())
            self.g.hidden.append(("caption.repeated", {"total": total, "runs": len(self.runs)}))

    def build(self, outputs, name):
        for i, t in enumerate(outputs):
            self.add_output(t, i, len(outputs), name)
        while self.queue:
            self.expand(*self.queue.popleft())
        g = self.g
        if self.cut:   # every Function not drawn lies beyond a cut edge
            self.add_hidden(len(self.walk.functions) - len(g._by_fn))
        for e in g.edges:
            if e.kind in ("grad", "output", "hidden"):
                g.node(e.dst).fan_in += 1
        g.changed()
        return g

    def add_node(self, kind, label, **kw):
        n = DiagramNode(id=f"n{len(self.g.nodes)}", kind=kind, name=label, **kw)
        self.g.nodes.append(n)
        return n

    def add_edge(self, src, dst, **kw):
        e = Edge(id=f"e{len(self.g.edges)}", src=src.id, dst=dst.id, **kw)
        self.g.edges.append(e)
        return e

    def leaf_node(self, var):
        own = _tensor_name(var, self.names)
        if own is not None:
            return self.add_node(LEAF, own, tensor=var)
        self.leaves += 1
        return self.add_node(LEAF, f"leaf{self.leaves - 1}", tensor=var, auto="leaf")

    def add_output(self, t, i, count, name):
        label = name if name is not None else (
            _tensor_name(t, self.names) or ("output" if count == 1 else f"output{i}"))
        fn = getattr(t, "grad_fn", None)
        if fn is None:
            self.add_node(LEAF if getattr(t, "requires_grad", False) else CONSTANT, label, tensor=t)
            return
        auto = "output" if name is None and _tensor_name(t, self.names) is None else ""
        out = self.add_node(OUTPUT, label, tensor=t, auto=auto)
        self.add_edge(out, self.reach(fn, 0), kind="output")

    def reach(self, fn, d):
        """The model node for ``fn``, creating (and queueing) it on first sight."""
        g = self.g
        node = g._by_fn.get(id(fn))
        if node is not None:
            return node
        run = self.runs.get(id(fn))
        if run is not None:       # the head of a collapsed run stands for all of it
            node = self.add_node(REPEAT, fn_name(fn), fn=fn, count=len(run), members=tuple(run))
            g._by_fn.update((id(member), node) for member in run)
            self.queue.append((node, run[-1], d))
        else:
            node = self.add_node(ACCUMULATE if hasattr(fn, "variable") else FUNCTION, fn_name(fn), fn=fn)
            g._by_fn[id(fn)] = node
            self.queue.append((node, fn, d))
        self.budget -= 1
        return node

    def expand(self, node, fn, d):
        if node.kind == ACCUMULATE:
            self.add_edge(node, self.leaf_node(fn.variable), kind="variable")
            return
        if self.show_saved:
            _add_saved(node, fn, self.add_node, self.add_edge)
        entries = tuple(fn.next_functions)
        multi = len(entries) > 1
        drawn = len(entries) if len(entries) <= MAX_FAN else MAX_FAN - 1
        for slot, (child, _input_nr) in enumerate(entries[:drawn]):
            if child is None:
                if self.show_constants:
                    self.add_edge(node, self.add_node(CONSTANT, "constant"), slot=slot, kind="constant", multi=multi)
                continue
            limited = (self.depth is not None and d + 1 > self.depth) or self.budget <= 0
            if limited and id(child) not in self.g._by_fn:
                self.cut.append((node, slot, multi))
                continue
            self.add_edge(node, self.reach(child, d + 1), slot=slot, multi=multi)
        if drawn < len(entries):
            self.add_fan(node, len(entries), drawn)

    def add_fan(self, node, inputs, drawn):
        """One box for the inputs of ``node`` past the first ``drawn`` (torch.stack of
        thousands): the layout's cost grows with every edge."""
        box = self.add_node(HIDDEN, f"{inputs - drawn} more inputs", count=inputs - drawn, hides="inputs")
        self.add_edge(node, box, kind="hidden")
        self.g.hidden.append(("caption.fan", {"name": node.name, "n": inputs, "shown": drawn}))

    def add_hidden(self, hidden):
        why = []
        if self.depth is not None:
            why.append(f"depth={self.depth}")
        if self.max_nodes is not None:
            why.append(f"max_nodes={self.max_nodes}")
        placeholder = self.add_node(HIDDEN, f"{hidden} more node{'s' * (hidden != 1)}", count=hidden)
        for parent, slot, multi in self.cut:
            self.add_edge(parent, placeholder, slot=slot, kind="hidden", multi=multi)
        self.g.hidden.append(("caption.hidden", {"n": hidden, "why": " / ".join(why)}))


def saved_info(fn):
    """``(what fn saved, freed)``: autograd_teach's ``saved_tensors_info()``, or a
    PyTorch node's ``_saved_*`` attributes; None for a node that tells nothing."""
    if hasattr(fn, "saved_tensors_info"):
        freed = getattr(fn, "saved_freed", False)
        return ([] if freed else fn.saved_tensors_info()), freed
    if torch_record.is_torch_node(fn):
        info = torch_record.saved_tensors_info(fn)
        return (info or []), info is None
    return None, False


def _add_saved(node, fn, add_node, add_edge):
    info, freed = saved_info(fn)
    if freed:
        node.notes.append(("label.freed", {}))
    for s in info or ():
        if hasattr(s.value, "grad_fn") or hasattr(s.value, "numpy"):
            saved = add_node(SAVED, s.name, tensor=s.value,
                             saved_version=s.saved_version, current_version=s.current_version)
            add_edge(node, saved, kind="saved")
        else:  # a Python scalar (an exponent, a dim, ...) is shown inside the node
            node.notes.append(f"{s.name} = {s.value!r}")


def iter_functions(outputs):
    """Every autograd Node reachable from ``outputs``, each once, in graph order."""
    seen = set()
    queue = deque(getattr(t, "grad_fn", None) for t in outputs)
    while queue:
        fn = queue.popleft()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        yield fn
        queue.extend(c for c, _ in fn.next_functions)


def _repeated_runs(fns, min_len=3):
    """Chains of same-named Functions, each with one parent and one input to the next.

    ``fns`` are the graph's Functions in graph order (:func:`iter_functions`).
    Returns {id(fn): run} for the head of every run of at least ``min_len``;
    the run lists the Functions from head to tail.  ``b = b * 2`` in a loop
    makes exactly such a chain.
    """
    parents = {}
    for fn in fns:
        for c, _ in fn.next_functions:
            if c is not None:
                parents[id(c)] = parents.get(id(c), 0) + 1

    def only_child(fn):
        kids = [c for c, _ in fn.next_functions if c is not None]
        return kids[0] if len(kids) == 1 else None

    def chainable(fn):
        return not hasattr(fn, "variable") and only_child(fn) is not None

    in_run = set()
    runs = {}
    for fn in fns:                # graph order: a run is found from its head first
        if id(fn) in in_run or not chainable(fn):
            continue
        run = [fn]
        nxt = only_child(fn)
        # The last member may have any inputs: the run's node keeps its edges.
        while (nxt is not None and not hasattr(nxt, "variable") and fn_name(nxt) == fn_name(fn)
               and parents.get(id(nxt)) == 1 and id(nxt) not in in_run):
            run.append(nxt)
            nxt = only_child(nxt) if chainable(nxt) else None
        if len(run) >= min_len:
            runs[id(fn)] = run
            in_run.update(id(f) for f in run)
    return runs


# --- gradients: a Recording laid onto the model -----------------------------

@dataclass
class GradStep:
    """One engine step, in model terms."""
    index: int
    node_id: str | None          # the model node that ran (None when it is hidden)
    name: str                    # the Function's PyTorch name
    grad_output: object          # ndarray flowing into the node
    edge_grads: dict             # edge id -> ndarray this step sent along that edge
    leaf_grad: object = None     # the leaf's .grad after an AccumulateGrad step
    values: dict = None          # what the node's derivative rule read (record.Step.values)
    grad_inputs: tuple = ()      # what the node sent, one per next_functions entry
    first_grad: bool = False     # after an AccumulateGrad step: the leaf had no .grad before it


def grad_steps(graph, recording):
    """The recording's steps, each pointing at model nodes and edges."""
    roots = {id(r) for r in recording.roots}
    out = []
    for step in recording.steps:
        node = graph.node_for(step.fn)
        sent = {}
        if node is not None:
            # A collapsed run sends along its drawn edges only from its last member.
            tail = node.members[-1] if node.kind == REPEAT else node.fn
            if step.fn is tail:
                for e in graph.out_edges(node.id):
                    if e.slot is not None and e.slot < len(step.grad_inputs):
                        if step.grad_inputs[e.slot] is not None:
                            sent[e.id] = step.grad_inputs[e.slot]
                    elif e.kind == "variable" and step.leaf_grad is not None:
                        sent[e.id] = step.leaf_grad
            if id(step.fn) in roots:
                for e in graph.in_edges(node.id):
                    if e.kind == "output":
                        sent[e.id] = step.grad_output
        out.append(GradStep(step.index, node.id if node else None, step_name(step),
                            step.grad_output, sent, step.leaf_grad,
                            getattr(step, "values", None), tuple(step.grad_inputs),
                            getattr(step, "first_grad", False)))
    return out


def step_name(step):
    """The PyTorch name of the node a recorded step ran, also once that node is gone."""
    fn = step.fn
    if fn is None and step.kind is not None:
        return step.kind.__name__.rsplit("::", 1)[-1]    # our nodes' classes and PyTorch's are named as their nodes
    return fn_name(fn)


def grads_until(steps, k):
    """Edge id -> gradient for everything sent in steps[:k] (the latest value wins)."""
    grads = {}
    for s in steps[:k]:
        grads.update(s.edge_grads)
    return grads
