"""Forward-mode AD (torch.autograd.forward_ad) off the happy path: levels and
threads, memory, shared inputs, in-place writes through views, empty and NaN
tensors, reverse over forward checked numerically, custom Functions."""
import gc
import threading
import weakref

import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.autograd.forward_ad as fwAD
from autograd_teach.forward_mode import dual
from autograd_teach.autograd import gradcheck, gradgradcheck


def f64(*values):
    return torch.tensor(values, dtype=torch.float64)


def jvp_of(f, x, v):
    with fwAD.dual_level():
        return fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent


def test_a_shared_input_gets_the_product_rule():
    x, v = f64(1.0, -2.0, 3.0), f64(1.0, 1.0, 1.0)
    t = jvp_of(lambda d: d * d * d, x, v)
    assert np.allclose(t.numpy(), 3 * x.numpy() ** 2)


def test_the_tangent_of_a_loop_and_of_a_tensor_used_many_times():
    x, v = f64(0.5), f64(1.0)

    def f(d):
        y = d
        for _ in range(20):
            y = y * d
        return y
    assert np.isclose(jvp_of(f, x, v).item(), 21 * 0.5 ** 20)


def test_empty_and_nan_tensors():
    e = torch.zeros(0, 3, dtype=torch.float64)
    t = jvp_of(lambda d: (d.exp() * 2).sum(0), e, torch.ones(0, 3, dtype=torch.float64))
    assert t.shape == (3,) and np.all(t.numpy() == 0)
    t = jvp_of(lambda d: d.log(), f64(float("nan"), 1.0), f64(1.0, 1.0))
    assert np.isnan(t.numpy()[0]) and t.numpy()[1] == 1.0


def test_leaving_the_level_forgets_every_tangent_and_keeps_no_tensor_alive():
    with fwAD.dual_level():
        d = fwAD.make_dual(f64(1.0), f64(2.0))
        y = d * 3
        ref = weakref.ref(y)
        level = dual.levels[-1]
        del y
        gc.collect()
        assert ref() is None and len(level.tangents) == 1    # only d's entry is left
    assert fwAD.unpack_dual(d).tangent is None and "tangent" not in repr(d)
    assert not level.tangents and not dual.levels


def test_a_level_is_global_another_thread_may_not_nest_one():
    errors, seen = [], []

    def other():
        try:
            with fwAD.dual_level():
                pass
        except RuntimeError as e:
            errors.append(str(e))
        seen.append(fwAD.unpack_dual(d).tangent)     # the tangents are visible from every thread, as in PyTorch

    with fwAD.dual_level():
        d = fwAD.make_dual(f64(1.0), f64(2.0))
        th = threading.Thread(target=other)
        th.start()
        th.join()
    assert errors == ["Nested forward mode AD is not supported at the moment"]
    assert seen[0].item() == 2.0


def test_threads_computing_tangents_at_once_do_not_mix_them():
    results = {}
    with fwAD.dual_level():
        xs = {k: fwAD.make_dual(torch.full((50,), float(k), dtype=torch.float64), torch.ones(50, dtype=torch.float64))
              for k in range(4)}

        def run(k):
            y = xs[k]
            for _ in range(30):
                y = y.sin() + xs[k]
            results[k] = fwAD.unpack_dual(y).tangent

        threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    for k in range(4):          # the chain rule by hand: y <- sin(y) + x, so t <- cos(y) t + 1
        y, t = float(k), 1.0
        for _ in range(30):
            y, t = np.sin(y) + k, np.cos(y) * t + 1
        assert np.allclose(results[k].numpy(), t)


def test_in_place_on_a_view_moves_the_base_tangent():
    with fwAD.dual_level():
        base = torch.zeros(2, 3, dtype=torch.float64)
        row = base[1]
        row.copy_(fwAD.make_dual(f64(1.0, 2.0, 3.0), f64(4.0, 5.0, 6.0)))
        assert np.array_equal(fwAD.unpack_dual(base).tangent.numpy(), [[0, 0, 0], [4, 5, 6]])
        col = base[:, 0]
        col.mul_(2)
        assert np.array_equal(fwAD.unpack_dual(base).tangent.numpy(), [[0, 0, 0], [8, 5, 6]])
        assert np.array_equal(fwAD.unpack_dual(row).tangent.numpy(), [8, 5, 6])


