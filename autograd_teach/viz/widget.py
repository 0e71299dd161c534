"""``show(out)`` / ``GraphWidget(out)``: replay backward one node at a time.

The widget is a view of ``draw()``'s :class:`Diagram`: the diagram is laid out
once, with every gradient label already in place, and a step only changes CSS
classes, so nodes never move.  Its front-end is one ES module,
``frontend/replay.js`` (with ``replay.css``), the same file the standalone
replay and the static site run: the model's ``data`` (``replay.replay_data``)
holds everything every step shows, so the browser needs no kernel to step.
The state is a handful of model keys (``step``, ``selected``, ``zoom``,
``follow``, ``show_values``/``_grads``/``_saved``): Python can set them, the
browser sets them too.

DOM / CSS hooks (stable, documented for tests and for styling):

=============================  ==============================================
``.at-widget``                 the whole replay (widget, file or site); ``lang``
``.at-diagram svg.at-graph``   the diagram (one SVG, laid out once)
``g.node#n3``                  node 3 in graph order; its ``<title>`` is the
                               node's name (``MulBackward0``, a tensor name)
``g.edge#e3``                  edge 3; ``.at-edge-grad``/``-output``/... kind
``.at-function`` ...           node kind: ``at-output``, ``at-function``,
                               ``at-accumulate``, ``at-leaf``, ``at-saved``,
                               ``at-constant``, ``at-repeat``, ``at-hidden``
``.at-pending`` / ``.at-done`` state of a node or edge at the current step;
``.at-current``                ``at-current`` marks the node that just ran and
                               the edges it sent gradients along (an orange
                               outline)
``.at-selected``               the node shown in the inspector (a violet halo:
                               the current-step outline stays visible)
``text.at-grad``               gradient text, on edges and nodes; hidden
                               while its node or edge is ``at-pending``
``text.at-value``              tensor value text
``.at-play``                   Play / Pause (``aria-pressed`` while playing)
``.at-stop`` / ``.at-repeat``  back to step 0 / start again after the end
``.at-prev`` / ``.at-next``    one step back / forward
``input.at-step``              the step slider (0..N: the number of engine
                               steps replayed)
``.at-status``                 one line: "step 2 of 5: MulBackward0 ran"
``.at-toggle-values`` etc.     toggles: values, gradients, saved tensors
                               (``aria-pressed``)
``select.at-picker``           the node picker
``.at-side``                   the inspector's column, shown once a node is
                               picked (``.at-widget.at-picked``); ``.at-close``
``div.at-inspector``           the inspector; ``data-node`` is the node id;
                               ``pre.at-rule`` a chain rule
``.at-pane``                   the diagram's scrolling pane (pan here)
``.at-caption svg.at-footer``  the caption and legend, outside the pane
``.at-fit`` / ``.at-zoom-in`` /  fit to the width (at most 100%), zoom one step from the
``.at-zoom-out``               current scale; ``.at-diagram[data-scale]`` the
                               scale (1: the size ``draw()`` shows)
``.at-follow``                 toggle: keep the node that just ran in view
``g.node.at-ref``              a shared node drawn again near a far-away use
``.at-stale-note``             shown when the widget's kernel is gone
                               (``.at-widget.at-stale``; every control is
                               then disabled)
``.at-replay``                 a replay in HTML (file, site, a stored
                               notebook); ``img.at-fallback`` its picture
=============================  ==============================================

Every control has its own label, title and ``aria-label``.  The replay opens
at a readable scale: fitted to the width when its smallest text stays at
least 10 px, else at 100% following the step (at step 0, the output).

In a plain Python console ``show(out)`` prints :func:`summary.text_summary`
instead, and ``repr(GraphWidget(...))`` is that text too.
"""
from __future__ import annotations

import sys
from html import escape

import anywidget
import traitlets

from . import graph as G
from . import page
from .diagram import Diagram, draw
from .inspector import inspector_html
from .lang import t
from .replay import empty_status, replay_data
from .summary import text_summary


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



class Control:
    """One control as Python sees it: its words (the ones replay.js shows) and
    the model key it reads and writes, or the action it runs.  ``w.play``,
    ``w.slider``, ``w.toggles["grads"]``, ``w.fit`` ... are these."""

    def __init__(self, widget, key, trait=None, action=None, steps=False):
        self._widget, self._key, self._trait, self._action, self._steps = widget, key, trait, action, steps

    description = property(lambda self: t(self._key, self._widget.lang))
    tooltip = property(lambda self: t(self._key + ".title", self._widget.lang))
    min = property(lambda self: 0)
    max = property(lambda self: self._widget.n_steps)
    disabled = property(lambda self: self._steps and self._widget.n_steps == 0)
    icon = property(lambda self: "check" if self.value else "")
    options = property(lambda self: self._widget.options)     # the picker's (label, node id) pairs

    @property
    def value(self):
        return getattr(self._widget, self._trait)

    @value.setter
    def value(self, v):
        setattr(self._widget, self._trait, v)

    def click(self):
        self._action()


class Shown:
    """A read-only piece of what the widget shows now (``.value``: HTML)."""

    def __init__(self, read):
        self._read = read

    @property
    def value(self):
        return self._read()


