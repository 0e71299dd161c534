"""viz.torch_record: watching real PyTorch's backward with the engine's observer protocol."""
import subprocess
import sys
import threading

import numpy as np
import pytest

from viz_torch_helpers import Log, Watching, import_torch, name

torch = import_torch()
from autograd_teach.viz import torch_record  # noqa: E402

ORIGINAL_BACKWARD = torch.autograd.backward
ORIGINAL_GRAD = torch.autograd.grad


@pytest.fixture
def log():
    log = Log()
    handle = Watching(log.begin)
    yield log
    handle.remove()
    assert torch_record._hooked == {}           # no node keeps a hook of ours
    assert torch.autograd.backward is ORIGINAL_BACKWARD
    assert torch.autograd.grad is ORIGINAL_GRAD


def arrays(seq):
    return [None if a is None else a.tolist() for a in seq]


def test_importing_changes_nothing_and_does_not_import_torch():
    code = ("import sys, autograd_teach.viz.torch_record as r; "
            "assert 'torch' not in sys.modules; assert not r.torch_imported(); print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
    assert torch.autograd.backward is ORIGINAL_BACKWARD   # this process imported it too
    assert torch_record.torch_imported()


def test_every_step_in_pytorchs_order_with_its_gradients(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    y.backward()
    (run,) = log.runs
    assert run["ended"] and run["roots"] == [y.grad_fn]
    assert log.names() == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    steps = [(arrays(outs), arrays(ins)) for _, outs, ins in run["steps"]]
    assert steps == [([1.0], [[1.0, 1.0]]),
                     ([[1.0, 1.0]], [[3.0, 3.0], None]),     # the constant 3 gets no gradient
                     ([[3.0, 3.0]], [])]
    assert run["steps"][2][0].variable is x
    assert isinstance(run["steps"][0][1][0], np.ndarray)


def test_a_zerotensor_gradient_is_recorded_as_zeros_and_backward_still_runs(log):
    # SgnBackward0 sends PyTorch's ZeroTensor for a real input; .numpy() refuses
    # one, and a recording must never break the learner's backward.
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    torch.sgn(x).sum().backward()
    (run,) = log.runs
    assert run["ended"] and log.names() == ["SumBackward0", "SgnBackward0", "AccumulateGrad"]
    assert arrays(run["steps"][1][2]) == [[0.0, 0.0]]
    assert x.grad.numpy(force=True).tolist() == [0.0, 0.0]    # PyTorch keeps the ZeroTensor as .grad


def test_the_order_is_the_engines_not_the_graphs(log):
    # PyTorch runs the most recently created ready node first: b's branch
    # (created last) before a's, though a comes first in next_functions.
    x = torch.tensor(2.0, requires_grad=True)
    a = x.exp()
    b = x.sin()
    (a * b).backward()
    assert log.names() == ["MulBackward0", "SinBackward0", "ExpBackward0", "AccumulateGrad"]
    leaf = log.runs[0]["steps"][-1]
    np.testing.assert_allclose(leaf[1][0], x.grad.numpy())


def test_stopping_removes_the_wrappers_and_every_hook():
    log = Log()
    handle = Watching(log.begin)
    assert torch.autograd.backward is not ORIGINAL_BACKWARD
    x = torch.ones(3, requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    handle.remove()
    handle.remove()                               # twice is harmless
    assert torch.autograd.backward is ORIGINAL_BACKWARD
    assert torch_record._hooked == {}
    y.backward()                                  # the same graph, no longer watched
    assert len(log.runs) == 1
    assert x.grad.tolist() == [4.0, 4.0, 4.0]


def test_a_users_own_node_hooks_still_run_and_we_see_what_they_return(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    mul = y.grad_fn.next_functions[0][0]
    mul.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 10, None))
    y.backward()
    assert x.grad.tolist() == [20.0, 20.0]
    mul_step = log.runs[0]["steps"][1]
    assert arrays(mul_step[2]) == [[20.0, 20.0], None]


def test_tensor_hooks_change_what_flows_and_the_record_shows_it(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: g * 0.5)
    h.sum().backward()
    assert arrays(log.runs[0]["steps"][1][1]) == [[0.5, 0.5]]   # MulBackward0 got the halved gradient
    assert x.grad.tolist() == [1.5, 1.5]


def test_a_call_that_fails_before_any_node_runs_is_no_run(log):
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    assert log.runs == []


def test_a_run_that_fails_midway_still_ends(log):
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    assert [(r["ended"], len(r["steps"])) for r in log.runs] == [(True, 3), (True, 1)]
    # SumBackward0 saved nothing, so it ran; MulBackward0 found its saved tensors freed.
    assert log.names() == ["SumBackward0"]


def test_begin_returning_none_skips_the_run():
    calls = []
    handle = Watching(lambda roots: calls.append(roots))
    try:
        x = torch.ones(2, requires_grad=True)
        (x * 2).sum().backward()
    finally:
        handle.remove()
    assert len(calls) == 1 and x.grad.tolist() == [2.0, 2.0]


def test_autograd_grad_is_a_run_too_and_leaves_are_not_accumulated(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    assert log.names() == ["SumBackward0", "PowBackward0"]     # AccumulateGrad does not run
    assert arrays(log.runs[0]["steps"][1][2]) == [[3.0, 12.0]]
    g.sum().backward()                                          # the graph backward built
    assert log.names(1)[-1] == "AccumulateGrad"
    assert x.grad.tolist() == [6.0, 12.0]


def test_backward_on_a_leaf_starts_at_its_accumulategrad(log):
    x = torch.tensor(5.0, requires_grad=True)
    x.backward()
    (run,) = log.runs
    assert [name(r) for r in run["roots"]] == ["AccumulateGrad"]
    assert log.names() == ["AccumulateGrad"] and x.grad.item() == 1.0


def test_backward_with_inputs_runs_only_what_they_need(log):
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    (a.exp() + b.sin()).backward(inputs=[b])
    assert log.names() == ["AddBackward0", "SinBackward0", "AccumulateGrad"]
    assert log.runs[0]["steps"][-1][0].variable is b and a.grad is None


def test_a_backward_inside_a_backward_is_a_run_of_its_own(log):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            with torch.enable_grad():
                inner = x.detach().requires_grad_()
                (d,) = torch.autograd.grad(inner ** 3, inner)   # a whole backward run
            return grad * d

    x = torch.tensor(2.0, requires_grad=True)
    Cube.apply(x * 1).backward()
    assert x.grad.item() == 12.0
    outer, inner = log.runs
    assert [name(n) for n, _, _ in outer["steps"]] == ["CubeBackward", "MulBackward0", "AccumulateGrad"]
    assert [name(n) for n, _, _ in inner["steps"]] == ["PowBackward0"]
    assert outer["ended"] and inner["ended"]


def test_shared_weights_in_a_loop(log):
    w = torch.tensor(0.5, requires_grad=True)
    h = torch.tensor(1.0)
    for _ in range(3):
        h = torch.tanh(w * h)
    h.backward()
    names = log.names()
    assert names.count("AccumulateGrad") == 1                   # w's node runs once, after all three uses
    assert names[-1] == "AccumulateGrad"
    np.testing.assert_allclose(log.runs[0]["steps"][-1][1][0], w.grad.numpy())


def test_runs_in_threads_get_their_own_watchers_even_with_a_shared_leaf(log):
    w = torch.ones(3, requires_grad=True)
    errors = []

    def work(k):
        try:
            for _ in range(10):
                (w * k).sum().backward()
        except Exception as e:   # pragma: no cover - the assertion below reports it
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in (1.0, 2.0, 3.0, 4.0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(log.runs) == 40
    assert all(r["ended"] and [name(n) for n, _, _ in r["steps"]] ==
               ["SumBackward0", "MulBackward0", "AccumulateGrad"] for r in log.runs)
    # Each run saw its own multiplier: the gradient it sent to w.
    sent = sorted(r["steps"][-1][1][0][0] for r in log.runs)
    assert sent == sorted([1.0, 2.0, 3.0, 4.0] * 10)
    assert w.grad.tolist() == [100.0] * 3


def test_a_deep_chain_is_walked_without_recursion(log):
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    y.backward()
    assert len(log.runs[0]["steps"]) == 3001


def test_empty_and_bfloat16_gradients_come_as_numpy(log):
    e = torch.ones(0, requires_grad=True)
    (e * 2).sum().backward()
    assert log.runs[0]["steps"][-1][1][0].shape == (0,)
    b = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
    (b * 2).sum().backward()
    leaf_in = log.runs[1]["steps"][-1][1][0]
    assert leaf_in.dtype == np.float32 and leaf_in.tolist() == [2.0, 2.0]


def test_two_observers_each_see_every_run_and_removing_one_keeps_the_other():
    first, second = Log(), Log()
    h1 = Watching(first.begin)
    h2 = Watching(second.begin)
    try:
        x = torch.ones(2, requires_grad=True)
        (x * 2).sum().backward()
        h1.remove()
        assert torch.autograd.backward is not ORIGINAL_BACKWARD
        (x * 2).sum().backward()
    finally:
        h1.remove()
        h2.remove()
    assert len(first.runs) == 1 and len(second.runs) == 2
    assert torch.autograd.backward is ORIGINAL_BACKWARD


def test_watch_refuses_autograd_teach_posing_as_torch(monkeypatch):
    import autograd_teach
    monkeypatch.setitem(sys.modules, "torch", autograd_teach)
    assert not torch_record.torch_imported()
    with pytest.raises(ImportError, match="not PyTorch"):
        Watching(lambda roots: None)


def test_torch_func_and_batched_grads_work_and_are_not_recorded(log):
    g = torch.func.grad(lambda x: (x ** 2).sum())(torch.tensor([1.0, 2.0]))
    assert g.tolist() == [2.0, 4.0]
    x = torch.ones(2, requires_grad=True)
    (rows,) = torch.autograd.grad(x * 2, x, torch.eye(2), is_grads_batched=True)
    assert rows.tolist() == [[2.0, 0.0], [0.0, 2.0]]
    assert log.runs == []
    (x * 2).sum().backward()                      # a plain backward still is
    assert log.names() == ["SumBackward0", "MulBackward0", "AccumulateGrad"]


def test_nothing_of_the_graph_is_kept_alive_after_the_run():
    import gc
    import weakref
    seen = []
    handle = Watching(lambda roots: seen.append(len(roots)))   # keeps no node
    try:
        x = torch.ones(3, requires_grad=True)
        y = (x.exp() * 2).sum()
        y.backward(retain_graph=True)
        ref = weakref.ref(x)
        del x, y
        gc.collect()
        assert ref() is None, "a hook left on the graph keeps it alive"
    finally:
        handle.remove()
    assert seen == [1]


def test_one_observer_in_the_engines_registry_sees_both_engines():
    import autograd_teach
    from autograd_teach.core import engine
    log = Log()
    handle = Watching(log.begin)
    try:
        x = torch.ones(2, requires_grad=True)
        (x * 2).sum().backward()
        a = autograd_teach.ones(2, requires_grad=True)
        (a * 2).sum().backward()
    finally:
        handle.remove()
    assert [log.names(i) for i in (0, 1)] == [["SumBackward0", "MulBackward0", "AccumulateGrad"]] * 2
    assert type(log.runs[0]["roots"][0]) is not type(log.runs[1]["roots"][0])
    assert engine.observers() == () and torch.autograd.backward is ORIGINAL_BACKWARD


def test_our_anomaly_mode_leaves_pytorchs_runs_alone(log):
    import autograd_teach
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with autograd_teach.autograd.set_detect_anomaly(True):
        (x / x).sum().backward()                  # PyTorch's own anomaly mode is off: the nan reaches .grad
        a = autograd_teach.tensor([0.0, 1.0], requires_grad=True)
        with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="DivBackward0"):
            (a / a).sum().backward()
    assert np.isnan(x.grad.numpy()[0]) and log.names(0) == ["SumBackward0", "DivBackward0", "AccumulateGrad"]
