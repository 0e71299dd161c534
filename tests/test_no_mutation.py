"""No op ever mutates its inputs or the upstream gradient (a property, over
random shapes and values with Hypothesis, as MyGrad's suites check it).

For every op: the input arrays, the upstream gradient passed to backward()
and the upstream gradient each node receives are the same values after the
forward, after backward, and after a second backward that accumulates into
.grad (which would write through any .grad that aliased an input or the
upstream gradient). A node that wrote into its incoming gradient would
corrupt the gradient of every other branch that shares it: a silently wrong
gradient. Examples are derandomized so CI sees the same cases every run.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autograd_teach as torch
import autograd_teach.nn.functional as F
from autograd_teach.core import engine

SETTINGS = settings(max_examples=20, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 2


# (name, op, how many inputs, positive inputs only, input shape)
# The shapes are chosen so each op is defined; values are drawn below.
M, V, S = (2, 3), (3,), ()
OPS = [
    ("exp", lambda a: a.exp(), 1, False, M), ("log", lambda a: a.log(), 1, True, M),
    ("sqrt", lambda a: a.sqrt(), 1, True, M), ("reciprocal", lambda a: a.reciprocal(), 1, True, M),
    ("abs", lambda a: a.abs(), 1, False, M), ("sin", lambda a: a.sin(), 1, False, M),
    ("cos", lambda a: a.cos(), 1, False, M), ("tanh", lambda a: a.tanh(), 1, False, M),
    ("sigmoid", lambda a: a.sigmoid(), 1, False, M), ("relu", lambda a: a.relu(), 1, False, M),
    ("neg", lambda a: -a, 1, False, M), ("square", lambda a: a.square(), 1, False, M),
    ("clamp", lambda a: a.clamp(-0.5, 0.5), 1, False, M), ("pow 3", lambda a: a ** 3, 1, False, M),
    ("pow 0.5", lambda a: a ** 0.5, 1, True, M), ("rpow", lambda a: 2 ** a, 1, False, M),
    ("rsub", lambda a: 1 - a, 1, False, M), ("rdiv", lambda a: 1 / a, 1, True, M),
    ("clone", lambda a: a.clone(), 1, False, M), ("float", lambda a: a.float(), 1, False, M),
    ("t", lambda a: a.t(), 1, False, M), ("transpose", lambda a: a.transpose(0, 1), 1, False, M),
    ("permute", lambda a: a.permute(1, 0), 1, False, M), ("unsqueeze", lambda a: a.unsqueeze(1), 1, False, M),
    ("squeeze", lambda a: a.unsqueeze(0).squeeze(), 1, False, M), ("expand", lambda a: a.expand(2, 2, 3), 1, False, M),
    ("view", lambda a: a.view(3, 2), 1, False, M), ("reshape of t", lambda a: a.t().reshape(-1), 1, False, M),
    ("flatten", lambda a: a.flatten(), 1, False, M), ("select", lambda a: a[1], 1, False, M),
    ("slice", lambda a: a[:, 1:], 1, False, M), ("index", lambda a: a[[0, 0, 1]], 1, False, M),
    ("sum", lambda a: a.sum(), 1, False, M), ("sum dim", lambda a: a.sum(0), 1, False, M),
    ("mean", lambda a: a.mean(), 1, False, M), ("mean dim", lambda a: a.mean(1, keepdim=True), 1, False, M),
    ("max", lambda a: a.max(), 1, False, M), ("max dim", lambda a: a.max(1)[0], 1, False, M),
    ("min", lambda a: a.min(), 1, False, M), ("norm", lambda a: a.norm(), 1, False, M),
    ("custom Function", lambda a: Twice.apply(a), 1, False, M),
    ("in place on a clone", lambda a: a.clone().mul_(3), 1, False, M),
    ("in place on a view", lambda a: _write_through_view(a), 1, False, M),
    ("add", lambda a, b: a + b, 2, False, M), ("sub", lambda a, b: a - b, 2, False, M),
    ("mul", lambda a, b: a * b, 2, False, M), ("div", lambda a, b: a / b, 2, True, M),
    ("pow tensor", lambda a, b: a ** b, 2, True, M), ("add broadcast", lambda a, b: a + b[0], 2, False, M),
    ("mul broadcast", lambda a, b: a[:1] * b, 2, False, M),
    ("matmul", lambda a, b: a @ b.t(), 2, False, M), ("mm", lambda a, b: a.t().mm(b), 2, False, M),
    ("mv", lambda a, b: a.mv(b[0]), 2, False, M), ("dot", lambda a, b: a[0].dot(b[0]), 2, False, M),
    ("setitem", lambda a, b: _setitem(a, b), 2, False, M), ("copy_", lambda a, b: a.clone().copy_(b), 2, False, M),
    ("add_ into a clone", lambda a, b: a.clone().add_(b), 2, False, M),
    ("mse_loss", lambda a, b: F.mse_loss(a, b), 2, False, M),
    ("0-d mul", lambda a, b: a * b, 2, False, S), ("vector sum", lambda a: a.sum(), 1, False, V),
]


def _write_through_view(a):
    y = a * 1
    y[0].mul_(2)
    return y


def _setitem(a, b):
    y = a.clone()
    y[0] = b[1]
    return y


def arrays(shape, positive):
    lo = 0.5 if positive else -3.0
    return hnp.arrays(np.float64, shape, elements=st.floats(lo, 3.0, allow_nan=False, width=64))


class _RecordIncoming:
    """Engine observer: after each node runs, note the gradients it passes on
    (each array and a copy taken right then, before the nodes that receive
    them run); at the end each must still hold its values."""

    def __init__(self):
        self.seen = []

    def __call__(self, roots):
        return self

    def step(self, node, grad_outputs, grad_inputs):
        for g in grad_inputs:
            if g is not None:
                self.seen.append((node.name(), g, g.copy()))

    def end(self):
        pass


@pytest.mark.parametrize("name, op, n, positive, shape", OPS, ids=[o[0] for o in OPS])
@SETTINGS
@given(data=st.data())
def test_no_op_mutates_its_inputs_or_the_upstream_gradient(name, op, n, positive, shape, data):
    values = [data.draw(arrays(shape, positive)) for _ in range(n)]
    saved = [v.copy() for v in values]
    leaves = [torch.tensor(v, requires_grad=True) for v in values]
    out = op(*leaves)
    for v, s in zip(values, saved):
        assert np.array_equal(v, s), f"{name}: forward changed the array a tensor was made from"
    for leaf, s in zip(leaves, saved):
        assert np.array_equal(leaf.detach().numpy(), s), f"{name}: forward changed its input"

    upstream = data.draw(arrays(tuple(out.shape), False))
    gradient = torch.tensor(upstream)
    record = _RecordIncoming()
    handle = engine.add_observer(record)
    try:
        out.backward(gradient, retain_graph=True)
        out.backward(gradient)          # accumulates: writes through any .grad that aliases
    finally:
        handle.remove()
    assert np.array_equal(gradient.numpy(), upstream), f"{name}: backward changed the upstream gradient"
    for leaf, s in zip(leaves, saved):
        assert np.array_equal(leaf.detach().numpy(), s), f"{name}: backward changed its input"
    for node, g, copy in record.seen:
        assert np.array_equal(g, copy), f"{name}: the gradient {node} passed on was changed later"
    first = [leaf.grad.numpy().copy() for leaf in leaves]
    for leaf, g in zip(leaves, first):
        assert not np.shares_memory(leaf.grad.numpy(), upstream)
        assert g.shape == leaf.shape
