"""Graph model -> DOT text.

Every label is a Graphviz HTML-like label built from escaped text, so a
tensor named ``<b>"]`` is drawn as exactly those characters.  DOT names and
SVG ids are the model's counter ids (``n0``, ``e0``, ``r0``), so the output
depends on nothing but the graph: no ``id()``, no version, no timestamp.

Each gradient is written once: on the edge it flowed along.  A node adds
only what no edge says: the sum where several edges meet (``Σ``), and a
leaf's ``.grad``.  The legend and the caption sit in one short block under
the graph, so the diagram is as tall as its ranks and no taller.

Each label is a table of rows.  Text that the widget shows or hides
travels as data: its row's cell has an id naming its role (``n3_grad0``,
``e5_grad0``, ``n0_value0``; "freed" for "saved tensors freed"), which the
layout engine keeps as a group around that text, and ``svg.tidy`` turns into
the CSS classes ``at-grad``, ``at-value`` and ``at-freed``.  The colours
(:data:`GRAD_COLOR`, :data:`VALUE_COLOR`) are for the eye only.  Nodes carry
their kind as a DOT ``class`` (``at-leaf``), edges theirs (``at-edge-grad``),
which graphviz-pure writes into the SVG as is.
"""
from __future__ import annotations

import itertools
import re

from . import arrange
from . import graph as G
from . import values
from .failure import caption_lines
from .lang import t

GRAD_COLOR = "#b4380f"    # gradient text (a colour used for nothing else)
VALUE_COLOR = "#1f3a60"   # tensor value text
FREED_COLOR = "#5c5c5c"   # "saved tensors freed": true only once the node has run
SLOT_COLOR = "#6b6b6b"    # the [0] / [1] input-slot numbers on edges
MONO = "Courier"          # values line up in a fixed-width font
MAX_NAME = 48             # longer names are shortened in their box: a 300-character name made a 4,000 px diagram
MAX_NOTE = 60             # a saved number or list inside a node (torchviz's max_attr_chars is 50)

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
    G.REF: ("#ffffff", "#4a6d99", "dashed"),
}
EDGE_STYLES = {
    "grad": 'color="#555555"',
    "output": 'color="#3f7f3a"',
    "variable": 'color="#4a6d99"',
    "constant": 'color="#c0c0c0" style=dashed',
    "saved": 'color="#b5651d" style=dashed arrowhead=none',
    "hidden": 'color="#999999" style=dashed',
}
NO_GRAD_YET = t("caption.no_grad_yet", "en")
EDGE_XLABELS_ABOVE = 600  # past this many edges, xlabels: layout stays fast (see docs/benchmarks.md)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]")


def escape(text):
    """Text for inside an HTML-like label: markup characters become entities,
    control characters (which no layout engine parses) a visible ``\\xNN``.
    Chinese gets a little room at the end: browsers draw it with a CJK font a
    few percent wider than the one the layout engine measured."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
    cjk = len(_CJK.findall(text))
    if cjk:
        text += "\u00a0" * (1 + (cjk + 1) // 2)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _lines(text, color=None, face=None, role=None):
    """One left-aligned row of escaped lines in one colour/font (multi-line
    tensors keep their shape).  ``role`` ("grad", "value", "freed") travels
    into the SVG as the cell's id: svg.tidy gives its text that class."""
    out = []
    for line in str(text).split("\n"):
        # a 3-d tensor prints blank lines between its blocks; graphviz rejects an empty <font>
        s = escape(line) or " "
        if face:
            s = f'<font face="{face}">{s}</font>'
        if color:
            s = f'<font color="{color}">{s}</font>'
        out.append(s)
    return f"<tr><td{_role(role)} align=\"left\" balign=\"left\">{'<br/>'.join(out)}</td></tr>"


def _role(role):
    # a cell with an id and a title is the only part of a label graphviz keeps
    # as an element of its own (<g id="a_..."><a>); node_label numbers the ids
    return f' id="@{role}@" title="{role}"' if role else ""


def fit(name):
    """A name of at most :data:`MAX_NAME` characters: its start and its end, which
    tell parameters apart (``....weight``), around an ellipsis.  The whole name
    stays in the node's hover title and the widget's inspector."""
    name = str(name)
    if len(name) <= MAX_NAME:
        return name
    tail = MAX_NAME // 3
    return name[:MAX_NAME - tail - 1] + "\u2026" + name[-tail:]


def _head(name, info=""):
    """The node's name in bold (shortened to fit), with its shape and dtype on the same line."""
    return "<tr><td>" + f"<b>{escape(fit(name))}</b>" + (f" {escape(info)}" if info else "") + "</td></tr>"


def _table(rows, owner):
    """The rows as one label, each role cell's id made unique: ``n3_grad0``."""
    count = itertools.count()
    rows = re.sub(r'id="@(\w+)@"', lambda m: f'id="{owner}_{m.group(1)}{next(count)}"', rows)
    return f'<table border="0" cellborder="0" cellspacing="0" cellpadding="0">{rows}</table>'


