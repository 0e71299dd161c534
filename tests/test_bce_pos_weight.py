"""binary_cross_entropy_with_logits with weight and pos_weight: the gradient
wrt input and target checked numerically in float64 (once and twice, and in
forward mode), broadcasting, and the misuse PyTorch refuses. The values and
errors against PyTorch are in tests/golden/programs/nn_bce_pos_weight.py."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck
from autograd_teach.func import jvp
from autograd_teach.nn import functional as F


def rnd(*shape, seed=0, low=None, high=None, grad=True):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape) * 2 if low is None else rng.uniform(low, high, size=shape)
    return torch.tensor(a, dtype=torch.float64, requires_grad=grad)


WEIGHTS = [
    ("pos_weight per class", dict(pos_weight=rnd(4, seed=2, low=0.2, high=4, grad=False))),
    ("pos_weight 0-d", dict(pos_weight=torch.tensor(3.0, dtype=torch.float64))),
    ("pos_weight full", dict(pos_weight=rnd(3, 4, seed=2, low=0.2, high=4, grad=False))),
    ("weight per class", dict(weight=rnd(4, seed=3, low=0, high=2, grad=False))),
    ("weight full", dict(weight=rnd(3, 4, seed=3, low=0, high=2, grad=False))),
    ("both", dict(weight=rnd(1, 4, seed=3, low=0, high=2, grad=False),
                  pos_weight=rnd(4, seed=2, low=0.2, high=4, grad=False))),
    ("pos_weight below 1, zero weight", dict(weight=torch.tensor([0.0, 1.0, 2.0, 0.5], dtype=torch.float64),
                                             pos_weight=torch.tensor([0.0, 0.5, 1.0, 10.0], dtype=torch.float64))),
]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name,kwargs", WEIGHTS, ids=[w[0] for w in WEIGHTS])
def test_gradients_wrt_input_and_target(name, kwargs, reduction):
    def f(x, t):
        return F.binary_cross_entropy_with_logits(x, t, reduction=reduction, **kwargs)
    inputs = (rnd(3, 4), rnd(3, 4, seed=1, low=0, high=1))
    assert gradcheck(f, inputs)
    assert gradgradcheck(f, inputs)
    # forward mode: the tangent against a central difference
    primals = tuple(a.detach() for a in inputs)
    tangents = (rnd(3, 4, seed=5, grad=False), rnd(3, 4, seed=6, grad=False))
    _, tangent = jvp(f, primals, tangents)
    eps = 1e-6
    ahead = f(*(p + eps * v for p, v in zip(primals, tangents)))
    behind = f(*(p - eps * v for p, v in zip(primals, tangents)))
    assert np.allclose(tangent.numpy(), ((ahead - behind) / (2 * eps)).numpy(), rtol=1e-6, atol=1e-8)


def test_large_logits_stay_finite():
    x = torch.tensor([-200.0, -30.0, 0.0, 30.0, 200.0], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([1.0, 0.0, 0.5, 1.0, 0.0], dtype=torch.float64, requires_grad=True)
    loss = F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor(2.0, dtype=torch.float64),
                                              reduction="sum")
    loss.backward()
    assert np.isfinite(loss.item()) and np.isfinite(x.grad.numpy()).all() and np.isfinite(t.grad.numpy()).all()
    # d/dx: (pw * t + 1 - t) * sigmoid(x) - pw * t
    sig = 1 / (1 + np.exp(-x.detach().numpy()))
    pt = 2 * t.detach().numpy()
    assert np.allclose(x.grad.numpy(), (pt + 1 - t.detach().numpy()) * sig - pt)


def test_pos_weight_one_and_weight_one_change_nothing():
    x, t = rnd(3, 4), rnd(3, 4, seed=1, low=0, high=1)
    plain = F.binary_cross_entropy_with_logits(x, t, reduction="none")
    ones = torch.ones(4, dtype=torch.float64)
    same = F.binary_cross_entropy_with_logits(x, t, weight=ones, pos_weight=ones, reduction="none")
    assert np.allclose(plain.detach().numpy(), same.detach().numpy(), rtol=1e-15, atol=0)


def test_weights_are_saved_and_not_differentiable():
    x, t = rnd(3, 4), rnd(3, 4, seed=1, low=0, high=1, grad=False)
    w, pw = torch.ones(4, dtype=torch.float64), torch.full((4,), 2.0, dtype=torch.float64)
    loss = F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=pw)
    assert loss.grad_fn._saved_weight is w and loss.grad_fn._saved_pos_weight is pw
    assert len(loss.grad_fn.next_functions) == 2
    for name in ("weight", "pos_weight"):
        with pytest.raises(RuntimeError, match=f"with respect to argument '{name}'"):
            F.binary_cross_entropy_with_logits(x, t, **{name: w.clone().requires_grad_()})
    with torch.no_grad():     # no graph, nothing refused
        F.binary_cross_entropy_with_logits(x, t, pos_weight=pw.clone().requires_grad_())


@pytest.mark.parametrize("kwargs,message", [
    (dict(pos_weight=torch.ones(5)), "The size of tensor a (5) must match the size of tensor b (4)"),
    (dict(weight=torch.ones(5)), "The size of tensor a (4) must match the size of tensor b (5)"),
    (dict(pos_weight=torch.ones(2, 3, 4)), "output with shape [3, 4] doesn't match the broadcast shape [2, 3, 4]"),
    (dict(weight=torch.ones(2, 1, 4)), "output with shape [3, 4] doesn't match the broadcast shape [2, 3, 4]"),
])
def test_shapes_that_do_not_broadcast_into_the_loss(kwargs, message):
    with pytest.raises(RuntimeError) as e:
        F.binary_cross_entropy_with_logits(torch.zeros(3, 4), torch.zeros(3, 4), **kwargs)
    assert message in str(e.value)