def test_reverse_over_forward_is_the_derivative_of_the_tangent():
    """d/dx of (J(x)·v) checked by finite differences, and its second derivative too."""
    v = f64(0.5, -1.0, 2.0)

    def tangent(x):
        with fwAD.dual_level():
            y = (fwAD.make_dual(x, v).tanh() * x).sum()
            return fwAD.unpack_dual(y).tangent

    x = f64(0.3, -0.7, 1.1).requires_grad_()
    assert gradcheck(tangent, (x,))
    assert gradgradcheck(tangent, (x,))


def test_an_error_mid_way_leaves_no_level_behind():
    with pytest.raises(ZeroDivisionError):
        with fwAD.dual_level():
            fwAD.make_dual(f64(1.0), f64(1.0))
            1 / 0
    assert not dual.levels
    with fwAD.dual_level() as level:
        assert level == 0


def test_misuse():
    with pytest.raises(RuntimeError, match="^Trying to create a dual Tensor for forward AD but no level exists"):
        fwAD.make_dual(f64(1.0), f64(1.0))
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="^Trying to exit a forward AD level that was not the last one"):
            fwAD.exit_dual_level(level=3)
        with pytest.raises(TypeError, match=r"^_unpack_dual\(\): argument 'dual' \(position 1\) must be Tensor, not int"):
            fwAD.unpack_dual(3)


@pytest.mark.parametrize("thing", [3, 2.5, None, [1.0, 2.0], "ab", f64(1.0)])
def test_outside_a_level_unpack_dual_returns_anything_as_it_is(thing):
    """PyTorch's unpack_dual returns (its argument, None) when no level exists
    (or a negative one is asked for), before looking at what the argument is."""
    for kwargs in ({}, {"level": -1}):
        primal, tangent = fwAD.unpack_dual(thing, **kwargs)
        assert primal is thing and tangent is None
    with fwAD.dual_level():
        assert fwAD.unpack_dual(thing, level=-1).primal is thing


def test_a_named_level_wants_a_tensor_and_views_it_even_when_it_does_not_exist():
    x = f64(1.0, 2.0).requires_grad_()
    with pytest.raises(TypeError, match=r"argument 'dual' \(position 1\) must be Tensor, not NoneType"):
        fwAD.unpack_dual(None, level=0)
    primal, tangent = fwAD.unpack_dual(x, level=0)
    assert primal is not x and primal._base is x and tangent is None
    assert primal.grad_fn.name() == "torch::autograd::Identity"
    primal.sum().backward()
    assert np.array_equal(x.grad.numpy(), [1.0, 1.0])


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

    @staticmethod
    def jvp(ctx, t, _):
        return t * ctx.k


def test_a_custom_function_gives_its_tangent_and_its_forward_records_none():
    with fwAD.dual_level():
        d = fwAD.make_dual(f64(1.0, 2.0), f64(1.0, -1.0))
        y = Scale.apply(d, 3.0)
        assert np.array_equal(fwAD.unpack_dual(y).tangent.numpy(), [3.0, -3.0])
        assert fwAD.unpack_dual(Scale.apply(f64(1.0), 3.0)).tangent is None


@pytest.mark.parametrize("training", [True, False])
def test_forward_over_reverse_through_batch_norms_backward_is_the_hessian_times_v(training):
    """NativeBatchNormBackwardBackward0 (batch_norm's backward, recorded with
    create_graph=True) has several outputs and no rule: its tangents come from
    its rules computed again on the dual inputs. They must be H·v, which
    reverse over reverse gives too (its own double backward)."""
    rng = np.random.default_rng(3)
    x, v = (torch.tensor(rng.standard_normal((5, 3)), dtype=torch.float64) for _ in range(2))
    w = torch.tensor(rng.standard_normal(3), dtype=torch.float64, requires_grad=True)
    stats = (None, None) if training else (torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64),
                                           torch.tensor([2.0, 0.25, 1.0], dtype=torch.float64))

    def loss(d):
        y = torch.nn.functional.batch_norm(d, *stats, w, training=training)
        return (y * y * y).sum()
    with fwAD.dual_level():
        d = fwAD.make_dual(x.clone().requires_grad_(), v)
        (g,) = torch.autograd.grad(loss(d), d, create_graph=True)
        assert type(g.grad_fn).__name__ == "NativeBatchNormBackwardBackward0"
        hv_forward = fwAD.unpack_dual(g).tangent
    xr = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(loss(xr), xr, create_graph=True)
    (hv_reverse,) = torch.autograd.grad((g * v).sum(), xr)
    assert hv_forward is not None
    np.testing.assert_allclose(hv_forward.detach().numpy(), hv_reverse.numpy(), rtol=1e-10, atol=1e-10)
