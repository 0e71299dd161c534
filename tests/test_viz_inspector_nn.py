"""The inspector's chain rule for what a learner meets first: accumulation into a
zeroed .grad, and (below) the teaching forms of the common nn ops, in both engines."""
import html
import re

import pytest

import autograd_teach
from autograd_teach import viz
from autograd_teach.viz import arrange, inspector
from autograd_teach.viz import graph as G

from viz_torch_helpers import import_torch


def plain(value):
    return html.unescape(re.sub("<[^>]+>", "", value))


def rows_of(torch, loss, name, lang=None):
    with viz.record() as rec:
        loss.backward()
    g = arrange.build_for_drawing(loss)
    step = next(s for s in G.grad_steps(g, rec.last) if s.name == name)
    return [(plain(h), plain(v)) for h, v in inspector.chain_rows(g, step, step.node_id, lang)]


def accumulation(torch, loss):
    return next(v for h, v in rows_of(torch, loss, "AccumulateGrad") if h == "numbers")


@pytest.mark.parametrize("engine", ["autograd_teach", "torch"])
def test_accumulating_into_a_zeroed_grad_is_not_a_first_gradient(engine):
    torch = autograd_teach if engine == "autograd_teach" else import_torch()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    first = accumulation(torch, (x * 3).sum())
    assert first.startswith("None + tensor([3., 3.]) = tensor([3., 3.])") and "none before" in first
    assert accumulation(torch, (x * 3).sum()) == "tensor([3., 3.]) + tensor([3., 3.]) = tensor([6., 6.])"
    x.grad.zero_()
    assert accumulation(torch, (x * 3).sum()) == "tensor([0., 0.]) + tensor([3., 3.]) = tensor([3., 3.])"
    x.grad = None
    assert accumulation(torch, (x * 3).sum()).startswith("None + ")
