"""The backward-step recorder: off on import, through engine.add_observer, weak, bounded, thread-safe."""
import gc
import importlib
import subprocess
import sys
import threading
import weakref

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.core import engine
from autograd_teach import viz
from autograd_teach.viz import graph as G
R = importlib.import_module("autograd_teach.viz.recording")   # viz.record is the function


@pytest.fixture
def autorecording():
    R.clear()
    viz.autorecord(True)
    yield
    viz.autorecord(False)
    R.clear()


def square_mean():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return (3 * (x + 2) ** 2).mean(), x


def test_importing_viz_switches_nothing_on():
    code = ("import autograd_teach.core.engine as e; n = len(e._observers)\n"
            "import autograd_teach.viz as viz\n"
            "assert len(e._observers) == n == 0, e._observers\n"
            "assert not viz.autorecording() and viz.get_lang() == 'en'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_autorecord_subscribes_through_add_observer_and_unsubscribes():
    before = len(engine._observers)
    viz.autorecord(True)
    viz.autorecord(True)                  # twice is still one subscription
    assert len(engine._observers) == before + 1 and viz.autorecording()
    viz.autorecord(False)
    assert len(engine._observers) == before and not viz.autorecording()


def test_record_block_records_each_backward_in_engine_order():
    out, x = square_mean()
    with viz.record() as rec:
        out.backward()
    assert len(engine._observers) == 0           # unsubscribed on exit
    assert [G.fn_name(s.fn) for s in rec.steps] == [
        "MeanBackward0", "MulBackward0", "PowBackward0", "AddBackward0", "AccumulateGrad"]
    np.testing.assert_allclose(rec.steps[-1].leaf_grad, x.grad.numpy())
    assert rec.steps[1].grad_inputs[1] is None   # the constant 3 gets no gradient


def test_recorded_arrays_are_copies():
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


def test_draw_still_shows_gradients_after_many_later_backward_calls(autorecording):
    out, x = square_mean()
    out.backward()
    others = []
    for _ in range(20):                   # other graphs' backward calls, kept alive
        o, _ = square_mean()
        o.backward()
        others.append(o)
    assert len(viz.draw(out).steps) == 5


def test_a_recording_keeps_no_graph_alive(autorecording):
    out, x = square_mean()
    out.backward()
    node = weakref.ref(out.grad_fn)
    assert R.find_recording(out.grad_fn) is not None
    del out
    gc.collect()
    assert node() is None                 # the recording held it only weakly


def test_large_gradients_are_kept_as_summaries():
    x = torch.ones(R.FULL_VALUES + 1, requires_grad=True)
    with viz.record() as rec:
        (x * 2).sum().backward()
    mul = rec.steps[1]
    assert isinstance(mul.grad_inputs[0], R.Summary)
    assert mul.grad_inputs[0].shape == (R.FULL_VALUES + 1,) and mul.grad_inputs[0].max == 2.0
    out = (x * 2).sum()
    with viz.record() as rec2:
        out.backward()
    assert f"shape ({R.FULL_VALUES + 1},), norm" in viz.draw(out, recording=rec2).source
    small = torch.ones(3, requires_grad=True)
    with viz.record() as rec:
        (small * 2).sum().backward()
    assert isinstance(rec.steps[1].grad_inputs[0], np.ndarray)


def test_store_is_bounded_and_says_when_a_recording_was_dropped(autorecording, monkeypatch):
    monkeypatch.setattr(R.limits, "BUDGET", 1)       # room for one recording only
    first, _ = square_mean()
    first.backward()
    second, _ = square_mean()
    second.backward()
    assert len(R.store._store) == 1
    d = viz.draw(first)
    assert d.steps is None and d.why == "caption.dropped"
    assert "dropped to keep memory bounded" in d.source


def test_autorecord_off_records_nothing_and_the_caption_says_why():
    out, _ = square_mean()
    out.backward()
    assert R.find_recording(out.grad_fn) is None
    d = viz.draw(out)
    assert d.steps is None and "was not recorded" in d.source


def test_topological_order_walk_is_not_stored_as_a_backward(autorecording):
    out, _ = square_mean()
    engine.topological_order([out.grad_fn])
    assert R.find_recording(out.grad_fn) is None


def test_backward_in_several_threads_records_each_run(autorecording):
    errors, outs = [], []

    def work():
        try:
            for _ in range(20):
                out, x = square_mean()
                out.backward()
                outs.append(out)
                assert len(viz.draw(out).steps) == 5
        except BaseException as e:     # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(R.find_recording(o.grad_fn) is not None for o in outs)


def test_recording_watches_pytorch_only_once_torch_is_imported():
    # In a fresh interpreter: other test files import real torch into this one.
    code = ("import sys; from autograd_teach import viz; from autograd_teach.core import engine\n"
            "R = sys.modules['autograd_teach.viz.recording']\n"
            "h = R.subscribe(print, {})\n"
            "assert list(h) == ['engine'] and 'torch' not in sys.modules, 'viz imported torch'\n"
            "try:\n    import torch\nexcept ImportError:\n    print('no torch'); raise SystemExit\n"
            "assert list(R.subscribe(print, h)) == ['engine', 'torch'] and engine.observers() == (print,)\n"
            "backward = torch.autograd.backward\n"
            "for handle in h.values():\n    handle.remove()\n"
            "assert engine.observers() == () and torch.autograd.backward is backward.__wrapped__\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("ok", "no torch")


def test_set_lang_is_the_default_and_lang_argument_wins():
    out, x = square_mean()
    try:
        viz.set_lang("zh")
        assert "还没有梯度" in viz.draw(out).source
        assert "No gradients yet" in viz.draw(out, lang="en").source
    finally:
        viz.set_lang("en")
    assert "No gradients yet" in viz.draw(out).source
    assert "还没有梯度" in viz.draw(out, lang="zh").source
    with pytest.raises(ValueError):
        viz.set_lang("fr")


def test_a_new_graph_over_a_leaf_with_a_grad_is_not_called_unrecorded():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()                 # x.grad is set, by an earlier graph
    s = (x * 3).sum()                        # a new graph: its backward has not run
    d = viz.draw(s)
    assert d.why is None and "No gradients yet" in d.source


def test_the_background_recorder_watches_a_create_graph_backward(autorecording):
    # .grad has history then (requires_grad): the recorder copies its values, not raising
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    q = p ** 2
    q.retain_grad()
    out = (q ** 2).sum()
    out.backward(create_graph=True)
    assert q.grad.requires_grad and q.grad.tolist() == [2.0, 8.0]
    assert p.grad.tolist() == [4.0, 32.0]
    assert R.find_recording(out.grad_fn) is not None


def chain_nodes(out):
    """Every node of out's graph, walked through next_functions."""
    seen, stack = [], [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and all(node is not s for s in seen):
            seen.append(node)
            stack.extend(n for n, _ in node.next_functions)
    return seen


def test_del_y_frees_every_node_while_recordings_of_it_live(autorecording):
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(100):                     # longer than the nodes whose chain-rule values are taken
        y = (y * y).tanh()                   # MulBackward0 saves y, the output of the TanhBackward0 before
    y = y.sum()
    with viz.record() as rec:
        y.backward()
    nodes = [weakref.ref(n) for n in chain_nodes(y) if type(n).__name__ != "AccumulateGrad"]
    assert len(nodes) == 201 and len(rec.steps) == 202
    assert rec.steps[2].values["self"] is not None   # the chain rule's values were taken
    assert R.find_recording(y.grad_fn) is rec.last   # kept where draw() looks, and by rec
    del y
    gc.collect()
    assert [n for n in nodes if n() is not None] == []
    assert all(s.fn is None for s in rec.steps)      # the steps say their node is gone


def test_a_recording_never_takes_a_new_object_at_a_dead_nodes_address_for_its_node():
    reused = 0
    for _ in range(20):                       # until the allocator hands out a dead node's address again
        x = torch.ones(2, requires_grad=True)
        out = (x * 2.0).sum()
        with viz.record() as rec:
            out.backward()
        classes = {type(n) for n in chain_nodes(out)}
        old = {id(n) for n in chain_nodes(out)}
        del out, x
        gc.collect()
        fresh = [cls.__new__(cls) for cls in classes for _ in range(20000)]
        for o in fresh:
            if id(o) in old:
                reused += 1
                assert not rec.last.ran(o)
                assert all(s.fn is not o for s in rec.steps)
        assert [s.fn for s in rec.steps] == [None, None, None]
        if reused:
            break
    assert reused                             # the case this test is about did happen


def test_a_gradient_too_large_to_keep_is_bounded_where_it_is_sent_too():
    x = torch.ones(R.FULL_VALUES + 10, requires_grad=True)
    with viz.record() as rec:
        (x * 2.0).sum().backward()           # SumBackward0 gets a 0-d gradient and sends a large one
    sum_step, mul_step, acc_step = rec.steps
    assert isinstance(sum_step.grad_output, np.ndarray)
    assert isinstance(sum_step.grad_inputs[0], R.Summary) and sum_step.grad_inputs[0].max == 1.0
    assert isinstance(mul_step.grad_output, R.Summary) and isinstance(mul_step.grad_inputs[0], R.Summary)
    big = mul_step.grad_inputs[0]
    assert big.nbytes == 64 + 4 * (R.FULL_VALUES + 10)       # it holds its array until read, and says so
    assert acc_step.leaf_grad.nbytes == 64 + 4 * (R.FULL_VALUES + 10)
    assert isinstance(acc_step.leaf_grad, R.Summary) and acc_step.leaf_grad.max == 2.0
    assert acc_step.leaf_grad.nbytes == 64                    # read: the numbers stay, the array goes
    assert rec.last.nbytes >= 3 * 4 * (R.FULL_VALUES + 10)    # the store counts what the run holds
    x.grad.zero_()                                            # the copy of .grad is the run's own
    assert acc_step.leaf_grad.max == 2.0 and big.norm == pytest.approx(2.0 * (R.FULL_VALUES + 10) ** 0.5)


def test_a_large_gradient_sent_to_a_node_that_never_runs_is_bounded_as_the_run_ends():
    x = torch.ones(R.FULL_VALUES + 10, requires_grad=True)
    y = x * 2.0
    s = y.sum()
    with viz.record() as rec:
        (g,) = torch.autograd.grad(s, [y])    # MulBackward0 does not run: y's gradient is captured
    assert [G.fn_name(st.fn) for st in rec.steps] == ["SumBackward0"]
    assert isinstance(rec.steps[0].grad_inputs[0], R.Summary)
    assert g.shape == (R.FULL_VALUES + 10,)


def test_chain_rule_values_are_the_ones_backward_used_or_left_out():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    x = torch.tensor([3.0, 4.0])
    out = (x * w).sum()
    with viz.record() as rec:
        out.backward()
    x.add_(10.0)                               # after backward: the saved x is not what backward read
    mul = rec.steps[1]
    assert G.fn_name(mul.fn) == "MulBackward0"
    assert "self" not in mul.values            # left out rather than shown with the new numbers

    out2 = (x * w).sum()
    with viz.record() as rec2:
        out2.backward()
    values = rec2.steps[1].values              # read before any change: a copy
    x.add_(10.0)
    np.testing.assert_allclose(values["self"], [13.0, 14.0])
    np.testing.assert_allclose(rec2.steps[1].values["self"], [13.0, 14.0])


def test_chain_rule_values_are_taken_for_the_nodes_nearest_the_output_only():
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(R.SNAPSHOT_STEPS + 20):
        y = y * x                              # MulBackward0 reads self and other
    with viz.record() as rec:
        y.sum().backward()
    muls = [s for s in rec.steps if G.fn_name(s.fn) == "MulBackward0"]
    with_values = [s for s in muls if s.values]
    assert len(with_values) == R.SNAPSHOT_STEPS - 2   # the other two: SumBackward0, x's AccumulateGrad
    assert with_values == muls[:R.SNAPSHOT_STEPS - 2]
    np.testing.assert_allclose(with_values[0].values["other"], x.detach().numpy())


def test_record_in_several_threads_gives_each_run_its_own_steps():
    errors, found = [], {}

    def work(k):
        try:
            x = torch.ones(3, requires_grad=True)
            for _ in range(10):
                out = (x * float(k)).sum()
                with viz.record() as rec:
                    out.backward()
                mine = [r for r in rec.recordings if r.ran(out.grad_fn)]
                assert len(mine) == 1
                mul = mine[0].steps[1]
                np.testing.assert_allclose(mul.grad_inputs[0], [float(k)] * 3)
                found[k] = found.get(k, 0) + 1
        except BaseException as e:     # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and found == {1: 10, 2: 10, 3: 10, 4: 10}
    assert len(engine._observers) == 0


def test_a_node_with_several_outputs_records_one_gradient_per_output():
    """unbind's node gets the gradient of each output (None where none came),
    and the inspector shows each, not the first one only."""
    from autograd_teach.viz import arrange, inspector
    x = torch.arange(6.0, requires_grad=True)
    a, b, c = (x * 1).reshape(3, 2)
    loss = (a * 2).sum() + (b * 3).sum()        # c gets no gradient
    with viz.record() as rec:
        loss.backward()
    step = next(s for s in rec.steps if type(s.fn).__name__ == "UnbindBackward0")
    ga, gb, gc = step.grad_output
    assert ga.tolist() == [2.0, 2.0] and gb.tolist() == [3.0, 3.0] and gc is None
    g = arrange.build_for_drawing(loss)
    gstep = next(s for s in G.grad_steps(g, rec.last) if s.name == "UnbindBackward0")
    rows = inspector.chain_rows(g, gstep, gstep.node_id)
    heads = [head for head, _ in rows]
    assert heads[:3] == ["gradient in [0]", "gradient in [1]", "gradient in [2]"], heads
    svg = viz.draw(loss).svg()
    assert "UnbindBackward0" in svg and "\u03a3" not in svg     # no sum of the slots drawn in the node


def test_a_custom_backward_that_sends_none_records_and_draws():
    class Half(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g, None
    u, c = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    with viz.record() as rec:
        y = Half.apply(u, c * 2).sum()
        y.backward()
    assert any(s.grad_output is None for s in rec.steps)      # the nodes below ran with None
    assert "<svg" in viz.draw(y).svg() and c.grad is None


def test_a_leafs_grad_is_recorded_as_the_run_left_it():
    """The copy of a leaf's .grad is taken as the run ends (one append per node
    on the hot path, no call): a hook that changes .grad later in the same run
    shows in it."""
    w, x = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    a, b = x * 2, w * 3
    out = a.sum() + b.sum()
    a.register_hook(lambda g: (w.grad.mul_(10), None)[1])   # runs after w's AccumulateGrad
    with viz.record() as rec:
        out.backward()
    acc_w = b.grad_fn.next_functions[0][0]
    fns = [s.fn for s in rec.steps]
    assert fns.index(acc_w) < fns.index(a.grad_fn)            # the hook ran after w's AccumulateGrad
    w_step = rec.steps[fns.index(acc_w)]
    assert w_step.leaf_grad.tolist() == w.grad.tolist() == [30.0, 30.0]
    assert rec.steps[-1].leaf_grad.tolist() == x.grad.tolist() == [2.0, 2.0]


def test_a_gradient_a_node_pre_hook_replaced_is_bounded_as_the_steps_are_read():
    x = torch.ones(R.FULL_VALUES + 1, requires_grad=True)
    y = x * 2.0
    out = y.sum()
    y.grad_fn.register_prehook(lambda g: (g[0] * 3,))
    with viz.record() as rec:
        out.backward()
    mul = rec.steps[1]
    assert isinstance(mul.grad_output, R.Summary) and mul.grad_output.shape == (R.FULL_VALUES + 1,)
    assert x.grad.tolist() == [6.0] * (R.FULL_VALUES + 1)
    y = x * 2.0
    y.grad_fn.register_prehook(lambda g: (torch.ones(R.FULL_VALUES + 2),))    # another size: PyTorch's error
    with viz.record(), pytest.raises(RuntimeError, match="has changed the size of value"):
        y.sum().backward()


def test_an_engine_that_calls_step_records_too_and_steps_read_before_end_show_the_run_so_far():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    live = R.recording([y.grad_fn])
    live.step(y.grad_fn, (np.ones(2),), (np.full(2, 3.0),))
    assert len(live) == 1 and live.ran(y.grad_fn) and live.steps[0].fn is y.grad_fn
    assert live.steps[0].grad_inputs[0].tolist() == [3.0, 3.0] and live.steps[0].values is None
    live.end()
    assert len(live) == 1 and live.steps[0].fn is y.grad_fn and live.nbytes > 0
    assert live.steps[0].values.keys() == {"other"}          # filed as the run ended
