"""Graph model -> DOT text.

Every label is a Graphviz HTML-like label built from escaped text, so a
tensor named ``<b>"]`` is drawn as exactly those characters.  DOT names and
SVG ids are the model's counter ids (``n0``, ``e0``), so the output depends
on nothing but the graph: no ``id()``, no version, no timestamp.

Text that the widget shows or hides is marked by its colour, which the SVG
keeps as ``fill``: :data:`GRAD_COLOR` for gradients, :data:`VALUE_COLOR` for
tensor values.  ``svg.tidy`` (in ``svg.py``) turns those fills into the
CSS classes ``at-grad`` and ``at-value``.
"""
from __future__ import annotations

from . import graph as G
from . import values

GRAD_COLOR = "#b4380f"    # gradient text (a colour used for nothing else)
VALUE_COLOR = "#1f3a60"   # tensor value text
SLOT_COLOR = "#6b6b6b"    # the [0] / [1] input-slot numbers on edges
MONO = "Courier"          # values line up in a fixed-width font

# fill, border, extra style per kind: outputs green, parameters blue, saved
# tensors orange, like torchviz; constants and hidden parts are faded.
STYLES = {
    G.OUTPUT: ("#c7f0c2", "#3f7f3a", ""),
    G.FUNCTION: ("#f2f2f2", "#555555", ""),
    G.REPEAT: ("#f2f2f2", "#555555", "bold"),
    G.ACCUMULATE: ("#dbe8f7", "#4a6d99", ""),
    G.LEAF: ("#a9cbef", "#2f5f96", ""),
    G.CONSTANT: ("#fafafa", "#b0b0b0", "dashed"),
    G.SAVED: ("#fbd9b0", "#b5651d", ""),
    G.HIDDEN: ("#ffffff", "#999999", "dashed"),
}
LEGEND = {
    G.OUTPUT: "output tensor",
    G.FUNCTION: "backward Function",
    G.REPEAT: "repeated Functions",
    G.ACCUMULATE: "AccumulateGrad",
    G.LEAF: "leaf tensor (requires grad)",
    G.CONSTANT: "input needing no grad",
    G.SAVED: "saved for backward",
    G.HIDDEN: "hidden nodes",
}
EDGE_STYLES = {
    "grad": 'color="#555555"',
    "output": 'color="#3f7f3a"',
    "variable": 'color="#4a6d99"',
    "constant": 'color="#c0c0c0" style=dashed',
    "saved": 'color="#b5651d" style=dashed arrowhead=none',
    "hidden": 'color="#999999" style=dashed',
}
NO_GRAD_YET = "No gradients yet: they appear after backward()."
EDGE_XLABELS_ABOVE = 600  # past this many edges, xlabels: layout stays fast (see docs/benchmarks.md)


