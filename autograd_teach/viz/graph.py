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

# Node kinds.  Each has its own style in dot.py and its own entry in the legend.
OUTPUT = "output"          # a tensor passed to draw()
FUNCTION = "function"      # a backward Function: MulBackward0, ...
ACCUMULATE = "accumulate"  # AccumulateGrad: where a leaf's .grad is written
LEAF = "leaf"              # a leaf tensor that requires grad (a parameter)
CONSTANT = "constant"      # a next_functions entry of None: an input needing no grad
SAVED = "saved"            # a tensor a Function saved for backward
HIDDEN = "hidden"          # stands for nodes left out by max_nodes= / depth=
REPEAT = "repeat"          # a run of identical Functions collapsed into one

DEFAULT_MAX_NODES = 400


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
    hidden: list                 # sentences saying what was left out, for the caption
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

    def node(self, node_id):
        return self._lookup()["node"][node_id]

    def node_for(self, fn):
        """The model node that draws the autograd Node ``fn`` (None if hidden)."""
        return self._by_fn.get(id(fn))

    def out_edges(self, node_id):
        return list(self._lookup()["out"].get(node_id, ()))

    def in_edges(self, node_id):
        return list(self._lookup()["in"].get(node_id, ()))


def fn_name(fn):
    """PyTorch's node name, without the C++ namespace real PyTorch puts on AccumulateGrad."""
    name = fn.name() if callable(getattr(fn, "name", None)) else type(fn).__name__
    return name.rsplit("::", 1)[-1]


def caller_names(frame):
    """{name: tensor} for the tensors bound to variables where draw()/show() was
    called: its locals, then its globals. So ``draw(y)`` labels the leaf ``x``
    without being told. Names starting with ``_`` (IPython's ``_``, ``_3``)
    are skipped; the order is the order the variables were bound, so the
    choice between two names of one tensor is the same on every run."""
    found = {}
    for scope in (frame.f_locals, frame.f_globals):
        for key, value in scope.items():
            if not key.startswith("_") and hasattr(value, "grad_fn") and hasattr(value, "requires_grad"):
                found.setdefault(key, value)
    return found


def _tensor_name(t, names):
    for key, value in names.items():
        if value is t:
            return key
    own = getattr(t, "name", None)
    return own if isinstance(own, str) and own else None


def build_graph(outputs, names=None, name=None, show_constants=False, show_saved=False,
                max_nodes=DEFAULT_MAX_NODES, depth=None):
    """The graph PyTorch built behind ``outputs`` (one tensor or a list of them).

    ``names`` maps display names to tensors (like torchviz's ``params``);
    ``name`` names a single output.  Shared subgraphs are drawn once.  When
    the graph has more than ``max_nodes`` Functions, runs of identical
    single-input Functions are collapsed first; then whatever lies beyond
    ``max_nodes`` or ``depth`` is replaced by one "hidden" node.
    """
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    names = dict(names or {})
    if name is not None:
        if len(outputs) != 1:
            raise ValueError("name= names a single output; use names={...} for several")
        names.setdefault(name, outputs[0])

    g = Graph(nodes=[], edges=[], hidden=[], _by_fn={})
    ids = {"n": 0, "e": 0, "leaf": 0}

    def add_node(kind, label, **kw):
        n = DiagramNode(id=f"n{ids['n']}", kind=kind, name=label, **kw)
        ids["n"] += 1
        g.nodes.append(n)
        return n

    def add_edge(src, dst, **kw):
        e = Edge(id=f"e{ids['e']}", src=src.id, dst=dst.id, **kw)
        ids["e"] += 1
        g.edges.append(e)
        return e

    def leaf_label(t):
        own = _tensor_name(t, names)
        if own is None:
            own = f"leaf{ids['leaf']}"
            ids["leaf"] += 1
        return own

    runs = {}
    if max_nodes is not None and _count_functions(outputs) > max_nodes:
        runs = _repeated_runs(outputs)
        if runs:
            total = sum(len(r) for r in runs.values())
            g.hidden.append(f"{total} Functions in {len(runs)} repeated runs drawn as one node each")

    # Breadth-first from the outputs.  Each queue entry is a Function to
    # expand plus its depth; the model node is created when first reached.
    queue = deque()
    cut = []                      # (parent model node, slot, fn) left out by the limits
    budget = [max_nodes if max_nodes is not None else float("inf")]

    def reach(fn, d):
        """The model node for ``fn``, creating (and queueing) it on first sight."""
        node = g._by_fn.get(id(fn))
        if node is not None:
            return node
        run = runs.get(id(fn))
        if run is not None:       # the head of a collapsed run stands for all of it
            node = add_node(REPEAT, fn_name(fn), fn=fn, count=len(run), members=tuple(run))
            for member in run:
                g._by_fn[id(member)] = node
            queue.append((node, run[-1], d))
        else:
            node = add_node(ACCUMULATE if hasattr(fn, "variable") else FUNCTION, fn_name(fn), fn=fn)
            g._by_fn[id(fn)] = node
            queue.append((node, fn, d))
        budget[0] -= 1
        return node

    for i, t in enumerate(outputs):
        label = _tensor_name(t, names) or ("output" if len(outputs) == 1 else f"output{i}")
        fn = getattr(t, "grad_fn", None)
        if fn is None:
            kind = LEAF if getattr(t, "requires_grad", False) else CONSTANT
            add_node(kind, label, tensor=t)
            continue
        out = add_node(OUTPUT, label, tensor=t)
        add_edge(out, reach(fn, 0), kind="output")

    while queue:
        node, fn, d = queue.popleft()
        if node.kind == ACCUMULATE:
            var = fn.variable
            add_edge(node, add_node(LEAF, leaf_label(var), tensor=var), kind="variable")
            continue
        if show_saved:
            _add_saved(node, fn, add_node, add_edge)
        entries = tuple(fn.next_functions)
        multi = len(entries) > 1
        for slot, (child, _input_nr) in enumerate(entries):
            if child is None:
                if show_constants:
                    const = add_node(CONSTANT, "constant")
                    add_edge(node, const, slot=slot, kind="constant", multi=multi)
                continue
            limited = (depth is not None and d + 1 > depth) or budget[0] <= 0
            if limited and id(child) not in g._by_fn:
                cut.append((node, slot, multi, child))
                continue
            add_edge(node, reach(child, d + 1), slot=slot, multi=multi)

    if cut:
        _add_hidden(g, cut, add_node, add_edge, max_nodes, depth)
    return g


