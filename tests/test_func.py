"""torch.func off the happy path: values against autograd.functional in float64,
compositions, a model's parameters, threads, and what the transforms leave behind."""
import gc
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import func
from autograd_teach.forward_mode import dual
from autograd_teach.autograd import functional as AF, gradcheck, gradgradcheck
from autograd_teach.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap


def rnd(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=torch.float64)


def f(x):
    return (x.tanh() * x.exp()).sum() + (x @ x) ** 1.5


def g(x):     # vector valued
    return torch.stack([x.sin().sum(), (x * x).prod(), x.softmax(0)[0]])


def test_the_transforms_agree_with_autograd_functional():
    x = rnd(4).abs() + 0.1
    assert torch.allclose(grad(f)(x), AF.jacobian(f, x))
    assert torch.allclose(jacrev(g)(x), AF.jacobian(g, x))
    assert torch.allclose(jacfwd(g)(x), AF.jacobian(g, x))
    assert torch.allclose(hessian(f)(x), AF.hessian(f, x))
    assert torch.allclose(jacrev(jacrev(f))(x), AF.hessian(f, x))
    v = rnd(4, seed=1)
    assert torch.allclose(jvp(g, (x,), (v,))[1], AF.jvp(g, x, v)[1])
    u = rnd(3, seed=2)
    assert torch.allclose(vjp(g, x)[1](u)[0], AF.vjp(g, x, u)[1])


def test_grad_of_grad_is_checked_numerically():
    x = (rnd(3).abs() + 0.1).requires_grad_()
    assert gradcheck(grad(f), (x,))
    assert gradgradcheck(grad(f), (x,))


def test_vmap_of_grad_is_one_grad_per_row_and_in_dims_may_be_negative():
    xs = rnd(5, 3).abs() + 0.1
    rows = torch.stack([grad(f)(r) for r in xs])
    assert torch.allclose(vmap(grad(f))(xs), rows)
    assert torch.allclose(vmap(grad(f), in_dims=-1)(xs.T), rows)
    assert torch.allclose(vmap(grad(f), out_dims=1)(xs), rows.T)


def test_per_example_gradients_of_a_model_with_shared_weights():
    lin = torch.nn.Linear(3, 3).double()
    xs, ys = rnd(4, 3), rnd(4, 3, seed=1)

    def loss(w, x, y):
        h = torch.nn.functional.linear(x, w, lin.bias)
        h = torch.nn.functional.linear(h.tanh(), w, lin.bias)    # w used twice
        return ((h - y) ** 2).sum()

    per_example = vmap(grad(loss), in_dims=(None, 0, 0))(lin.weight.detach(), xs, ys)
    for k in range(4):
        w = lin.weight.detach().clone().requires_grad_()
        loss(w, xs[k], ys[k]).backward()
        assert torch.allclose(per_example[k], w.grad)


def test_results_carry_no_history_unless_an_outer_tensor_requires_grad():
    x = rnd(3)
    assert grad(f)(x).grad_fn is None and jacrev(g)(x).grad_fn is None and hessian(f)(x.abs()).grad_fn is None
    w = rnd(3).requires_grad_()
    out = grad(lambda t: (t * w).sum() + f(t))(x.abs())
    assert out.grad_fn is not None
    out.sum().backward()           # d/dw of d/dt (t·w): ones
    assert torch.allclose(w.grad, torch.ones(3, dtype=torch.float64))


def test_nothing_is_left_behind():
    for _ in range(3):
        jacfwd(jacrev(f))(rnd(3).abs() + 0.1)
        grad(grad(lambda t: t.sin().sum()))(rnd(1)[0])
    gc.collect()
    assert not dual.levels and not func._made


def test_transforms_in_threads_at_once():
    results, errors = {}, []

    def work(k):
        try:
            x = rnd(3, seed=k).abs() + 0.1
            results[k] = (hessian(f)(x), jacfwd(g)(x), AF.hessian(f, x), AF.jacobian(g, x))
        except Exception as e:     # noqa: BLE001 -- reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    for h, j, h_ref, j_ref in results.values():
        assert torch.allclose(h, h_ref) and torch.allclose(j, j_ref)
    assert not dual.levels


def test_vjp_fn_may_be_called_again_and_checks_the_structure():
    out, fn = vjp(lambda a: (a.sin(), a * 2), rnd(2))
    first = fn((torch.ones(2, dtype=torch.float64), torch.zeros(2, dtype=torch.float64)))
    again = fn((torch.ones(2, dtype=torch.float64), torch.zeros(2, dtype=torch.float64)))
    assert torch.equal(first[0], again[0])
    with pytest.raises(RuntimeError, match="^Expected pytree structure of cotangents"):
        fn(torch.ones(2, dtype=torch.float64))


def test_jvp_of_a_function_that_ignores_its_input_is_zero():
    out, t = jvp(lambda a: torch.ones(2, dtype=torch.float64), (rnd(2),), (rnd(2, seed=1),))
    assert torch.equal(t, torch.zeros(2, dtype=torch.float64))


def test_vmap_of_an_empty_batch_says_why_it_cannot():
    with pytest.raises(ValueError, match="a batch of size 0"):
        vmap(torch.sin)(torch.ones(0, 2))
