"""A teacher's PyTorch code as written: ``y.sum().backward()`` then ``viz.draw(y)``.

PyTorch's nodes take no weak references, so a recording holds them only while
the tensor backward started from lives (viz/recording/holding.py): the
temporary ``y.sum()`` is gone at once, and with it the recording.  The
diagram said "not recorded: call viz.autorecord(True)", which was already on;
it now says what to do that works."""
import pytest

from viz_torch_helpers import import_torch

torch = import_torch()
from autograd_teach import viz  # noqa: E402


@pytest.fixture
def autorecording():
    viz.autorecord(True)
    yield
    viz.autorecord(False)


def test_backward_from_a_temporary_says_to_keep_it(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.sum().backward()
    d = viz.draw(y)
    assert d.steps is None and d.why == "caption.not_recorded_torch"
    words = d.source
    assert "keep the tensor backward starts from in a variable" in words and "s = y.sum(); s.backward()" in words
    assert "kept" in repr(d).splitlines()[0]
    assert "keep the tensor backward starts from in a variable" in viz.GraphWidget(y).status_text()


def test_the_advice_works(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    s = y.sum()
    s.backward()
    d = viz.draw(y)
    assert [step.name for step in d.steps] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
