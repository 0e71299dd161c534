"""See the autograd graph: ``draw(out)`` for a diagram, ``show(out)`` for a widget.

Importing this module switches on a background recorder (see record.py) so
that ``draw(out)`` after ``out.backward()`` shows the gradients.
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
