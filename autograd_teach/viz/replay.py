"""Everything the replay's front-end needs, for every step, as plain data.

``replay_data(diagram)`` is the one input of ``frontend/replay.js``, whether it
runs in the Jupyter widget (as the model's ``data``), in a standalone HTML
file or on the static site (``page.py``).  Nothing is computed in the browser
but which of these prepared pieces to show:

* ``svg``: the diagram, laid out once (``Diagram.svg()``);
* ``done``: element id -> the step at which it is done (0: never), and
  ``current``: for each step the ids it highlights; together they give
  :func:`widget.step_classes` at every step (tests/test_viz_replay.py checks);
* ``inspector``: node id -> ``[[k, html], ...]``: the inspector's HTML from
  step ``k`` on (it changes only at the steps that touch the node);
* ``labels``: every word of the controls in the diagram's language.
"""
from __future__ import annotations

from . import graph as G
from .dot import title
from .failure import status_note
from .inspector import inspector_html
from .lang import TEXT

# The lang keys the front-end shows (the widget's words).
LABEL_PREFIX = "widget."


def labels(lang):
    """The widget's words in ``lang``, templates unfilled (replay.js fills {k}, {n}, {name})."""
    return {key: TEXT[key][1 if lang == "zh" else 0] for key in TEXT if key.startswith(LABEL_PREFIX)}


def _followed(graph, n):
    """The node whose steps decide ``n``'s state: a leaf follows its AccumulateGrad,
    a copy the node it stands for (as in step_classes)."""
    if n.kind == G.LEAF:
        return next((e.src for e in graph.in_edges(n.id) if e.kind == "variable"), None)
    if n.kind == G.REF:
        return n.ref
    return n.id


def done_and_current(graph, steps):
    """``(done, current)``: the compact form of step_classes over all steps."""
    steps = steps or []
    first = {}
    for s in steps:
        first.setdefault(s.node_id, s.index + 1)
    done, current = {}, [[] for _ in steps]
    if not steps:
        return done, current
    tracked = (G.FUNCTION, G.ACCUMULATE, G.REPEAT, G.LEAF, G.REF)
    followers = {}
    for n in graph.nodes:
        if n.kind == G.OUTPUT:
            done[n.id] = 1
        elif n.kind in tracked:
            node_id = _followed(graph, n)
            done[n.id] = first.get(node_id, 0)
            if n.kind != G.REF:
                followers.setdefault(node_id, []).append(n.id)
    for e in graph.edges:
        if e.kind not in ("saved", "constant"):
            done[e.id] = 0
    for s in steps:
        current[s.index] = sorted(followers.get(s.node_id, [])) + sorted(s.edge_grads)
        for edge_id in s.edge_grads:
            if not done.get(edge_id):
                done[edge_id] = s.index + 1
    return done, current


def _touching(graph, steps):
    """Node id -> the step numbers (k) after which its inspector may read differently."""
    edges = {e.id: e for e in graph.edges}
    near = {}
    for s in steps:
        ids = {s.node_id}
        for edge_id in s.edge_grads:
            e = edges.get(edge_id)
            if e is not None:
                ids |= {e.src, e.dst}
        for node_id in ids:
            near.setdefault(node_id, set()).add(s.index + 1)
    return near


def inspector_segments(graph, steps, lang):
    """Node id -> ``[[k, html], ...]``: the inspector of the node from step k on."""
    steps = steps or []
    near = _touching(graph, steps)
    out = {}
    for n in graph.nodes:
        if n.kind == G.REF:
            continue
        related = {n.id, _followed(graph, n)}
        ks = {0}.union(*(near.get(r, set()) for r in related))
        segments = []
        for k in sorted(ks):
            html = inspector_html(graph, steps, k, n.id, lang)
            if not segments or segments[-1][1] != html:
                segments.append([k, html])
        out[n.id] = segments
    return out


def empty_status(diagram):
    """The lang key of the status line when no step was recorded: why there is nothing to replay."""
    if diagram.why is not None:
        return "widget.not_recorded_torch" if diagram.why == "caption.not_recorded_torch" else "widget.not_recorded"
    return {"caption.no_graph": "widget.no_graph", "caption.leaf": "widget.leaf"}.get(
        G.no_grads_key(diagram.graph), "widget.no_backward")


def replay_data(diagram, interval=900, with_svg=True):
    """The front-end's data for ``diagram`` (a Diagram from draw()); see the module doc."""
    graph, steps, lang = diagram.graph, diagram.steps or [], diagram.lang
    done, current = done_and_current(graph, steps)
    data = {
        "lang": lang,
        "labels": labels(lang),
        "n": len(steps),
        "names": [s.name for s in steps],
        "why": diagram.why,
        "empty": empty_status(diagram),
        "done": done,
        "current": current,
        "aliases": {x.id: x.ref for x in graph.nodes if x.kind == G.REF},
        "nodes": [[x.id, title(x, lang)] for x in graph.nodes if x.kind != G.REF],
        "inspector": inspector_segments(graph, steps, lang),
        "has_saved": any(x.kind == G.SAVED for x in graph.nodes),
        "interval": interval,
    }
    if diagram.failure is not None:     # (only then: the data of every other replay stays as it was)
        data["failed"] = status_note(diagram.failure, lang)
    if with_svg:
        data["svg"] = diagram.svg()
    return data
