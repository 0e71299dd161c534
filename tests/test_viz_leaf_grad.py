"""A leaf's .grad as each recorded step shows it: exact at every step, also
when later runs or the learner write into .grad in place, and when the
recording holds the gradient the step got instead of copying .grad."""
import importlib

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import viz
R = importlib.import_module("autograd_teach.viz.recording")   # viz.record is the function

N = R.FULL_VALUES + 10          # large enough to be shown as a Summary


def _stats(a):
    f = np.asarray(a, dtype=np.float64)
    return float(np.linalg.norm(f.ravel())), float(f.min()), float(f.max())


def _leaf_step(rec, leaf):
    steps = [s for s in rec.steps if s.leaf_grad is not None and s.fn is not None and s.fn.variable is leaf]
    assert len(steps) == 1
    return steps[0]


def _shown(step):
    g = step.leaf_grad
    return (g.norm, g.min, g.max) if isinstance(g, R.Summary) else _stats(g)


ALIVE = []                      # the runs' outputs: a step's fn is None once its graph is gone


def _backward(x, w):
    """One run whose gradient for x changes from run to run (w changes)."""
    loss = (x * w).sum()
    ALIVE.append(loss)
    with viz.record() as rec:
        loss.backward()
    return rec.last


def test_each_run_shows_the_grad_it_left_through_accumulation_and_zero_():
    x = torch.linspace(-1.0, 1.0, N, requires_grad=True)
    expected, recs = [], []
    for k, between in enumerate(["", "", "zero_", "", "none", "", "mul_"]):
        if between == "zero_":
            x.grad.zero_()
        elif between == "none":
            x.grad = None
        elif between == "mul_":
            x.grad.mul_(3.0)
        w = torch.linspace(0.5, 2.0 + k, N)
        recs.append(_backward(x, w))
        expected.append(_stats(x.grad.numpy().copy()))
    x.grad.add_(100.0)                     # written after every run: no recording may change
    for rec, want, first in zip(recs, expected, [True, False, False, False, True, False, False]):
        step = _leaf_step(rec, x)
        assert isinstance(step.leaf_grad, R.Summary)
        assert _shown(step) == want
        assert step.first_grad is first


def test_a_grad_made_by_the_run_is_held_as_the_gradient_the_step_got():
    x = torch.ones(N, requires_grad=True)
    rec = _backward(x, torch.full((N,), 2.0))
    step = _leaf_step(rec, x)
    assert step.leaf_grad is step.grad_output   # held once, not copied
    x.grad.zero_()
    assert (step.leaf_grad.norm, step.leaf_grad.min, step.leaf_grad.max) == _stats(np.full(N, 2.0))


def test_a_grad_replaced_by_a_hook_during_the_run_shows_the_replacement():
    x = torch.ones(N, requires_grad=True)
    y = torch.ones(3, requires_grad=True)

    def replace(_):
        x.grad = torch.full((N,), 5.0)     # a new tensor, version 0, as a .grad the run made
    y.register_post_accumulate_grad_hook(replace)
    loss = ((y * 0.0) * 1.0).sum() + (x * 2.0).sum()   # the newest branch, x's, runs first
    with viz.record() as rec:
        loss.backward()
    step = _leaf_step(rec.last, x)
    assert x.grad.tolist()[:2] == [5.0, 5.0]            # the hook ran after x's step
    x.grad.zero_()
    assert _shown(step) == _stats(np.full(N, 5.0))


def test_a_grad_replaced_by_a_custom_function_shows_the_replacement():
    x = torch.ones(N, requires_grad=True)

    class Meddle(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.clone()

        @staticmethod
        def backward(ctx, g):
            x.grad = torch.full((N,), 7.0)  # a backward may do anything
            return g

    z = torch.ones(1, requires_grad=True)
    loss = Meddle.apply(z * 1.0).sum() + (x * 2.0).sum()   # the newest branch, x's, runs first
    with viz.record() as rec:
        loss.backward()
    step = _leaf_step(rec.last, x)
    assert x.grad.tolist()[:2] == [7.0, 7.0]             # the backward ran after x's step
    x.grad.zero_()
    assert _shown(step) == _stats(np.full(N, 7.0))


def test_a_leaf_left_out_by_inputs_does_not_show_a_grad_from_the_run():
    x = torch.ones(N, requires_grad=True)
    w = torch.ones(N, requires_grad=True)
    (x * w).sum().backward()                 # x.grad made here: version 0
    before = _stats(x.grad.numpy().copy())
    loss = (x * w * 3.0).sum()
    with viz.record() as rec:
        loss.backward(inputs=[w])
    for step in rec.last.steps:
        if step.leaf_grad is not None and step.fn is not None and step.fn.variable is x:
            assert _shown(step) == before
