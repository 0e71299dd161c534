"""The widget's node inspector: one node, in full, as of step k, as HTML.

Everything shown is escaped; tensors are printed whole, the way the core
prints them (summarised only past 1000 elements, as PyTorch does).
"""
from __future__ import annotations

from html import escape

from . import graph as G
from . import values
from .lang import t


def _pre(text):
    return f"<pre>{escape(text)}</pre>"


def _tensor_rows(tensor, lang):
    return [(t("insp.shape", lang), escape(values.shape_text(tuple(tensor.shape)))),
            (t("insp.dtype", lang), escape(str(tensor.dtype))),
            (t("insp.value", lang), _pre(values.full(tensor)))]


def _when(graph, steps, node_id):
    """Index of the step that ran ``node_id`` (the last, for a collapsed run)."""
    ran = [s.index for s in steps if s.node_id == node_id]
    return ran[-1] if ran else None


def rows(graph, steps, k, node_id, lang=None):
    """(heading, html) rows describing ``node_id`` after the first ``k`` steps."""
    n = graph.node(node_id)
    if n.kind == G.REF:               # a copy drawn near a use: inspect the node itself
        return [(t("insp.kind", lang), escape(t("insp.ref", lang, id=n.ref)))] + rows(graph, steps, k, n.ref, lang)
    steps = steps or []
    done = steps[:k]
    out = [(t("insp.kind", lang), escape(t("kind." + n.kind, lang)))]
    if n.tensor is not None:
        out += _tensor_rows(n.tensor, lang)
    if n.kind == G.SAVED and n.saved_version is not None:
        mark = t("insp.modified", lang) if n.stale else ""
        out.append((t("insp.version", lang),
                    escape(t("insp.saved_at", lang, saved=n.saved_version, now=n.current_version) + mark)))
    fn = n.fn if n.kind != G.REPEAT else n.members[-1]
    ran = _when(graph, steps, node_id)
    if fn is not None and steps:
        if ran is None:
            out.append((t("insp.gradient", lang), escape(t("insp.not_run", lang))))
        elif ran >= k:
            out.append((t("insp.gradient", lang), escape(t("insp.not_yet", lang, k=ran + 1))))
        else:
            out += chain_rows(graph, steps[ran], node_id, lang)
    elif fn is not None:
        out.append((t("insp.gradient", lang), escape(t("insp.none_yet", lang))))
    if n.kind == G.LEAF:
        acc = next((e.src for e in graph.in_edges(node_id) if e.kind == "variable"), None)
        ran = _when(graph, steps, acc) if acc else None
        grads = [s.leaf_grad for s in done if s.node_id == acc and s.leaf_grad is not None]
        if grads:
            out.append((".grad", _pre(values.full(grads[-1]))))
        elif ran is not None:
            out.append((".grad", escape(t("insp.grad_not_yet", lang, k=ran + 1))))
    if fn is not None and n.kind in (G.FUNCTION, G.REPEAT):
        pending = steps and (ran is None or ran >= k)
        out += _saved_rows(fn, lang, pending)
    return out


def chain_rows(graph, step, node_id, lang=None):
    """What the node computed at its step: the gradient in, then what went out on each edge."""
    out = [(t("insp.grad_in", lang), _pre(values.full(step.grad_output)))]
    for e in graph.out_edges(node_id):
        if e.id in step.edge_grads and e.kind != "variable":
            slot = f"[{e.slot}] " if e.slot is not None else ""
            head = t("insp.sent", lang, slot=slot, name=graph.node(e.dst).name)
            out.append((escape(head), _pre(values.full(step.edge_grads[e.id]))))
    return out


def _saved_rows(fn, lang, pending=False):
    if not hasattr(fn, "saved_tensors_info"):
        return []
    if getattr(fn, "saved_freed", False):
        # True at the step shown: before its node runs, backward had not freed them yet.
        key = "insp.saved_kept" if pending else "insp.freed"
        return [(t("insp.saved_tensors", lang), escape(t(key, lang)))]
    out = []
    for s in fn.saved_tensors_info():
        if s.saved_version is not None:
            text = values.full(s.value)
            note = "\n" + t("insp.saved_note", lang, shape=values.shape_text(tuple(s.value.shape)),
                            saved=s.saved_version, now=s.current_version)
            if s.saved_version != s.current_version:
                note += t("insp.saved_stale", lang)
            out.append((escape(s.name), _pre(text + note)))
        else:
            out.append((escape(s.name), _pre(repr(s.value))))
    return out or [(t("insp.saved_tensors", lang), escape(t("insp.none", lang)))]


def inspector_html(graph, steps, k, node_id, lang=None):
    """The inspector's HTML: a ``div.at-inspector`` with a heading and a table."""
    if node_id is None:
        return f'<div class="at-inspector"><i>{escape(t("insp.pick", lang))}</i></div>'
    n = graph.node(node_id)
    body = "".join(f"<tr><th>{h}</th><td>{v}</td></tr>" for h, v in rows(graph, steps, k, node_id, lang))
    return (f'<div class="at-inspector" data-node="{n.id}"><b>{escape(n.name)}</b> '
            f'<small>({n.id})</small><table>{body}</table></div>')
