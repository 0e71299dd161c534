"""A backward that fails: observers are told (engine's ``failed(error)``), and
viz never lets a failed run hide the one before it, nor shows a partial run
as if it were whole.  (Real PyTorch's runs: tests/test_viz_torch_failed.py.)"""
import gc
import importlib
import weakref

import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.core import engine
from viz_failure_helpers import SECOND_TIME, caption, two_threads_one_failing
R = importlib.import_module("autograd_teach.viz.recording")


@pytest.fixture
def autorecording():
    R.clear()
    viz.autorecord(True)
    yield
    viz.autorecord(False)
    R.clear()



def square_sum():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return (x * x).sum(), x


class Log:
    """A watcher that says what it was told, in order."""

    def __init__(self, with_failed=True):
        self.events, self.with_failed = [], with_failed

    def begin(self, roots):
        log = self

        class Watcher:
            trace = []

            def end(self):
                log.events.append(("end", len(self.trace)))
        watcher = Watcher()
        watcher.trace = []
        if self.with_failed:
            watcher.failed = lambda error: log.events.append(("failed", type(error).__name__, str(error)))
        return watcher


def test_a_watcher_is_told_a_run_failed_with_the_exception_before_end():
    log, plain = Log(), Log(with_failed=False)
    handles = [engine.add_observer(log.begin), engine.add_observer(plain.begin)]
    try:
        y, _ = square_sum()
        y.backward()
        with pytest.raises(RuntimeError, match="second time") as raised:
            y.backward()
    finally:
        for h in handles:
            h.remove()
    assert log.events[0] == ("end", 3)                       # a run that finished: no failed()
    assert log.events[1] == ("failed", "RuntimeError", str(raised.value))
    assert log.events[2] == ("end", 1)                       # SumBackward0 ran, MulBackward0 raised
    assert plain.events == [("end", 3), ("end", 1)]          # a watcher without failed(): as before


def test_a_second_backward_does_not_hide_the_first(autorecording):
    y, x = square_sum()
    y.backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()
    d = viz.draw(y)
    assert [s.name for s in d.steps] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    lines = caption(d)
    assert lines[0] == "Gradients from one backward pass: 3 steps."
    assert "a later backward() from here failed" in lines[1]
    assert lines[2].startswith(SECOND_TIME)
    assert "retain_graph=True" in " ".join(lines)             # PyTorch's advice, whole
    assert "a later backward() from here failed" in repr(d) and SECOND_TIME in repr(d)
    zh = caption(viz.draw(y, lang="zh"))
    assert "之后从这里再次调用的 backward() 失败了" in zh[1] and zh[2].startswith(SECOND_TIME)


def test_the_widget_says_so_at_the_last_step(autorecording):
    y, _ = square_sum()
    y.backward()
    with pytest.raises(RuntimeError):
        y.backward()
    w = viz.GraphWidget(y)
    w.step = 2
    assert w.status_text() == "step 2 of 3: MulBackward0 ran"
    w.step = 3
    assert w.status_text().startswith("step 3 of 3: AccumulateGrad ran; a later backward() from here failed: "
                                      + SECOND_TIME)
    assert w.data["failed"] in w.status_text()               # what replay.js shows at the last step


def test_a_hook_that_raises_mid_run_shows_the_partial_run_and_where_it_stopped(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: 1 / 0)
    y = (h * h).sum()
    with pytest.raises(ZeroDivisionError):
        y.backward()
    d = viz.draw(y)
    assert [s.name for s in d.steps] == ["SumBackward0", "MulBackward0"]   # MulBackward0 (x * 3) never ran
    assert caption(d)[1:] == ["backward() failed at step 3: only the steps before it are drawn. It raised:",
                              "ZeroDivisionError: division by zero"]
    assert x.grad is None
    zh = caption(viz.draw(y, lang="zh"))
    assert zh[1] == "backward() 在第 3 步失败：只画出了它之前各步的梯度。它报错："
    assert repr(d).splitlines()[-1] == ("backward() failed at step 3: only the steps before it are drawn. "
                                        "It raised: ZeroDivisionError: division by zero")


def test_a_run_that_failed_at_its_first_node_says_so(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.register_hook(lambda g: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        y.backward()
    d = viz.draw(y)
    assert d.steps == [] and caption(d)[1].startswith("backward() failed at step 1")
    w = viz.GraphWidget(y)
    assert w.status_text() == "backward() failed at step 1: ZeroDivisionError: division by zero"
    assert "No backward recorded" not in repr(w)
    assert "backward() failed at step 1" in repr(w).splitlines()[0]


class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("my backward is not written yet")


def test_an_error_in_a_custom_functions_backward_is_named(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (Boom.apply(x) * 3).sum()
    with pytest.raises(ValueError, match="not written yet"):
        y.backward()
    d = viz.draw(y)
    assert [s.name for s in d.steps] == ["SumBackward0", "MulBackward0"]
    assert caption(d)[1:] == ["backward() failed at step 3: only the steps before it are drawn. It raised:",
                              "ValueError: my backward is not written yet"]


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
    assert "failed" not in repr(d) and "failed" not in viz.GraphWidget(y).data


def test_a_record_block_keeps_the_failed_run_and_draws_the_good_one():
    y, _ = square_sum()
    with viz.record() as rec:
        y.backward()
        with pytest.raises(RuntimeError):
            y.backward()
    R.clear()
    good, bad = rec.recordings
    assert good.error is None and bad.error.startswith(SECOND_TIME) and len(bad) == 1
    assert good.later_error == bad.error and repr(bad) == "<Recording: 1 steps, failed>"
    d = viz.draw(y, recording=rec)
    assert len(d.steps) == 3 and "a later backward() from here failed" in caption(d)[1]
    alone = viz.draw(y, recording=bad)                     # asked for: the failed run itself
    assert len(alone.steps) == 1 and caption(alone)[1].startswith("backward() failed at step 2")


def test_a_failed_recording_keeps_no_graph_alive(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: 1 / 0)
    y = (h * h).sum()
    with pytest.raises(ZeroDivisionError):
        y.backward()
    alive = weakref.ref(y.grad_fn)
    assert R.find_recording(y.grad_fn).error == "ZeroDivisionError: division by zero"
    del y, h
    gc.collect()
    assert alive() is None                                 # the error is kept as text, not its traceback


def test_two_threads_one_failing(autorecording):
    two_threads_one_failing(square_sum, rounds=10)



def test_an_error_with_no_message_is_named_by_its_type(autorecording):
    def interrupt(g):
        raise KeyboardInterrupt

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.register_hook(interrupt)
    with pytest.raises(KeyboardInterrupt):
        y.backward()
    assert R.find_recording(y.grad_fn).error == "KeyboardInterrupt"
    assert caption(viz.draw(y))[2] == "KeyboardInterrupt"