def escape(text):
    """Text for inside an HTML-like label: markup characters become entities."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _lines(text, color=None, face=None):
    """Escaped lines, left-aligned, in one colour/font (multi-line tensors keep their shape)."""
    out = []
    for line in str(text).split("\n"):
        s = escape(line)
        if face:
            s = f'<font face="{face}">{s}</font>'
        if color:
            s = f'<font color="{color}">{s}</font>'
        out.append(s + '<br align="left"/>')
    return "".join(out)


def _bold(text):
    return f"<b>{escape(text)}</b><br/>"


def _tensor_info(t):
    return f"{values.shape_text(tuple(t.shape))} {values.dtype_name(t)}"


class _State:
    """What the labels say about gradients, from the steps run so far."""

    def __init__(self, graph, steps, shown=True):
        self.shown = shown     # gradients asked for (show_grads)
        self.known = steps is not None
        self.edge = G.grads_until(steps or [], len(steps or []))
        self.node_in = {}      # node id -> gradient that flowed into it
        self.leaf = {}         # AccumulateGrad node id -> the leaf's .grad after its step
        for s in steps or []:
            if s.node_id is not None:
                self.node_in[s.node_id] = s.grad_output
                if s.leaf_grad is not None:
                    self.leaf[s.node_id] = s.leaf_grad


def node_label(graph, n, state, show_values=True, show_grads=True):
    """The HTML-like label of model node ``n``."""
    grads = show_grads and state.known
    if n.kind in (G.OUTPUT, G.LEAF):
        body = _bold(n.name) + _lines(_tensor_info(n.tensor))
        if show_values:
            body += _lines(values.short(n.tensor), VALUE_COLOR, MONO)
    elif n.kind == G.SAVED:
        body = _bold(n.name)
        if n.tensor is not None:
            body += _lines(_tensor_info(n.tensor))
            if show_values:
                body += _lines(values.short(n.tensor), VALUE_COLOR, MONO)
        if n.stale:
            body += _lines(f"modified in place: saved at version {n.saved_version}, "
                           f"now {n.current_version}", "#c00000")
    elif n.kind == G.ACCUMULATE:
        body = _bold(n.name)
        if grads:
            parts = [state.edge[e.id] for e in graph.in_edges(n.id) if e.id in state.edge]
            if len(parts) > 1:   # several contributions to one leaf: each, then the sum
                for i, p in enumerate(parts):
                    body += _lines(("+ " if i else "  ") + values.short(p), GRAD_COLOR, MONO)
                body += _lines("= " + values.short(state.node_in.get(n.id)), GRAD_COLOR, MONO)
            if n.id in state.leaf:
                body += _lines(".grad = " + values.short(state.leaf[n.id]), GRAD_COLOR, MONO)
    elif n.kind == G.REPEAT:
        body = _bold(f"{n.name} \u00d7 {n.count}") + _lines(f"{n.count} identical steps in a row")
    elif n.kind == G.CONSTANT:
        body = _bold(n.name) + (_lines("needs no grad") if n.tensor is None
                                else _lines(_tensor_info(n.tensor)))
    elif n.kind == G.HIDDEN:
        body = _bold(n.name) + _lines("raise max_nodes= or depth= to draw them")
    else:  # FUNCTION
        body = _bold(n.name)
    for note in n.notes:          # saved scalars, "saved tensors freed by backward"
        body += _lines(note)
    if n.kind == G.FUNCTION and grads and n.id in state.node_in:
        body += _lines("grad = " + values.short(state.node_in[n.id]), GRAD_COLOR, MONO)
    return body


def edge_label(e, state, show_grads=True):
    parts = ""
    if e.multi and e.slot is not None:
        parts += f'<font color="{SLOT_COLOR}">[{e.slot}]</font><br/>'
    if show_grads and e.id in state.edge:
        parts += _lines(values.short(state.edge[e.id]), GRAD_COLOR, MONO)
    # a padded cell keeps the labels of side-by-side edges from touching
    return f'<table border="0" cellborder="0" cellpadding="4"><tr><td>{parts}</td></tr></table>' if parts else ""


def _caption(graph, state, steps):
    lines = []
    if not state.shown:
        pass                      # gradients switched off: say nothing about them
    elif not state.known:
        lines.append(NO_GRAD_YET)
    else:
        lines.append(f"Gradients from one backward pass: {len(steps)} steps.")
    lines.extend(h[0].upper() + h[1:] + "." for h in graph.hidden)
    return "".join(escape(s) + "<br/>" for s in lines)


def _legend(graph):
    kinds = [k for k in LEGEND if any(n.kind == k for n in graph.nodes)]
    rows = "".join(f'<tr><td bgcolor="{STYLES[k][0]}" color="{STYLES[k][1]}">{escape(LEGEND[k])}</td></tr>'
                   for k in kinds)
    rows += f'<tr><td><font color="{GRAD_COLOR}" face="{MONO}">gradient</font></td></tr>'
    return ('legend [id="legend" class="at-legend" shape=plaintext style="" '
            f'label=<<table border="0" cellborder="1" cellspacing="2" cellpadding="3">{rows}</table>>]')


def to_dot(graph, steps=None, show_values=True, show_grads=True, legend=True, caption=True):
    """DOT text for ``graph``; ``steps`` (from graph.grad_steps) adds the gradients."""
    state = _State(graph, steps, show_grads)
    xlabel = "xlabel" if len(graph.edges) > EDGE_XLABELS_ABOVE else "label"
    out = [
        "digraph autograd {",
        '  graph [id="autograd" rankdir=TB ordering=out nodesep=0.4 ranksep=0.35 '
        'fontname="Helvetica" fontsize=12 labelloc=t bgcolor="white" forcelabels=true'
        + (f" label=<{_caption(graph, state, steps)}>" if caption else "") + "]",
        '  node [shape=box style="rounded,filled" fontname="Helvetica" fontsize=11 '
        'margin="0.12,0.06" penwidth=1.2]',
        '  edge [fontname="Helvetica" fontsize=10 arrowsize=0.7]',
    ]
    if legend:
        out += ["  " + _legend(graph), "  { rank=min; legend }"]
    for n in graph.nodes:
        fill, border, extra = STYLES[n.kind]
        style = "rounded,filled" + (f",{extra}" if extra else "")
        cls = f"at-{n.kind}" + (" at-stale" if n.stale else "")
        label = node_label(graph, n, state, show_values, show_grads)
        shape = " shape=ellipse" if n.kind in (G.OUTPUT, G.LEAF, G.SAVED) else ""
        out.append(f'  {n.id} [id="{n.id}" class="{cls}"{shape} style="{style}" '
                   f'fillcolor="{fill}" color="{border}" label=<{label}>]')
    for e in graph.edges:
        label = edge_label(e, state, show_grads)
        attrs = f'id="{e.id}" class="at-edge-{e.kind}" {EDGE_STYLES[e.kind]}'
        if label:
            attrs += f" {xlabel}=<{label}>"
        out.append(f"  {e.src} -> {e.dst} [{attrs}]")
    out.append("}")
    return "\n".join(out) + "\n"
