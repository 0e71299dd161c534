"""See the autograd graph: ``draw(out)`` for a diagram, ``show(out)`` for a widget.

``draw(outputs, names=None, name=None, *, show_values=True, show_grads=True,
show_saved=False, show_constants=False, max_nodes=400, depth=None,
recording=None, legend=True, engine="pure", lang=None) -> Diagram``
    The graph PyTorch would build, with the gradient on every edge once
    backward has run.  A Diagram shows as SVG in Jupyter and as text in a
    console; ``.source`` is its DOT, ``.svg()``, ``.save("g.svg"/".png"/".pdf")``
    (``.save("g.png", dpi=192)`` for a slide; a PNG cannot show Chinese: save
    .svg or .pdf), and ``.save("replay.html")``: the replay as one self-contained page.
``show(outputs, names=None, name=None, lang=None, **GraphWidget options)``
    Displays a :class:`GraphWidget`: Play / step slider over the recorded
    backward steps, toggles, zoom, a node inspector with the chain rule of
    each step.  DOM hooks: widget.py.
``autorecord(True)`` / ``autorecord(False)``
    Switch background recording of backward on / off, so that ``draw(out)``
    after a plain ``out.backward()`` shows the gradients.  Off until called.
``with record() as rec:``
    Record each backward run in the block (``rec.recordings``, ``rec.last``).
``set_lang("zh")`` / ``set_lang("en")``
    The default language of every diagram and widget (``lang=None``).

Importing this module changes nothing global: recording and the language
are switched by the calls above.  (``viz.record`` is the function; the
module is ``autograd_teach.viz.recording``.)
"""
from .diagram import Diagram, draw
from .lang import get_lang, set_lang
from .layout import RenderError
from .recording import Recorder, Recording, autorecord, autorecording, record

__all__ = ["draw", "show", "GraphWidget", "record", "autorecord", "autorecording", "Diagram",
           "Recorder", "Recording", "RenderError", "set_lang", "get_lang"]


def __getattr__(name):
    # ipywidgets is imported only when the widget is wanted.
    if name in ("show", "GraphWidget"):
        from . import widget
        return getattr(widget, name)
    raise AttributeError(name)
