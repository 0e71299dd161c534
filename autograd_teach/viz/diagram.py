"""``draw()`` and the :class:`Diagram` it returns."""
from __future__ import annotations

import os
import re
import sys

from . import arrange, dot, layout, pdf, svg, torch_record
from . import graph as G
from .lang import resolve, t
from .failure import failure_of
from .recording import Recorder, Recording, find_recording, was_dropped
from .recording.store import choose
from .summary import text_summary


PNG_DPI = 96                    # graphviz's resolution for PNG unless told
MAX_PNG_PIXELS = 64_000_000     # about 250 MB of pixels while the engine draws them


class Diagram:
    """A drawn graph: shows as SVG in Jupyter, as text in a console.

    ``.source`` is the DOT text, ``.svg()`` the SVG text, ``.save(path)``
    writes ``.svg``, ``.png``, ``.pdf`` or ``.html`` (the standalone replay:
    step through backward in any browser, no kernel, no network).
    """

    def __init__(self, graph, steps=None, engine="pure", lang=None, why=None, failure=None, **dot_options):
        self.graph = graph
        self.steps = steps
        self.engine = engine
        self.lang = resolve(lang)
        self.why = why                   # lang key: why no gradients are drawn, or None
        self.failure = failure           # a backward that failed (failure.py), or None
        self.source = dot.to_dot(graph, steps, lang=self.lang, why=why, failure=failure, **dot_options)
        self._svg = None

    def svg(self):
        if self._svg is None:
            raw = layout.run(self.source, "svg", self.engine).decode("utf-8")
            self._svg = svg.tidy(raw, titles(self.graph, self.lang))
        return self._svg

    def _repr_svg_(self):
        return self.svg()

    def _repr_mimebundle_(self, include=None, exclude=None):
        # text/html is the picture as an <img>: what an untrusted notebook shows
        # (its sanitizer drops inline SVG); image/svg+xml for the rest.
        from .page import picture
        return {"image/svg+xml": self.svg(), "text/html": picture(self.svg(), self.lang), "text/plain": repr(self)}

    def __repr__(self):
        return text_summary(self.graph, self.steps, why=self.why, failure=self.failure)

    def save(self, path, format=None, dpi=None):
        """Write the diagram to ``path``; the format comes from its suffix (svg, png, pdf, html).
        ``dpi`` is a PNG's resolution: 96 unless given (192 or 300 for a slide)."""
        fmt = (format or os.path.splitext(str(path))[1].lstrip(".")).lower()
        if dpi is not None and fmt != "png":
            raise ValueError(f"dpi= is for .png only: .{fmt} is drawn sharp at any size")
        if fmt == "svg":
            data = self.svg().encode("utf-8")
        elif fmt == "png":
            data = self._png(dpi)
        elif fmt == "pdf":
            data = (layout.run(self.source, "pdf", "system") if self.engine == "system"
                    else pdf.from_layout_json(layout.run(self.source, "json", self.engine)))
        elif fmt == "html":
            data = self.replay_html().encode("utf-8")
        else:
            raise ValueError(f"cannot save as {fmt!r}: use a path ending in .svg, .png, .pdf or .html")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _png(self, dpi=None):
        missing = layout.undrawable_in_png(self.source) if self.engine == "pure" else None
        if missing is not None:
            raise layout.RenderError(
                f"the bundled layout engine's PNG cannot draw {missing!r} (U+{ord(missing):04X}): its font has "
                "no Chinese, Japanese, Korean or emoji, which it would draw as empty boxes: "
                "save as .svg or .pdf instead (both show this text), or pass engine='system' "
                "to draw the PNG with your Graphviz and its fonts")
        self._check_png_size(dpi)
        return layout.run(self.source, "png", self.engine, () if dpi is None else (f"-Gdpi={dpi:g}",))

    def _check_png_size(self, dpi):
        """A PNG's pixels are held in memory as it is drawn: an unrolled loop at
        300 dpi was 183 megapixels and 1.5 GB.  Refuse, saying what to do instead."""
        if dpi is not None and not (isinstance(dpi, (int, float)) and 10 <= dpi <= 1200):
            raise ValueError(f"dpi must be a number from 10 to 1200, not {dpi!r}")
        size = re.search(r'<svg [^>]*width="([\d.]+)pt" height="([\d.]+)pt"', self.svg())
        scale = (dpi or PNG_DPI) / 72
        w, h = (round(float(v) * scale) for v in size.groups())
        if w * h > MAX_PNG_PIXELS:
            raise ValueError(
                f"a PNG of this diagram at {dpi or PNG_DPI} dpi would be {w} x {h} pixels ({w * h / 1e6:.0f} "
                f"megapixels, more than {MAX_PNG_PIXELS // 1_000_000}): save it as .svg or .pdf (sharp at any "
                "size), lower dpi=, or draw less of the graph with max_nodes= or depth=")

    def replay_html(self):
        """The standalone replay page: the diagram, its steps, Play, the inspector (page.py)."""
        from . import page, replay
        title = f"{t('widget.diagram', self.lang)} \u00b7 autograd_teach"
        return page.document(replay.replay_data(self, with_svg=False), self.svg(), title)


