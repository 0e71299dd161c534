"""``show(out)`` / ``GraphWidget(out)``: replay backward one node at a time.

The diagram is laid out once, with every gradient label already in place;
a step only changes CSS classes, so nodes never move.  The diagram is an
anywidget (ESM below, no build step) so a click on a node can pick it; the
controls are plain ipywidgets.  All state lives in Python (``step``,
``view.classes``, ``picker.value``): the browser only applies it.

DOM / CSS hooks (stable, documented for tests and for styling):

=============================  ==============================================
``.at-widget``                 the whole widget
``.at-diagram svg.at-graph``   the diagram (one SVG, laid out once)
``g.node#n3``                  node 3 in graph order; its ``<title>`` is the
                               node's name (``MulBackward0``, a tensor name)
``g.edge#e3``                  edge 3; ``.at-edge-grad``/``-output``/... kind
``.at-function`` ...           node kind: ``at-output``, ``at-function``,
                               ``at-accumulate``, ``at-leaf``, ``at-saved``,
                               ``at-constant``, ``at-repeat``, ``at-hidden``
``.at-pending`` / ``.at-done`` state of a node or edge at the current step;
``.at-current``                ``at-current`` marks the node that just ran and
                               the edges it sent gradients along
``.at-selected``               the node shown in the inspector
``text.at-grad``               gradient text, on edges and nodes; hidden
                               while its node or edge is ``at-pending``
``text.at-value``              tensor value text
``.at-play``                   the Play button (ipywidgets.Play)
``.at-step``                   the step slider (ipywidgets.IntSlider, 0..N:
                               the number of engine steps replayed)
``.at-status``                 one line: "step 2 of 5: MulBackward0 ran"
``.at-toggle-values`` etc.     ToggleButtons: values, gradients, saved tensors
``.at-picker``                 the node picker (ipywidgets.Dropdown)
``div.at-inspector``           the inspector; ``data-node`` is the node id
=============================  ==============================================

In a plain Python console ``show(out)`` prints :func:`summary.text_summary`
instead, and ``repr(GraphWidget(...))`` is that text too.
"""
from __future__ import annotations

from html import escape

import sys
import anywidget
import ipywidgets as W
import traitlets

from . import graph as G
from .diagram import Diagram, _as_list, find_steps
from .inspector import inspector_html
from .summary import text_summary

_ESM = """
function render({ model, el }) {
  el.classList.add("at-diagram");
  const apply = () => {
    const classes = model.get("classes");
    for (const g of el.querySelectorAll("g.node, g.edge")) {
      g.classList.remove("at-pending", "at-done", "at-current", "at-selected");
      const extra = classes[g.id];
      if (extra) g.classList.add(...extra.split(" "));
    }
    el.classList.toggle("at-hide-values", !model.get("show_values"));
    el.classList.toggle("at-hide-grads", !model.get("show_grads"));
    el.classList.toggle("at-hide-saved", !model.get("show_saved"));
  };
  const draw = () => { el.innerHTML = model.get("svg"); apply(); };
  el.addEventListener("click", (event) => {
    const g = event.target.closest("g.node");
    if (g && /^n[0-9]+$/.test(g.id)) { model.set("selected", g.id); model.save_changes(); }
  });
  model.on("change:svg", draw);
  for (const name of ["classes", "show_values", "show_grads", "show_saved"]) {
    model.on("change:" + name, apply);
  }
  draw();
}
export default { render };
"""

_CSS = """
.at-diagram { overflow: auto; max-height: 75vh; }
.at-diagram g.node[id^="n"] { cursor: pointer; }
.at-diagram g.at-pending text.at-grad { visibility: hidden; }
.at-diagram g.node.at-pending { opacity: 0.6; }
.at-diagram g.edge.at-pending { opacity: 0.45; }
.at-diagram g.at-current > polygon, .at-diagram g.at-current > ellipse,
.at-diagram g.at-current > path { stroke: #e8590c; stroke-width: 3px; }
.at-diagram g.node.at-selected > polygon, .at-diagram g.node.at-selected > ellipse,
.at-diagram g.node.at-selected > path { stroke: #7048e8; stroke-width: 3px; stroke-dasharray: 5 2; }
.at-diagram.at-hide-values text.at-value { visibility: hidden; }
.at-diagram.at-hide-grads text.at-grad { visibility: hidden; }
.at-diagram.at-hide-saved g.at-saved, .at-diagram.at-hide-saved g.at-edge-saved { display: none; }
.at-inspector pre { margin: 0; font-size: 12px; }
.at-inspector th { text-align: left; vertical-align: top; padding-right: 1em; }
"""


class GraphView(anywidget.AnyWidget):
    """The SVG, restyled from ``classes``; a click sets ``selected``."""
    _esm = _ESM
    _css = _CSS
    svg = traitlets.Unicode("").tag(sync=True)
    classes = traitlets.Dict({}).tag(sync=True)      # element id -> state classes
    selected = traitlets.Unicode("").tag(sync=True)  # node id picked by a click
    show_values = traitlets.Bool(True).tag(sync=True)
    show_grads = traitlets.Bool(True).tag(sync=True)
    show_saved = traitlets.Bool(True).tag(sync=True)


