"""A plain-text account of a graph, for consoles and for ``repr``.

Same information as the diagram, one node per line in graph order, each
edge indented under its source with the gradient that flowed along it.
"""
from __future__ import annotations

from . import graph as G
from . import values
from .failure import summary_line
from .lang import t


ORDER_SHOWN = 12   # the engine order names this many steps at most: the first and the last few


def _one_line(text):
    # a matrix's rows on one line, each as print() pads it
    return " ".join(line.strip() for line in str(text).splitlines())


def engine_order(steps):
    """``A -> B -> ... -> Z``: the first steps, how many more, the last ones."""
    names = [s.name for s in steps]
    if len(names) > ORDER_SHOWN:
        head, tail = ORDER_SHOWN * 2 // 3, ORDER_SHOWN // 3
        names = names[:head] + [f"... ({len(names) - head - tail} more)"] + names[-tail:]
    return " -> ".join(names)


def node_line(n):
    if n.kind in (G.OUTPUT, G.LEAF, G.SAVED, G.CONSTANT) and n.tensor is not None:   # a constant: draw(x) of one
        t = n.tensor
        return (f"{n.id} {n.kind} {n.name}: {values.shape_text(tuple(t.shape))} "
                f"{values.dtype_name(t)} {_one_line(values.short(t))}")
    if n.kind == G.REPEAT:
        return f"{n.id} {n.name} x {n.count}"
    if n.kind == G.REF:
        return f"{n.id} {n.name} (same node as {n.ref})"
    return f"{n.id} {n.name}" if n.kind != G.CONSTANT else f"{n.id} constant (needs no grad)"


def text_summary(graph, steps=None, upto=None, why=None, failure=None):
    """The graph as text; with ``steps``, the gradients of the first ``upto`` steps.
    ``why`` (a lang key) says why there are no steps when backward did run;
    ``failure`` tells of a backward that failed (failure.py)."""
    upto = len(steps) if steps is not None and upto is None else upto
    grads = G.grads_until(steps, upto) if steps is not None else {}
    n_fn = sum(n.kind in (G.FUNCTION, G.ACCUMULATE, G.REPEAT) for n in graph.nodes)
    head = f"autograd graph: {n_fn} backward nodes, {len(graph.edges)} edges"
    if steps is None and failure is not None:        # it failed before any step ran
        head += "; " + summary_line(failure)
    elif steps is None and why is not None:
        head += "; " + t(why, "en").rstrip(".")
    elif steps is None and G.no_grads_key(graph) != "caption.no_grad_yet":
        head += "; " + t(G.no_grads_key(graph), "en").rstrip(".")
    elif steps is None:
        head += "; no gradients yet (they appear after backward())"
    else:
        head += f"; backward ran {len(steps)} step{'s' * (len(steps) != 1)}"
        if upto != len(steps):
            head += f", showing the first {upto}"
    lines = [head]
    names = {n.id: n.name for n in graph.nodes}
    for n in graph.nodes:
        lines.append(node_line(n))
        for e in graph.out_edges(n.id):
            slot = f"[{e.slot}] " if e.multi and e.slot is not None else ""
            grad = f"   grad {_one_line(values.short(grads[e.id]))}" if e.id in grads else ""
            lines.append(f"    {slot}-> {e.dst} {names[e.dst]}{grad}")
    if steps is not None:
        order = engine_order(steps[:upto])
        lines.append(f"engine order: {order}" if order else "engine order: (no step yet)")
        lines.extend(filter(None, [summary_line(failure)]))
    lines.extend(t(key, "en", **fill).rstrip(".") for key, fill in graph.hidden)
    return "\n".join(lines)