def titles(graph, lang):
    """Node id -> the hover title of its SVG group: its name (translated where it is ours)."""
    return {n.id: dot.title(n, lang) for n in graph.nodes}


def find_steps(graph, outputs, recording=None):
    """``(steps, why, failure)``: the gradient steps for ``graph`` from ``recording``,
    else from the newest kept recording; when there are none, ``why`` is a lang
    key saying why (None: backward has not run); ``failure`` tells of a backward
    that failed (failure.py), or is None."""
    roots = [t.grad_fn for t in outputs if getattr(t, "grad_fn", None) is not None]
    if not roots:
        return None, None, None
    if isinstance(recording, Recorder):
        candidates = list(reversed(recording.recordings))
    elif recording is not None:
        candidates = [recording]
    else:
        found = find_recording(roots[0])
        candidates = [found] if found is not None else []
    runs = [rec for rec in candidates if rec.ran(roots[0])]
    if runs:
        rec = choose(runs, roots[0])       # a failed run does not hide the one before it
        return G.grad_steps(graph, rec), None, failure_of(rec)
    if was_dropped(roots[0]):
        return None, "caption.dropped", None
    if backward_ran(graph):
        # PyTorch's nodes are held only while backward's root tensor lives: y.sum() in y.sum().backward() is gone
        torch_run = torch_record.is_torch_node(roots[0])
        return None, "caption.not_recorded_torch" if torch_run else "caption.not_recorded", None
    return None, None, None


def backward_ran(graph):
    """True when a backward has visibly run through this graph: a node freed its
    saved tensors.  (A leaf's .grad says nothing: the leaf may be shared with an
    earlier graph, as in ``x.grad.zero_(); s = (u * x).sum()``.)"""
    return any(n.kind == G.FUNCTION and (getattr(n.fn, "saved_freed", False)
                                         or torch_record.is_torch_node(n.fn) and torch_record.saved_freed(n.fn))
               for n in graph.nodes)


def _as_list(outputs):
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def _is_tensor(value):
    # duck-typed, so that real PyTorch's tensors are tensors too
    return hasattr(value, "grad_fn") and hasattr(value, "requires_grad")


def check_limit(option, value):
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return
    error = ValueError if isinstance(value, int) else TypeError
    raise error(f"draw(): argument '{option}' must be None or an int >= 0, not {value!r}")


def check_arguments(outputs, names, recording):
    """Raise what PyTorch would for a wrong argument, before anything is drawn."""
    if isinstance(outputs, (list, tuple)):
        if not outputs:
            raise ValueError("draw(): argument 'outputs' is an empty list: pass the tensor(s) to draw")
        for i, item in enumerate(outputs):
            if not _is_tensor(item):
                raise TypeError(f"draw(): argument 'outputs' (item {i}) must be a Tensor, not {type(item).__name__}")
    elif not _is_tensor(outputs):
        hint = ": draw what the model returns, viz.draw(model(x))" if hasattr(outputs, "named_parameters") else ""
        raise TypeError("draw(): argument 'outputs' must be a Tensor or a list of Tensors, "
                        f"not {type(outputs).__name__}{hint}")
    if names is not None and not isinstance(names, dict):
        raise TypeError(f"draw(): argument 'names' must be a dict {{label: tensor}}, not {type(names).__name__}")
    if recording is not None and not isinstance(recording, (Recorder, Recording)):
        raise TypeError("draw(): argument 'recording' must be what `with viz.record() as rec:` gave "
                        f"(or one of its rec.recordings), not {type(recording).__name__}")


def draw(outputs, names=None, name=None, *, show_values=True, show_grads=True,
         show_saved=False, show_constants=False, max_nodes=G.DEFAULT_MAX_NODES,
         depth=None, recording=None, legend=True, engine="pure", lang=None):
    """Draw the autograd graph behind ``outputs`` (a tensor or a list of tensors).

    After ``backward()`` the diagram shows the gradient on every edge and at
    every node; before it, it says that no gradient exists yet.
    ``names`` maps labels to tensors; by default tensors are labelled with the
    names of the caller's variables that hold them.
    ``recording`` is a ``record()`` result or a Recording; by default the
    newest backward of this graph recorded in the background is used
    (``viz.autorecord(True)`` switches background recording on).
    ``lang`` is "en" or "zh"; None means the default (``viz.set_lang``).
    """
    check_arguments(outputs, names, recording)
    check_limit("max_nodes", max_nodes)
    check_limit("depth", depth)
    if names is None:   # label tensors by the caller's variable names (names={} for none)
        names = G.caller_names(sys._getframe(1))
    graph = arrange.build_for_drawing(outputs, names=names, name=name, show_constants=show_constants,
                          show_saved=show_saved, max_nodes=max_nodes, depth=depth)
    steps, why, failure = find_steps(graph, _as_list(outputs), recording) if show_grads else (None, None, None)
    return Diagram(graph, steps, engine=engine, lang=lang, why=why, failure=failure, show_values=show_values,
                   show_grads=show_grads, legend=legend)
