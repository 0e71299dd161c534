"""See the autograd graph: ``draw(out)`` for a diagram, ``show(out)`` for a widget.

``draw(outputs, names=None, name=None, *, show_values=True, show_grads=True,
show_saved=False, show_constants=False, max_nodes=400, depth=None,
recording=None, legend=True, engine="pure") -> Diagram``
    The graph PyTorch would build, with the gradient on every edge once
    backward has run.  A Diagram shows as SVG in Jupyter and as text in a
    console; ``.source`` is its DOT, ``.svg()``, ``.save("g.svg"/".png"/".pdf")``.
``show(outputs, names=None, name=None, **GraphWidget options)``
    Displays a :class:`GraphWidget`: Play / step slider over the recorded
    backward steps, toggles, a node inspector.  DOM hooks: widget.py.
``with record() as rec:`` / ``with Recorder().watching():``
    Record each node the engine runs, in order, with its gradients.

Importing this module switches on a background recorder (``autorecord``,
see record.py) keeping the last few backward calls, so that ``draw(out)``
after a plain ``out.backward()`` shows the gradients.  (``viz.record`` is
the function; the module is ``autograd_teach.viz.record``.)
"""
from .diagram import Diagram, draw
from .layout import RenderError
from .record import Recorder, Recording, autorecord, record

__all__ = ["draw", "show", "GraphWidget", "record", "autorecord", "Diagram",
           "Recorder", "Recording", "RenderError"]


def __getattr__(name):
    # ipywidgets is imported only when the widget is wanted.
    if name in ("show", "GraphWidget"):
        from . import widget
        return getattr(widget, name)
    raise AttributeError(name)


autorecord(True)
