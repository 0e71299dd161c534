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
``div.at-inspector``           the inspector, beside the diagram; ``data-node``
                               is the node id; ``pre.at-rule`` a chain rule
``.at-pane``                   the diagram's scrolling pane (pan here)
``.at-fit`` / ``.at-zoom-in`` /  fit to the notebook's width (the default),
``.at-zoom-out``               zoom; ``.at-diagram[data-scale]`` the scale
``.at-follow``                 ToggleButton: keep the node that just ran in view
``g.node.at-ref``              a shared node drawn again near a far-away use
``.at-stale-note``             shown when the widget's kernel is gone (the
                               widget gets ``jupyter-widgets-disconnected``)
``.at-fallback``               the static diagram show() displays first: what
                               a notebook shows before its kernel runs
=============================  ==============================================

Every control has a tooltip (its title) and toggles show a check mark when on.

In a plain Python console ``show(out)`` prints :func:`summary.text_summary`
instead, and ``repr(GraphWidget(...))`` is that text too.
"""
from __future__ import annotations

from html import escape

import sys
import anywidget
import ipywidgets as W
import traitlets

from . import arrange
from . import graph as G
from .diagram import Diagram, _as_list, find_steps
from .dot import title
from .inspector import inspector_html
from .lang import resolve, t
from .summary import text_summary

_ESM = """
function render({ model, el }) {
  el.classList.add("at-diagram");
  const pane = document.createElement("div");       // scrolls: the learner pans here
  pane.className = "at-pane";
  el.appendChild(pane);
  const svg = () => pane.querySelector("svg.at-graph");
  let natural = null;                               // the SVG's own size, in px
  const scale = () => {
    const s = svg();
    if (!s || !natural) return;
    const zoom = model.get("zoom");                 // 0: fit the width of the notebook
    const k = zoom > 0 ? zoom : Math.min(1, Math.max(0.2, (pane.clientWidth - 4) / natural[0]));
    s.style.width = (natural[0] * k) + "px";
    s.style.height = (natural[1] * k) + "px";
    el.dataset.scale = k.toFixed(3);
  };
  const follow = () => {                            // keep the node that just ran in view
    if (!model.get("follow")) return;
    const g = pane.querySelector("g.node.at-current");
    if (!g) return;
    const box = g.getBoundingClientRect(), view = pane.getBoundingClientRect();
    if (box.top < view.top || box.bottom > view.bottom || box.left < view.left || box.right > view.right) {
      pane.scrollTop += (box.top + box.bottom) / 2 - (view.top + view.bottom) / 2;
      pane.scrollLeft += (box.left + box.right) / 2 - (view.left + view.right) / 2;
    }
  };
  const apply = () => {
    const classes = model.get("classes");
    for (const g of pane.querySelectorAll("g.node, g.edge")) {
      g.classList.remove("at-pending", "at-done", "at-current", "at-selected");
      const extra = classes[g.id];
      if (extra) g.classList.add(...extra.split(" "));
    }
    el.classList.toggle("at-hide-values", !model.get("show_values"));
    el.classList.toggle("at-hide-grads", !model.get("show_grads"));
    el.classList.toggle("at-hide-saved", !model.get("show_saved"));
    follow();
  };
  const draw = () => {
    pane.innerHTML = model.get("svg");
    const s = svg();
    natural = s ? [parseFloat(s.getAttribute("width")), parseFloat(s.getAttribute("height"))] : null;
    if (s) s.removeAttribute("width"), s.removeAttribute("height");
    scale(); apply();
  };
  pane.addEventListener("click", (event) => {
    const g = event.target.closest("g.node");
    if (!g) return;
    const id = (model.get("aliases") || {})[g.id] || g.id;   // a copy of a shared node picks the node
    if (/^n[0-9]+$/.test(id)) { model.set("selected", id); model.save_changes(); }
  });
  model.on("change:svg", draw);
  model.on("change:zoom", () => { scale(); follow(); });
  for (const name of ["classes", "show_values", "show_grads", "show_saved", "follow"]) {
    model.on("change:" + name, apply);
  }
  const resized = new ResizeObserver(() => { if (model.get("zoom") === 0) scale(); });
  resized.observe(pane);
  draw();
  return () => resized.disconnect();
}
export default { render };
"""

_CSS = """
.at-diagram .at-pane { overflow: auto; max-height: 70vh; border: 1px solid #e0e0e0; }
.at-diagram svg.at-graph { display: block; }
.at-diagram g.node[id^="n"], .at-diagram g.node[id^="r"] { cursor: pointer; }
.at-diagram g.at-pending text.at-grad, .at-diagram g.at-pending text.at-freed { visibility: hidden; }
.at-diagram g.node.at-pending { opacity: 0.6; }
.at-diagram g.edge.at-pending { opacity: 0.45; }
.at-diagram g.at-current > polygon, .at-diagram g.at-current > ellipse,
.at-diagram g.at-current > path { stroke: #e8590c; stroke-width: 3px; }
.at-diagram g.node.at-selected > polygon, .at-diagram g.node.at-selected > ellipse,
.at-diagram g.node.at-selected > path { stroke: #7048e8; stroke-width: 3px; stroke-dasharray: 5 2; }
.at-diagram.at-hide-values text.at-value { visibility: hidden; }
.at-diagram.at-hide-grads text.at-grad { visibility: hidden; }
.at-diagram.at-hide-saved g.at-saved, .at-diagram.at-hide-saved g.at-edge-saved { display: none; }
.at-widget .at-main { align-items: flex-start; }
.at-widget .at-side { max-height: 70vh; overflow: auto; }
.at-inspector pre { margin: 0; font-size: 12px; white-space: pre-wrap; }
.at-inspector th { text-align: left; vertical-align: top; padding-right: 1em; max-width: 12em; font-weight: 600; }
.at-inspector .at-rule { font-family: monospace; }
.at-widget .widget-toggle-button.mod-active { box-shadow: inset 0 0 0 2px #1f3a60; font-weight: bold; }
.at-widget .at-stale-note { display: none; }
.at-widget.jupyter-widgets-disconnected .at-stale-note { display: block; background: #fff3bf;
  border: 1px solid #e8590c; padding: 4px 8px; font-weight: bold; }
.at-widget.jupyter-widgets-disconnected .at-diagram, .at-widget.jupyter-widgets-disconnected .at-side { opacity: 0.5; }
.jp-OutputArea-child:has(.at-fallback):has(+ .jp-OutputArea-child .at-widget) { display: none; }
"""


class GraphView(anywidget.AnyWidget):
    """The SVG, restyled from ``classes``; a click sets ``selected``."""
    _esm = _ESM
    _css = _CSS
    svg = traitlets.Unicode("").tag(sync=True)
    classes = traitlets.Dict({}).tag(sync=True)      # element id -> state classes
    aliases = traitlets.Dict({}).tag(sync=True)      # copy id (r3) -> the node it stands for (n5)
    selected = traitlets.Unicode("").tag(sync=True)  # node id picked by a click
    zoom = traitlets.Float(0.0).tag(sync=True)       # 0: fit the width; else the scale (1 = 100%)
    follow = traitlets.Bool(True).tag(sync=True)     # scroll the node that just ran into view
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
        elif n.kind == G.REF:  # a copy follows the node it stands for
            node_id = n.ref
        elif n.kind == G.OUTPUT:
            out[n.id] = "at-done" if k > 0 else "at-pending"
            continue
        elif n.kind not in (G.FUNCTION, G.ACCUMULATE, G.REPEAT):
            continue
        if current is not None and current.node_id == node_id and n.kind != G.REF:
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


ZOOMS = (0.25, 0.33, 0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0)


class GraphWidget(W.VBox):
    """Replay the recorded backward of ``outputs`` step by step.

    Takes draw()'s arguments.  ``recording`` is a ``record()`` result or a
    Recording; by default the newest background recording of this graph
    (``viz.autorecord(True)``).  ``lang`` is "en" or "zh" (None: the default).
    """

    def __init__(self, outputs, names=None, name=None, *, recording=None, show_constants=False,
                 max_nodes=G.DEFAULT_MAX_NODES, depth=None, engine="pure", interval=900, lang=None):
        if names is None:   # the caller's variable names, as draw() does
            names = G.caller_names(sys._getframe(1))
        self.lang = lang = resolve(lang)
        # Saved tensors are always laid out; the toggle only hides them.
        self.graph = arrange.build_for_drawing(outputs, names=names, name=name, show_constants=show_constants,
                                   show_saved=True, max_nodes=max_nodes, depth=depth)
        steps, self.why = find_steps(self.graph, _as_list(outputs), recording)
        self.steps = steps or []
        self.diagram = Diagram(self.graph, self.steps or None, engine=engine, lang=lang, why=self.why)
        n = len(self.steps)

        aliases = {x.id: x.ref for x in self.graph.nodes if x.kind == G.REF}
        self.view = GraphView(svg=self.diagram.svg(), aliases=aliases)
        self.play = W.Play(value=0, min=0, max=n, step=1, interval=interval, disabled=n == 0,
                           tooltip=t("widget.play", lang))
        self.slider = W.IntSlider(value=0, min=0, max=n, description=t("widget.step", lang),
                                  disabled=n == 0, continuous_update=True)
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.status = W.HTML()
        self.toggles = {}
        for key in ("values", "grads", "saved"):
            button = W.ToggleButton(value=True, description=t(f"widget.{key}", lang),
                                    tooltip=t(f"widget.{key}.title", lang), icon="check")
            W.link((button, "value"), (self.view, f"show_{key}"))
            button.observe(lambda change, b=button: setattr(b, "icon", "check" if change["new"] else ""), "value")
            button.add_class(f"at-toggle-{key}")
            self.toggles[key] = button
        self.fit = W.Button(description=t("widget.fit", lang), tooltip=t("widget.fit.title", lang),
                            icon="arrows-alt-h")
        self.zoom_in = W.Button(description="+", tooltip=t("widget.zoom_in", lang))
        self.zoom_out = W.Button(description="\u2212", tooltip=t("widget.zoom_out", lang))
        self.follow = W.ToggleButton(value=True, description=t("widget.follow", lang),
                                     tooltip=t("widget.follow.title", lang), icon="check")
        W.link((self.follow, "value"), (self.view, "follow"))
        self.follow.observe(lambda change: setattr(self.follow, "icon", "check" if change["new"] else ""), "value")
        self.fit.on_click(lambda _: setattr(self.view, "zoom", 0.0))
        self.zoom_in.on_click(lambda _: self._zoom(+1))
        self.zoom_out.on_click(lambda _: self._zoom(-1))
        for button in (self.fit, self.zoom_in, self.zoom_out):
            button.layout.width = "auto"
        # "constant", "leaf0", "3 more nodes" in the widget's language
        options = [(t("widget.pick", lang), "")] + [(f"{title(x, lang)} ({x.id})", x.id) for x in self.graph.nodes
                                                     if x.kind != G.REF]
        self.picker = W.Dropdown(options=options, value="", description=t("widget.inspect", lang))
        self.inspector = W.HTML()
        self.stale = W.HTML(f"<span>{escape(t('widget.stale', lang))}</span>")

        for widget, cls in ((self.play, "at-play"), (self.slider, "at-step"), (self.status, "at-status"),
                            (self.picker, "at-picker"), (self.fit, "at-fit"), (self.zoom_in, "at-zoom-in"),
                            (self.zoom_out, "at-zoom-out"), (self.follow, "at-follow"),
                            (self.stale, "at-stale-note")):
            widget.add_class(cls)
        self.add_class("at-widget")
        self.slider.observe(lambda change: self._refresh(), "value")
        self.picker.observe(lambda change: self._pick(change["new"]), "value")
        self.view.observe(lambda change: self._pick(change["new"]), "selected")
        self.view.layout.flex = "1 1 0%"
        self.view.layout.min_width = "0"
        side = W.VBox([self.picker, self.inspector], layout=W.Layout(flex="1 1 0%", min_width="16em"))
        side.add_class("at-side")
        main = W.HBox([self.view, side], layout=W.Layout(width="100%"))
        main.add_class("at-main")
        super().__init__([self.stale, W.HBox([self.play, self.slider, self.status]),
                          W.HBox([*self.toggles.values(), self.follow, self.fit, self.zoom_out, self.zoom_in]),
                          main])
        self._refresh()

    @property
    def step(self):
        """How many engine steps are replayed (0 .. len(steps))."""
        return self.slider.value

    @step.setter
    def step(self, k):
        self.slider.value = k

    def _zoom(self, direction):
        now = self.view.zoom or 1.0
        bigger = [z for z in ZOOMS if z > now + 1e-9]
        smaller = [z for z in ZOOMS if z < now - 1e-9]
        if direction > 0:
            self.view.zoom = bigger[0] if bigger else ZOOMS[-1]
        else:
            self.view.zoom = smaller[-1] if smaller else ZOOMS[0]

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
        self.inspector.value = inspector_html(self.graph, self.steps, k, self.picker.value or None, self.lang)

    def _status_text(self, k):
        n = len(self.steps)
        if n == 0:
            text = t("widget.not_recorded" if self.why else "widget.no_backward", self.lang)
        elif k == 0:
            text = t("widget.step0", self.lang, n=n)
        else:
            text = t("widget.stepk", self.lang, k=k, n=n, name=self.steps[k - 1].name)
        return f"<span>{escape(text)}</span>"

    def fallback(self):
        """What a notebook shows before its kernel runs: the static diagram, as HTML."""
        return {"text/html": f'<div class="at-fallback">{self.diagram.svg()}</div>'}

    def __repr__(self):
        return text_summary(self.graph, self.steps or None, self.slider.value if self.steps else None,
                            why=self.why)


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(outputs, names=None, name=None, lang=None, **kwargs):
    """Open the replay widget for ``outputs``; in a plain console, print a text summary."""
    if names is None:
        names = G.caller_names(sys._getframe(1))
    widget = GraphWidget(outputs, names=names, name=name, lang=lang, **kwargs)
    if _in_notebook():
        from IPython.display import display
        # The static diagram first: a notebook opened without a kernel shows it
        # (the widget's CSS hides it once the widget itself is drawn).
        display(widget.fallback(), raw=True)
        display(widget)
    else:  # no frontend to draw in: the whole backward as text
        print(text_summary(widget.graph, widget.steps or None, why=widget.why))