def step_classes(graph, steps, k):
    """Element id -> "at-pending" / "at-done" / "at-current" after the first ``k`` steps."""
    if not steps:
        return {}
    out = {}
    current = steps[k - 1] if k > 0 else None
    done_nodes = {s.node_id for s in steps[:k]}
    sent = G.grads_until(steps, k)
    for n in graph.nodes:
        node_id = n.id
        if n.kind == G.LEAF:   # a leaf follows its AccumulateGrad
            node_id = next((e.src for e in graph.in_edges(n.id) if e.kind == "variable"), None)
        elif n.kind == G.OUTPUT:
            out[n.id] = "at-done" if k > 0 else "at-pending"
            continue
        elif n.kind not in (G.FUNCTION, G.ACCUMULATE, G.REPEAT):
            continue
        if current is not None and current.node_id == node_id:
            out[n.id] = "at-current"
        elif node_id in done_nodes:
            out[n.id] = "at-done"
        else:
            out[n.id] = "at-pending"
    for e in graph.edges:
        if e.kind in ("saved", "constant"):
            continue
        if current is not None and e.id in current.edge_grads:
            out[e.id] = "at-current"
        else:
            out[e.id] = "at-done" if e.id in sent else "at-pending"
    return out


class GraphWidget(W.VBox):
    """Replay the recorded backward of ``outputs`` step by step.

    Takes draw()'s arguments.  ``recording`` is a ``record()`` result or a
    Recording; by default the newest background recording of this graph.
    """

    def __init__(self, outputs, names=None, name=None, *, recording=None, show_constants=False,
                 max_nodes=G.DEFAULT_MAX_NODES, depth=None, engine="pure", interval=900):
        if names is None:   # the caller's variable names, as draw() does
            names = G.caller_names(sys._getframe(1))
        # Saved tensors are always laid out; the toggle only hides them.
        self.graph = G.build_graph(outputs, names=names, name=name, show_constants=show_constants,
                                   show_saved=True, max_nodes=max_nodes, depth=depth)
        self.steps = find_steps(self.graph, _as_list(outputs), recording) or []
        self.diagram = Diagram(self.graph, self.steps or None, engine=engine)
        n = len(self.steps)

        self.view = GraphView(svg=self.diagram.svg())
        self.play = W.Play(value=0, min=0, max=n, step=1, interval=interval, disabled=n == 0)
        self.slider = W.IntSlider(value=0, min=0, max=n, description="step", disabled=n == 0,
                                  continuous_update=True)
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.status = W.HTML()
        self.toggles = {key: W.ToggleButton(value=True, description=label)
                        for key, label in (("values", "values"), ("grads", "gradients"),
                                           ("saved", "saved tensors"))}
        for key, button in self.toggles.items():
            W.link((button, "value"), (self.view, f"show_{key}"))
            button.add_class(f"at-toggle-{key}")
        options = [("(pick a node)", "")] + [(f"{x.name} ({x.id})", x.id) for x in self.graph.nodes]
        self.picker = W.Dropdown(options=options, value="", description="inspect")
        self.inspector = W.HTML()

        for widget, cls in ((self.play, "at-play"), (self.slider, "at-step"),
                            (self.status, "at-status"), (self.picker, "at-picker")):
            widget.add_class(cls)
        self.add_class("at-widget")
        self.slider.observe(lambda change: self._refresh(), "value")
        self.picker.observe(lambda change: self._pick(change["new"]), "value")
        self.view.observe(lambda change: self._pick(change["new"]), "selected")
        super().__init__([W.HBox([self.play, self.slider, self.status]),
                          W.HBox(list(self.toggles.values())), self.view,
                          self.picker, self.inspector])
        self._refresh()

    @property
    def step(self):
        """How many engine steps are replayed (0 .. len(steps))."""
        return self.slider.value

    @step.setter
    def step(self, k):
        self.slider.value = k

    def _pick(self, node_id):
        node_id = node_id or ""
        if self.picker.value != node_id:
            self.picker.value = node_id       # observing picker calls _pick again
            return
        self.view.selected = node_id
        self._refresh()

    def _refresh(self):
        k = self.slider.value
        classes = step_classes(self.graph, self.steps, k)
        if self.picker.value:
            classes[self.picker.value] = (classes.get(self.picker.value, "") + " at-selected").strip()
        self.view.classes = classes
        self.status.value = self._status_text(k)
        self.inspector.value = inspector_html(self.graph, self.steps, k, self.picker.value or None)

    def _status_text(self, k):
        n = len(self.steps)
        if n == 0:
            text = "No backward recorded for this graph yet: run backward(), then show() again."
        elif k == 0:
            text = f"step 0 of {n}: press Play to run backward one node at a time"
        else:
            text = f"step {k} of {n}: {self.steps[k - 1].name} ran"
        return f"<span>{escape(text)}</span>"

    def __repr__(self):
        return text_summary(self.graph, self.steps or None, self.slider.value if self.steps else None)


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(outputs, names=None, name=None, **kwargs):
    """Open the replay widget for ``outputs``; in a plain console, print a text summary."""
    if names is None:
        names = G.caller_names(sys._getframe(1))
    widget = GraphWidget(outputs, names=names, name=name, **kwargs)
    if _in_notebook():
        from IPython.display import display
        display(widget)
    else:  # no frontend to draw in: the whole backward as text
        print(text_summary(widget.graph, widget.steps or None))