class GraphWidget(anywidget.AnyWidget):
    """Replay the recorded backward of ``outputs`` step by step.

    Takes draw()'s arguments (or a :class:`Diagram` from draw(): then nothing
    is drawn again).  ``recording`` is a ``record()`` result or a Recording;
    by default the newest background recording of this graph
    (``viz.autorecord(True)``).  ``lang`` is "en" or "zh" (None: the default).
    ``.save("replay.html")`` writes the standalone replay.
    """
    _esm = page.asset("replay.js")
    _css = page.asset("replay.css")
    data = traitlets.Dict({}).tag(sync=True)        # replay.replay_data: every step, prepared
    step = traitlets.Int(0).tag(sync=True)          # how many engine steps are replayed (0 .. n_steps)
    selected = traitlets.Unicode("").tag(sync=True)  # the node in the inspector ("": none)
    zoom = traitlets.Float(0.0).tag(sync=True)      # 0: open readable; -1: fit the width; else the scale
    follow = traitlets.Bool(True).tag(sync=True)    # keep the node that just ran in view
    show_values = traitlets.Bool(True).tag(sync=True)
    show_grads = traitlets.Bool(True).tag(sync=True)
    show_saved = traitlets.Bool(True).tag(sync=True)

    def __init__(self, outputs, names=None, name=None, *, recording=None, show_constants=False,
                 max_nodes=G.DEFAULT_MAX_NODES, depth=None, engine="pure", interval=900, lang=None):
        if isinstance(outputs, Diagram):
            diagram = outputs
        else:
            if names is None:   # the caller's variable names, as draw() does
                names = G.caller_names(sys._getframe(1))
            # Saved tensors are always laid out; the toggle only hides them.
            diagram = draw(outputs, names=names, name=name, show_saved=True, show_constants=show_constants,
                           max_nodes=max_nodes, depth=depth, recording=recording, engine=engine, lang=lang)
        self.diagram, self.graph, self.lang, self.why = diagram, diagram.graph, diagram.lang, diagram.why
        self.steps = diagram.steps or []
        self.interval = interval
        super().__init__(data=replay_data(diagram, interval))
        self.play = Control(self, "widget.play", "step", steps=True)
        self.slider = Control(self, "widget.step", "step", steps=True)
        self.toggles = {key: Control(self, f"widget.{key}", f"show_{key}") for key in ("values", "grads", "saved")}
        self.fit = Control(self, "widget.fit", action=lambda: setattr(self, "zoom", -1.0))
        self.zoom_in = Control(self, "widget.zoom_in", action=lambda: self._zoom(+1))
        self.zoom_out = Control(self, "widget.zoom_out", action=lambda: self._zoom(-1))
        self.picker = Control(self, "widget.inspect", "selected")
        self.status = Shown(lambda: f"<span>{escape(self.status_text())}</span>")
        self.inspector = Shown(lambda: inspector_html(self.graph, self.steps, self.step, self.selected or None,
                                                      self.lang))

    n_steps = property(lambda self: len(self.steps))
    view = property(lambda self: self)          # the diagram's state lives on the widget itself
    svg = property(lambda self: self.data["svg"])
    aliases = property(lambda self: self.data["aliases"])
    options = property(lambda self: [(t("widget.pick", self.lang), "")]
                       + [(f"{label} ({i})", i) for i, label in self.data["nodes"]])

    @traitlets.validate("step")
    def _valid_step(self, proposal):
        return max(0, min(self.n_steps, int(proposal["value"])))

    @traitlets.validate("selected")
    def _valid_node(self, proposal):
        node_id = self.aliases.get(proposal["value"], proposal["value"])   # a copy picks its node
        if node_id and node_id not in {i for i, _ in self.data["nodes"]}:
            raise traitlets.TraitError(f"no node {node_id!r} in this graph")
        return node_id

    @property
    def classes(self):
        """Element id -> its classes at the current step (what replay.js applies)."""
        classes = step_classes(self.graph, self.steps, self.step)
        if self.selected:
            classes[self.selected] = (classes.get(self.selected, "") + " at-selected").strip()
        return classes

    def _zoom(self, direction):
        now = self.zoom if self.zoom > 0 else 1.0
        bigger = [z for z in ZOOMS if z > now + 1e-9]
        smaller = [z for z in ZOOMS if z < now - 1e-9]
        self.zoom = (bigger[0] if bigger else ZOOMS[-1]) if direction > 0 else (smaller[-1] if smaller else ZOOMS[0])

    def status_text(self):
        n, k, failed = self.n_steps, self.step, self.data.get("failed")
        if n == 0:
            return failed or t(empty_status(self.diagram), self.lang)
        if k == 0:
            return t("widget.step0", self.lang, n=n)
        text = t("widget.stepk", self.lang, k=k, n=n, name=self.steps[k - 1].name)
        return f"{text}; {failed}" if failed and k == n else text      # replay.js says the same

    def html(self):
        """The replay as HTML to embed: the picture, and the replay where scripts run."""
        data = {key: value for key, value in self.data.items() if key != "svg"}   # the picture holds the SVG
        return page.fragment(data, self.diagram.svg())

    def save(self, path):
        """Write the standalone replay (one HTML file, no kernel, no network) to ``path``."""
        return self.diagram.save(path, format="html")

    def _repr_mimebundle_(self, **kwargs):
        # The widget where a kernel runs it; the replay in HTML where it does not
        # (JupyterLab picks that for an untrusted or a stored notebook, and nbconvert).
        bundle = super()._repr_mimebundle_(**kwargs)     # (data, metadata)
        if bundle is not None:
            bundle[0]["text/html"] = self.html()
        return bundle

    def __repr__(self):
        return text_summary(self.graph, self.steps or None, self.step if self.steps else None, why=self.why,
                            failure=self.diagram.failure)


ZOOMS = (0.25, 0.33, 0.5, 0.67, 0.8, 0.9, 1.0, 1.25, 1.5, 2.0)   # as replay.js's


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
        display(widget)
    else:  # no frontend to draw in: the whole backward as text
        print(text_summary(widget.graph, widget.steps or None, why=widget.why, failure=widget.diagram.failure))
