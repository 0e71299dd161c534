"""engine.add_observer: the public hook the viz recorder subscribes through."""
import threading

import autograd_teach as torch
from autograd_teach import engine


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