def _tensor_info(tensor):
    return f"{values.shape_text(tuple(tensor.shape))} {values.dtype_name(tensor)}"


class _State:
    """What the labels say about gradients, from the steps run so far."""

    def __init__(self, graph, steps, shown=True, why=None):
        self.shown = shown     # gradients asked for (show_grads)
        self.known = steps is not None
        self.why = why         # lang key: why there are no gradients (None: not run yet)
        self.edge = G.grads_until(steps or [], len(steps or []))
        self.node_in = {}      # node id -> gradient that flowed into it
        self.leaf = {}         # leaf node id -> its .grad after its AccumulateGrad ran
        for s in steps or []:
            if s.node_id is not None:
                self.node_in[s.node_id] = s.grad_output
                if s.leaf_grad is not None:
                    for e in graph.out_edges(s.node_id):
                        if e.kind == "variable":
                            self.leaf[e.dst] = s.leaf_grad


def display_name(n, lang=None):
    """The node's name; a name made up here ("output", "leaf0") in the diagram's language."""
    if n.auto:
        return t("label." + n.auto, lang) + n.name[len(n.auto):]
    return n.name


def title(n, lang=None):
    """The node's name as shown outside its box (hover title, the widget's list and
    inspector): display_name, or our words for a constant or the hidden nodes."""
    if n.kind == G.HIDDEN:
        return t("label.more_" + n.hides, lang, n=n.count)
    if n.kind == G.CONSTANT and n.tensor is None:
        return t("label.constant", lang)
    return display_name(n, lang)


def node_label(graph, n, state, show_values=True, show_grads=True, lang=None):
    """The HTML-like label of model node ``n``."""
    grads = show_grads and state.known
    body = _BODIES.get(n.kind, _function_body)(graph, n, state, show_values, grads, lang)
    for note in n.notes:          # saved scalars, "saved tensors freed by backward"
        if isinstance(note, tuple):
            freed = note[0] == "label.freed"
            body += _lines(t(note[0], lang, **note[1]), FREED_COLOR if freed else None, role="freed" if freed else None)
        else:             # "_saved_split_sizes = (1, 1, ...": its start says what it is
            body += _lines(note if len(note) <= MAX_NOTE else note[:MAX_NOTE - 1] + "\u2026")
    if (n.kind in (G.FUNCTION, G.ACCUMULATE, G.REPEAT) and grads and n.fan_in > 1
            and n.id in state.node_in and not isinstance(state.node_in[n.id], tuple)):
        # several gradients met here: their sum, once (not for a node with several outputs: one per output)
        body += _lines("\u03a3 = " + values.short(state.node_in[n.id], lang=lang), GRAD_COLOR, MONO, "grad")
    return _table(body, n.id)


def _tensor_body(graph, n, state, show_values, grads, lang):     # OUTPUT, LEAF
    body = _head(display_name(n, lang), _tensor_info(n.tensor))
    if show_values:
        body += _lines(values.short(n.tensor, lang=lang), VALUE_COLOR, MONO, "value")
    if grads and n.id in state.leaf:
        body += _lines(".grad = " + values.short(state.leaf[n.id], lang=lang), GRAD_COLOR, MONO, "grad")
    elif state.shown and n.kind == G.LEAF and not graph.in_edges(n.id) and n.tensor.grad is not None:
        # a leaf drawn on its own (draw(w)): no step wrote it here, but it has a .grad
        body += _lines(".grad = " + values.short(n.tensor.grad, lang=lang), GRAD_COLOR, MONO, "grad")
    return body


def _saved_body(graph, n, state, show_values, grads, lang):
    body = _head(n.name, _tensor_info(n.tensor) if n.tensor is not None else "")
    if n.tensor is not None and show_values:
        body += _lines(values.short(n.tensor, lang=lang), VALUE_COLOR, MONO, "value")
    if n.stale:
        body += _lines(t("label.modified", lang, saved=n.saved_version, now=n.current_version), "#c00000")
    return body


def _repeat_body(graph, n, state, show_values, grads, lang):
    return _head(f"{n.name} \u00d7 {n.count}") + _lines(t("label.identical", lang, n=n.count))


def _constant_body(graph, n, state, show_values, grads, lang):
    if n.tensor is None:
        return _head(t("label.constant", lang)) + _lines(t("label.needs_no_grad", lang))
    body = _head(n.name, _tensor_info(n.tensor))     # a tensor drawn on its own, needing no grad
    return body + (_lines(values.short(n.tensor, lang=lang), VALUE_COLOR, MONO, "value") if show_values else "")


def _hidden_body(graph, n, state, show_values, grads, lang):
    return _head(title(n, lang)) + _lines(t("label.raise_limits" if n.hides == "nodes" else "label.fan", lang))


def _ref_body(graph, n, state, show_values, grads, lang):
    leaf = next((e.dst for e in graph.out_edges(n.ref) if e.kind == "variable"), None)
    return _head(n.name, fit(graph.node(leaf).name) if leaf is not None else "") + _lines(t("label.ref", lang, id=n.ref))


def _function_body(graph, n, state, show_values, grads, lang):   # FUNCTION, ACCUMULATE
    return _head(n.name)


