"""Recording a training loop keeps neither its graphs nor its inputs, in either engine,
and the store counts what it keeps.  (Memory is measured as the process's resident
size, after a warm-up; no timing is asserted.)"""
import contextlib
import gc
import importlib
import os
import weakref

import pytest

import autograd_teach
from autograd_teach import viz

from viz_torch_helpers import import_torch

R = importlib.import_module("autograd_teach.viz.recording")


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


@pytest.fixture
def clean():
    viz.autorecord(False)
    R.clear()
    yield
    viz.autorecord(False)
    R.clear()


@contextlib.contextmanager
def one_thread(torch):
    # numpy's and torch's threads contend on a small machine; one thread each keeps the loop short
    before = torch.get_num_threads() if hasattr(torch, "get_num_threads") else None
    if before is not None:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if before is not None:
            torch.set_num_threads(before)


def train(torch, steps, retain_graph=False, recording=contextlib.nullcontext):
    """A small conv net's loop; returns (inputs still alive after it, RSS growth in MB)."""
    torch.manual_seed(0)
    nn = torch.nn
    net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    inputs, start = [], None
    with one_thread(torch), recording():
        for i in range(steps):
            x = torch.randn(16, 1, 8, 8, requires_grad=True)
            inputs.append(weakref.ref(x))
            loss = nn.functional.cross_entropy(net(x), torch.randint(0, 10, (16,)))
            opt.zero_grad()
            loss.backward(retain_graph=retain_graph)
            opt.step()
            if i == 50:
                gc.collect()
                start = rss_mb()
    del x, loss
    gc.collect()
    return sum(ref() is not None for ref in inputs), rss_mb() - start


def test_autorecord_on_real_torch_keeps_no_input_of_1500_steps(clean):
    torch = import_torch()
    viz.autorecord(True)
    alive, grown = train(torch, 1500)
    assert alive == 0
    assert grown < 50, grown
    assert len(R.store._store) <= 1                    # only a recording whose graph lives is kept


@pytest.mark.parametrize("how", ["autorecord", "record"])
def test_retain_graph_on_real_torch_keeps_no_input(clean, how):
    torch = import_torch()
    if how == "autorecord":
        viz.autorecord(True)
        alive, grown = train(torch, 300, retain_graph=True)
    else:
        alive, grown = train(torch, 300, retain_graph=True, recording=viz.record)
    assert alive == 0
    assert grown < 50, grown


def test_autorecord_on_our_engine_keeps_no_input_of_1500_steps(clean):
    viz.autorecord(True)
    alive, grown = train(autograd_teach, 1500, retain_graph=True)
    assert alive == 0
    assert grown < 50, grown


def test_a_torch_recording_draws_while_its_output_lives_and_lets_go_after(clean):
    torch = import_torch()
    w = torch.ones(3, requires_grad=True)
    loss = (w * 2).sum()
    with viz.record() as rec:
        loss.backward()
    run = rec.last
    assert run.alive() and [type(s.fn).__name__ for s in run.steps] == ["SumBackward0", "MulBackward0",
                                                                          "AccumulateGrad"]
    # names={}: reading this frame's variables for names would leave Python 3.11's
    # snapshot of them (holding `loss`) on the frame until the test returns
    assert viz.draw(loss, names={}).steps is not None   # found in the store, matched node by node
    del loss
    gc.collect()
    assert not run.alive() and all(s.fn is None for s in run.steps)
    assert [s.grad_output.tolist() for s in run.steps][0] == 1.0   # the numbers stay


def test_the_store_counts_the_chain_rules_numbers(clean):
    x = autograd_teach.ones(50, requires_grad=True)
    y = (x * x).sum()
    with viz.record() as rec:
        y.backward()
    run = rec.last
    steps = len(run)
    # STEP_BYTES a step, the gradients (sent on and in), the leaf's .grad, and x saved twice by MulBackward0
    assert run.nbytes >= R.STEP_BYTES * steps + 2 * 4 * 50


def test_a_dropped_torch_recording_lets_go_of_its_nodes_and_says_so(clean, monkeypatch):
    torch = import_torch()
    monkeypatch.setattr(R.limits, "BUDGET", 1)          # every new recording drops the one before
    viz.autorecord(True)
    w = torch.ones(3, requires_grad=True)
    first = (w * 2).sum()
    first.backward()
    (old,) = R.store._store._recent
    second = (w * 3).sum()
    second.backward()
    assert not old.alive()                        # dropped: its nodes let go though `first` lives
    d = viz.draw(first)
    assert d.steps is None and d.why == "caption.dropped"
