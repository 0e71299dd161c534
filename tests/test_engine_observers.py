"""engine.add_observer: the public hook the viz recorder subscribes through."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.core import engine


class Log:
    def __init__(self):
        self.runs = []

    def begin(self, roots):
        run = {"roots": [r.name() for r in roots], "steps": [], "ended": False}
        self.runs.append(run)
        log = self

        class Watcher:
            def step(self, node, grad_outputs, grad_inputs):
                run["steps"].append((node.name(), grad_outputs[0].tolist()))

            def end(self):
                run["ended"] = True
        return Watcher()


def test_observer_sees_every_step_in_order_then_stops_after_remove():
    log = Log()
    handle = engine.add_observer(log.begin)
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
    finally:
        handle.remove()
    assert log.runs == [{"roots": ["SumBackward0"], "ended": True, "steps": [
        ("SumBackward0", 1.0), ("MulBackward0", [1.0, 1.0]),
        ("torch::autograd::AccumulateGrad", [3.0, 3.0])]}]
    (x * 3).sum().backward()
    assert len(log.runs) == 1
    handle.remove()     # a second remove is harmless


def test_begin_returning_none_skips_the_run_and_order_walks_are_not_runs():
    calls = []
    handle = engine.add_observer(lambda roots: calls.append(roots))
    try:
        x = torch.ones(2, requires_grad=True)
        y = (x * 2).sum()
        engine.topological_order([y.grad_fn])
        assert calls == []
        y.backward()
        assert len(calls) == 1
    finally:
        handle.remove()


def test_failed_backward_still_ends_the_run():
    log = Log()
    handle = engine.add_observer(log.begin)
    try:
        x = torch.ones(2, requires_grad=True)
        y = (x * x).sum()
        y.backward()
        try:
            y.backward()
        except RuntimeError:
            pass
    finally:
        handle.remove()
    assert [r["ended"] for r in log.runs] == [True, True]


def test_runs_in_threads_get_their_own_watchers():
    log = Log()
    handle = engine.add_observer(log.begin)
    errors = []

    def work():
        try:
            for _ in range(20):
                x = torch.ones(3, requires_grad=True)
                (x * 2).sum().backward()
        except Exception as e:   # pragma: no cover - the assertion below reports it
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        handle.remove()
    assert errors == []
    assert len(log.runs) == 80
    assert all(len(r["steps"]) == 3 and r["ended"] for r in log.runs)


class TraceWatcher:
    """A watcher that reads the run afterwards: the engine appends to its trace."""

    def __init__(self, ended):
        self.trace = []
        self.ended = ended

    def end(self):
        self.ended.append([(node.name(), grad, grads) for node, grad, grads in self.trace])


def observe(*begins):
    return [engine.add_observer(b) for b in begins]


def test_a_trace_watcher_and_a_step_watcher_see_the_same_run():
    ended, log = [], Log()
    handles = observe(lambda roots: TraceWatcher(ended), log.begin)
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
    finally:
        for h in handles:
            h.remove()
    (trace,) = ended
    assert [name for name, _, _ in trace] == [name for name, _ in log.runs[0]["steps"]] == [
        "SumBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"]
    assert [np.asarray(g).tolist() for _, g, _ in trace] == [g for _, g in log.runs[0]["steps"]]
    assert type(trace[1][1]) is np.ndarray                  # one output: the array itself, not a tuple
    assert trace[1][2][0].tolist() == [3.0, 3.0] and trace[2][2] == ()   # sent on; AccumulateGrad sends nothing


def test_a_failing_backward_ends_a_trace_watcher_with_the_steps_that_ran():
    ended, log = [], Log()
    handles = observe(lambda roots: TraceWatcher(ended), log.begin)
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: 1 / 0)                        # fails as MulBackward0 is about to run
    try:
        with pytest.raises(ZeroDivisionError):
            y.sum().backward()
    finally:
        for h in handles:
            h.remove()
    assert [name for name, _, _ in ended[0]] == ["SumBackward0"]
    assert log.runs[0]["ended"] and [n for n, _ in log.runs[0]["steps"]] == ["SumBackward0"]
    assert x.grad is None


def test_create_graph_runs_give_numpy_arrays_to_both_kinds():
    ended, got = [], []

    class Steps:
        def step(self, node, grad_outputs, grad_inputs):
            got.append((grad_outputs, grad_inputs))

        def end(self):
            pass
    handles = observe(lambda roots: TraceWatcher(ended), lambda roots: Steps())
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    finally:
        for h in handles:
            h.remove()
    assert g.requires_grad                                  # the run did make a graph
    (trace,) = ended
    for (_, grad, grads), (outs, ins) in zip(trace, got, strict=True):
        assert all(type(a) is np.ndarray for a in (grad, *outs) + tuple(grads) + tuple(ins) if a is not None)
        np.testing.assert_array_equal(grad, outs[0])
    assert trace[1][2][0].tolist() == [3.0, 12.0]           # PowBackward0 sent 3 x^2


def test_a_node_with_several_outputs_gives_a_trace_one_gradient_per_output():
    ended = []
    handle = engine.add_observer(lambda roots: TraceWatcher(ended))
    try:
        x = torch.arange(4.0, requires_grad=True)
        a, b = (x * 1).reshape(2, 2)
        (a * 2).sum().backward()
    finally:
        handle.remove()
    unbind = next(entry for entry in ended[0] if entry[0] == "UnbindBackward0")
    ga, gb = unbind[1]
    assert ga.tolist() == [2.0, 2.0] and gb is None