_BODIES = {G.OUTPUT: _tensor_body, G.LEAF: _tensor_body, G.SAVED: _saved_body, G.REPEAT: _repeat_body,
           G.CONSTANT: _constant_body, G.HIDDEN: _hidden_body, G.REF: _ref_body}


def edge_label(e, state, show_grads=True, lang=None):
    """The slot number ``[i]`` (when the source has several inputs) and the gradient, on one line."""
    slot = f'<td valign="top"><font color="{SLOT_COLOR}">[{e.slot}]</font> </td>' if e.multi and e.slot is not None else ""
    grad = ""
    if show_grads and e.id in state.edge and e.kind != "variable":   # a leaf's .grad is in the leaf
        grad = _lines(values.short(state.edge[e.id], lang=lang), GRAD_COLOR, MONO, "grad")[4:-5]   # its <td>
    if not slot and not grad:
        return ""
    return _table(f"<tr>{slot}{grad}</tr>", e.id)


def _caption(graph, state, steps, lang, failure=None):
    lines = []
    if not state.shown:
        pass                      # gradients switched off: say nothing about them
    elif not state.known:
        lines.append(t(state.why or G.no_grads_key(graph), lang))
    else:
        lines.append(t("caption.steps", lang, n=len(steps)))
        lines.extend(caption_lines(failure, lang))   # a backward that failed, and PyTorch's error
    lines.extend(t(key, lang, **fill) for key, fill in graph.hidden)
    return lines


def _legend_cells(graph, lang):
    kinds = [k for k in STYLES if any(n.kind == k for n in graph.nodes)]
    short = {G.ACCUMULATE: "legend.accumulate", G.LEAF: "legend.leaf", G.FUNCTION: "legend.function"}
    cells = "".join(f'<td bgcolor="{STYLES[k][0]}" color="{STYLES[k][1]}">'
                    f'{escape(t(short.get(k, "kind." + k), lang))}</td>' for k in kinds)
    return cells + f'<td><font color="{GRAD_COLOR}" face="{MONO}">{escape(t("legend.gradient", lang))}</font></td>'


def _footer(graph, state, steps, legend, caption, lang, failure=None):
    """The caption lines and the legend as one row of swatches: one short block under the graph."""
    rows = ""
    if caption:
        rows += "".join(f'<tr><td align="left" border="0">{escape(s)}</td></tr>'
                        for s in _caption(graph, state, steps, lang, failure))
    if legend:
        rows += ('<tr><td align="left" border="0"><table border="0" cellborder="1" cellspacing="2" '
                 f'cellpadding="2"><tr>{_legend_cells(graph, lang)}</tr></table></td></tr>')
    return f'<table border="0" cellborder="0" cellspacing="0" cellpadding="1">{rows}</table>' if rows else ""


def to_dot(graph, steps=None, show_values=True, show_grads=True, legend=True, caption=True,
           lang=None, why=None, failure=None):
    """DOT text for ``graph``; ``steps`` (from graph.grad_steps) adds the gradients.

    ``why`` is a lang key saying why there are no steps (not recorded, dropped);
    ``failure`` tells of a backward that failed (failure.py)."""
    state = _State(graph, steps, show_grads, why)
    xlabel = "xlabel" if len(graph.edges) > EDGE_XLABELS_ABOVE else "label"
    footer = _footer(graph, state, steps, legend, caption, lang, failure)
    out = [
        "digraph autograd {",
        '  graph [id="autograd" rankdir=TB nodesep=0.25 ranksep=0.2 '
        'fontname="Helvetica" fontsize=10 labelloc=b labeljust=l bgcolor="white" forcelabels=true'
        + (f" label=<{footer}>" if footer else "") + "]",
        '  node [shape=box style="rounded,filled" fontname="Helvetica" fontsize=10 '
        'margin="0.08,0.03" height=0.3 penwidth=1.2]',
        '  edge [fontname="Helvetica" fontsize=9 arrowsize=0.6]',
    ]
    spine = arrange.spines(graph)
    for n in graph.nodes:
        fill, border, extra = STYLES[n.kind]
        style = "rounded,filled" + (f",{extra}" if extra else "")
        cls = f"at-{n.kind}" + (" at-stale" if n.stale else "")
        label = node_label(graph, n, state, show_values, show_grads, lang)
        shape = " shape=ellipse" if n.kind in (G.OUTPUT, G.LEAF, G.SAVED) else ""
        out.append(f'  {n.id} [id="{n.id}" class="{cls}" group="s{spine[n.id]}"{shape} style="{style}" '
                   f'fillcolor="{fill}" color="{border}" label=<{label}>]')
    for e in graph.edges:
        label = edge_label(e, state, show_grads, lang)
        attrs = f'id="{e.id}" class="at-edge-{e.kind}" {EDGE_STYLES[e.kind]}'
        if label:
            attrs += f" {xlabel}=<{label}>"
        out.append(f"  {e.src} -> {e.dst} [{attrs}]")
    out.append("}")
    return "\n".join(out) + "\n"