def _add_saved(node, fn, add_node, add_edge):
    info = getattr(fn, "saved_tensors_info", None)
    if info is None:
        return
    if getattr(fn, "saved_freed", False):
        node.notes.append("saved tensors freed by backward")
        return
    for s in info():
        if hasattr(s.value, "grad_fn") or hasattr(s.value, "numpy"):
            saved = add_node(SAVED, s.name, tensor=s.value,
                             saved_version=s.saved_version, current_version=s.current_version)
            add_edge(node, saved, kind="saved")
        else:  # a Python scalar (an exponent, a dim, ...) is shown inside the node
            node.notes.append(f"{s.name} = {s.value!r}")


def _add_hidden(g, cut, add_node, add_edge, max_nodes, depth):
    shown = set(g._by_fn)
    hidden = 0
    seen = set()
    stack = [fn for _, _, _, fn in cut]
    while stack:                  # count what was left out, iteratively
        fn = stack.pop()
        if id(fn) in seen or id(fn) in shown:
            continue
        seen.add(id(fn))
        hidden += 1
        stack.extend(c for c, _ in fn.next_functions if c is not None)
    why = []
    if depth is not None:
        why.append(f"depth={depth}")
    if max_nodes is not None:
        why.append(f"max_nodes={max_nodes}")
    placeholder = add_node(HIDDEN, f"{hidden} more nodes", count=hidden)
    for parent, slot, multi, _fn in cut:
        add_edge(parent, placeholder, slot=slot, kind="hidden", multi=multi)
    g.hidden.append(f"{hidden} nodes hidden beyond {' / '.join(why)}")


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


def _count_functions(outputs):
    return sum(1 for _ in iter_functions(outputs))


def _repeated_runs(outputs, min_len=3):
    """Chains of same-named Functions, each with one parent and one input to the next.

    Returns {id(fn): run} for the head of every run of at least ``min_len``;
    the run lists the Functions from head to tail.  ``b = b * 2`` in a loop
    makes exactly such a chain.
    """
    fns = list(iter_functions(outputs))
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
        out.append(GradStep(step.index, node.id if node else None, fn_name(step.fn),
                            step.grad_output, sent, step.leaf_grad))
    return out


def grads_until(steps, k):
    """Edge id -> gradient for everything sent in steps[:k] (the latest value wins)."""
    grads = {}
    for s in steps[:k]:
        grads.update(s.edge_grads)
    return grads
