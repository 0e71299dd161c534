"""torch.utils.checkpoint off the happy path: gradients checked numerically,
nothing saved but tickets, nested and shared blocks, threads."""
import gc
import threading
import weakref

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck
from autograd_teach.utils.checkpoint import checkpoint


def rnd(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=torch.float64, requires_grad=True)


def block(x, w):
    return (x @ w).tanh() * x.sum() + w.exp().sum()


@pytest.mark.parametrize("reentrant", [False, True])
def test_gradcheck_through_a_checkpoint(reentrant):
    x, w = rnd(2, 3), rnd(3, 3, seed=1)
    assert gradcheck(lambda a, b: checkpoint(block, a, b, use_reentrant=reentrant), (x, w))


def test_gradgradcheck_through_a_checkpoint():
    x, w = rnd(2, 3), rnd(3, 3, seed=1)
    assert gradgradcheck(lambda a, b: checkpoint(block, a, b, use_reentrant=False), (x, w))


def test_the_graph_keeps_no_intermediate_tensor():
    seen = []

    def f(x):
        h = x.exp()
        seen.append(weakref.ref(h))
        return h.sin()

    x = rnd(3)
    y = checkpoint(f, x, use_reentrant=False)
    gc.collect()
    assert seen[0]() is None          # h is dead: the SinBackward0 node holds a ticket, not h
    y.sum().backward()
    assert torch.allclose(x.grad, x.exp().cos().detach() * x.exp().detach())


def test_nested_checkpoints_and_a_weight_shared_by_two_blocks():
    w = rnd(3, 3, seed=2)

    def outer(x):
        return checkpoint(block, checkpoint(block, x, w, use_reentrant=False), w, use_reentrant=False)

    x = rnd(2, 3)
    checkpoint(outer, x, use_reentrant=False).sum().backward()
    gx, gw = x.grad.clone(), w.grad.clone()
    x.grad = w.grad = None
    block(block(x, w), w).sum().backward()
    assert torch.allclose(gx, x.grad) and torch.allclose(gw, w.grad)


def test_checkpoints_in_threads():
    results, errors = [], []

    def work(seed):
        try:
            x, w = rnd(2, 3, seed=seed), rnd(3, 3, seed=seed + 10)
            g1 = torch.autograd.grad(checkpoint(block, x, w, use_reentrant=False).sum(), (x, w))
            g2 = torch.autograd.grad(block(x, w).sum(), (x, w))
            results.append(all(torch.allclose(a, b) for a, b in zip(g1, g2)))
        except Exception as e:     # noqa: BLE001 -- reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and results == [True] * 4


def test_a_block_that_returns_a_tuple_and_an_input_that_needs_no_grad():
    x, c = rnd(3), torch.ones(3, dtype=torch.float64)
    a, b = checkpoint(lambda p, q: (p * q, p.exp()), x, c, use_reentrant=False)
    (a + b).sum().backward()
    assert torch.allclose(x.grad, 1 + x.exp().detach())
