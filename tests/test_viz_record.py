"""The backward-step recorder and the background store behind draw(out)."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import engine, viz
from autograd_teach.viz import graph as G
from autograd_teach.viz.record import KEEP, clear, find_recording

viz.autorecord(False)  # importing viz switched it on; only the tests below want it


@pytest.fixture
def autorecording():
    clear()
    viz.autorecord(True)
    yield
    viz.autorecord(False)
    clear()


def square_mean():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return (3 * (x + 2) ** 2).mean(), x


def test_record_block_records_each_backward_in_engine_order():
    out, x = square_mean()
    with viz.record() as rec:
        out.backward()
    out2, _ = square_mean()
    out2.backward()
    assert len(rec.recordings) == 1              # the block is over: nothing more recorded
    assert [G.fn_name(s.fn) for s in rec.steps] == [
        "MeanBackward0", "MulBackward0", "PowBackward0", "AddBackward0", "AccumulateGrad"]
    graph = G.build_graph(out)
    ran = sum(n.kind in (G.FUNCTION, G.ACCUMULATE) for n in graph.nodes)
    assert len(rec.steps) == ran
    np.testing.assert_allclose(rec.steps[-1].leaf_grad, x.grad.numpy())
    assert rec.steps[1].grad_inputs[1] is None   # the constant 3 gets no gradient


def test_a_recorder_watching_records_the_calls_in_the_block_only():
    out, _ = square_mean()
    rec = viz.Recorder()
    with rec.watching():
        out.backward(retain_graph=True)
    out.backward()
    assert len(rec.recordings) == 1 and len(rec.last) == 5


def test_recorded_arrays_are_copies(autorecording):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x * x).sum()
    with viz.record() as rec:
        out.backward(retain_graph=True)
        out.backward()
    first, second = rec.recordings
    np.testing.assert_allclose(first.steps[-1].leaf_grad, [2.0, 4.0])
    np.testing.assert_allclose(second.steps[-1].leaf_grad, [4.0, 8.0])


def test_draw_after_plain_backward_uses_the_background_recording(autorecording):
    out, x = square_mean()
    assert viz.draw(out).steps is None
    out.backward()
    d = viz.draw(out)
    assert len(d.steps) == 5
    assert "backward ran 5 steps" in repr(d)


def test_background_store_keeps_only_the_last_few(autorecording):
    outs = []
    for _ in range(KEEP + 1):
        out, _ = square_mean()
        out.backward()
        outs.append(out)
    assert find_recording(outs[0].grad_fn) is None
    assert all(find_recording(o.grad_fn) is not None for o in outs[1:])


def test_autorecord_off_records_nothing():
    out, _ = square_mean()
    out.backward()
    assert find_recording(out.grad_fn) is None
    assert viz.draw(out).steps is None


def test_topological_order_walk_is_not_stored_as_a_backward(autorecording):
    out, _ = square_mean()
    engine.topological_order([out.grad_fn])
    assert find_recording(out.grad_fn) is None


def test_the_background_recorder_watches_a_create_graph_backward():
    # .grad has history then (requires_grad): the recorder copies its values, not raising
    import autograd_teach as torch
    import importlib
    record = importlib.import_module("autograd_teach.viz.record")   # viz.record is also a function
    was = record.recording_in_background()
    record.autorecord(True)
    try:
        p = torch.tensor([1.0, 2.0], requires_grad=True)
        q = p ** 2
        q.retain_grad()
        (q ** 2).sum().backward(create_graph=True)
        assert q.grad.requires_grad and q.grad.tolist() == [2.0, 8.0]
        assert p.grad.tolist() == [4.0, 32.0]
    finally:
        record.autorecord(was)
