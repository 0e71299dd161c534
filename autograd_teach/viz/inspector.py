"""The widget's node inspector: one node, in full, as of step k, as HTML.

Everything shown is escaped; tensors are printed whole, the way the core
prints them (summarised only past 1000 elements, as PyTorch does).
"""
from __future__ import annotations

from html import escape

from . import graph as G
from . import values

KIND_TEXT = {
    G.OUTPUT: "output tensor", G.FUNCTION: "backward Function", G.REPEAT: "repeated Functions",
    G.ACCUMULATE: "AccumulateGrad: writes the leaf's .grad", G.LEAF: "leaf tensor",
    G.CONSTANT: "input that needs no grad", G.SAVED: "tensor saved for backward",
    G.HIDDEN: "hidden nodes",
}


def _pre(text):
    return f"<pre>{escape(text)}</pre>"


def _tensor_rows(t):
    return [("shape", escape(values.shape_text(tuple(t.shape)))),
            ("dtype", escape(str(t.dtype))),
            ("value", _pre(values.full(t)))]


def _when(graph, steps, node_id):
    """Index of the step that ran ``node_id`` (the last, for a collapsed run)."""
    ran = [s.index for s in steps if s.node_id == node_id]
    return ran[-1] if ran else None


def rows(graph, steps, k, node_id):
    """(heading, html) rows describing ``node_id`` after the first ``k`` steps."""
    n = graph.node(node_id)
    steps = steps or []
    done = steps[:k]
    out = [("kind", escape(KIND_TEXT[n.kind]))]
    if n.tensor is not None:
        out += _tensor_rows(n.tensor)
    if n.kind == G.SAVED and n.saved_version is not None:
        mark = " (modified in place since it was saved!)" if n.stale else ""
        out.append(("version", escape(f"saved at {n.saved_version}, now {n.current_version}{mark}")))
    fn = n.fn if n.kind != G.REPEAT else n.members[-1]
    ran = _when(graph, steps, node_id)
    if fn is not None and steps:
        if ran is None:
            out.append(("gradient", "not run by this backward"))
        elif ran >= k:
            out.append(("gradient", escape(f"not yet: this node runs at step {ran + 1}")))
        else:
            out.append(("gradient in", _pre(values.full(steps[ran].grad_output))))
            for e in graph.out_edges(node_id):
                if e.id in steps[ran].edge_grads:
                    slot = f"[{e.slot}] " if e.slot is not None else ""
                    head = f"sent {slot}to {graph.node(e.dst).name}"
                    out.append((escape(head), _pre(values.full(steps[ran].edge_grads[e.id]))))
    elif fn is not None:
        out.append(("gradient", "none yet: it appears after backward()"))
    if n.kind == G.LEAF:
        acc = next((e.src for e in graph.in_edges(node_id) if e.kind == "variable"), None)
        ran = _when(graph, steps, acc) if acc else None
        grads = [s.leaf_grad for s in done if s.node_id == acc and s.leaf_grad is not None]
        if grads:
            out.append((".grad", _pre(values.full(grads[-1]))))
        elif ran is not None:
            out.append((".grad", escape(f"not yet: written at step {ran + 1}")))
    if fn is not None and n.kind in (G.FUNCTION, G.REPEAT):
        out += _saved_rows(fn)
    return out


def _saved_rows(fn):
    if not hasattr(fn, "saved_tensors_info"):
        return []
    if getattr(fn, "saved_freed", False):
        return [("saved tensors", "freed by backward (use backward(retain_graph=True) to keep them)")]
    out = []
    for s in fn.saved_tensors_info():
        if s.saved_version is not None:
            text = values.full(s.value)
            note = f"\nshape {values.shape_text(tuple(s.value.shape))}, version saved {s.saved_version}, now {s.current_version}"
            if s.saved_version != s.current_version:
                note += " (modified in place: backward will fail)"
            out.append((escape(s.name), _pre(text + note)))
        else:
            out.append((escape(s.name), _pre(repr(s.value))))
    return out or [("saved tensors", "none")]


def inspector_html(graph, steps, k, node_id):
    """The inspector's HTML: a ``div.at-inspector`` with a heading and a table."""
    if node_id is None:
        return '<div class="at-inspector"><i>Pick a node (list or click) to inspect it.</i></div>'
    n = graph.node(node_id)
    body = "".join(f"<tr><th>{h}</th><td>{v}</td></tr>" for h, v in rows(graph, steps, k, node_id))
    return (f'<div class="at-inspector" data-node="{n.id}"><b>{escape(n.name)}</b> '
            f'<small>({n.id})</small><table>{body}</table></div>')
