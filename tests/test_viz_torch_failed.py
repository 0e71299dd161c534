"""A real PyTorch backward that fails: torch_record tells the watchers
(``failed(error)`` before ``end()``), and viz draws it as it does our engine's
(tests/test_viz_failed_backward.py)."""
import importlib

import pytest

from viz_failure_helpers import SECOND_TIME, caption, two_threads_one_failing
from viz_torch_helpers import Watching, import_torch

torch = import_torch()
from autograd_teach import viz  # noqa: E402
from autograd_teach.viz import torch_record  # noqa: E402
R = importlib.import_module("autograd_teach.viz.recording")


@pytest.fixture
def autorecording():
    R.clear()
    viz.autorecord(True)
    yield
    viz.autorecord(False)
    R.clear()
    assert torch_record._hooked == {}



def square_sum():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return (x * x).sum(), x


def test_torch_record_tells_a_watcher_the_run_failed_before_end():
    events = []

    def begin(roots):
        class Watcher:
            def step(self, node, grad_outputs, grad_inputs):
                events.append(("step", node.name()))

            def failed(self, error):
                events.append(("failed", type(error).__name__))

            def end(self):
                events.append(("end",))
        return Watcher()

    handle = Watching(begin)
    try:
        y, _ = square_sum()
        y.backward()
        del events[:]
        with pytest.raises(RuntimeError, match="second time"):
            y.backward()
    finally:
        handle.remove()
    assert events == [("step", "SumBackward0"), ("failed", "RuntimeError"), ("end",)]


def test_a_second_backward_does_not_hide_the_first(autorecording):
    y, x = square_sum()
    y.backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()
    d = viz.draw(y)
    assert [s.name for s in d.steps] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    lines = caption(d)
    assert "a later backward() from here failed" in lines[1] and lines[2].startswith(SECOND_TIME)
    zh = caption(viz.draw(y, lang="zh"))
    assert "之后从这里再次调用的 backward() 失败了" in zh[1]


def test_a_hook_that_raises_mid_run(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: 1 / 0)
    y = (h * h).sum()
    with pytest.raises(ZeroDivisionError):
        y.backward()
    d = viz.draw(y)
    assert [s.name for s in d.steps] == ["SumBackward0", "MulBackward0"]
    assert caption(d)[1:] == ["backward() failed at step 3: only the steps before it are drawn. It raised:",
                              "ZeroDivisionError: division by zero"]


class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("my backward is not written yet")


def test_an_error_in_a_custom_functions_backward(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (Boom.apply(x) * 3).sum()
    with pytest.raises(ValueError, match="not written yet"):
        y.backward()
    d = viz.draw(y)
    assert [s.name for s in d.steps] == ["SumBackward0", "MulBackward0"]
    assert caption(d)[2] == "ValueError: my backward is not written yet"


def test_a_run_that_finishes_after_a_failed_one_is_shown_normally(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    handle = h.register_hook(lambda g: 1 / 0)
    y = (h * h).sum()
    with pytest.raises(ZeroDivisionError):
        y.backward(retain_graph=True)
    handle.remove()
    y.backward()
    d = viz.draw(y)
    assert len(d.steps) == 4 and caption(d) == ["Gradients from one backward pass: 4 steps."]


def test_two_threads_one_failing(autorecording):
    two_threads_one_failing(square_sum, rounds=5)
