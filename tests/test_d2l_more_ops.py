"""round(decimals=), div(rounding_mode=), logcumsumexp, bernoulli, unique:
gradients checked numerically, extreme inputs, and errors."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck


def rnd(*shape, seed=0, scale=1.0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape) * scale, dtype=torch.float64,
                        requires_grad=True)


def test_logcumsumexp_gradients_and_no_overflow():
    x = rnd(3, 4)
    assert gradcheck(lambda t: t.logcumsumexp(1), (x,))
    assert gradgradcheck(lambda t: t.logcumsumexp(0), (x,))
    big = torch.tensor([1000.0, 1000.0, -1000.0], dtype=torch.float64, requires_grad=True)
    y = big.logcumsumexp(0)
    assert np.allclose(y.detach().numpy(), [1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2)])
    g = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)
    y.backward(g)
    assert np.all(np.isfinite(big.grad.numpy()))
    assert np.allclose(big.grad.numpy(), [1 - 1 + 1.5, -1 + 1.5, 0.0])


def test_logcumsumexp_of_minus_infinity_and_of_a_scalar():
    x = torch.tensor([-float("inf"), 0.0], requires_grad=True)
    y = x.logcumsumexp(0)
    y.sum().backward()
    assert y.tolist() == [-float("inf"), 0.0]
    assert np.isnan(x.grad[0].item()) and x.grad[1].item() == 1.0       # PyTorch's too: exp(-inf - -inf)
    s = torch.tensor(2.0, requires_grad=True)
    assert s.logcumsumexp(0).item() == 2.0


def test_div_rounding_modes_on_integers_and_floats():
    a, b = torch.tensor([7, -7, 7, -7]), torch.tensor([2, 2, -2, -2])
    assert a.div(b, rounding_mode="trunc").tolist() == [3, -3, -3, 3]
    assert a.div(b, rounding_mode="floor").tolist() == [3, -4, -4, 3]
    assert a.div(b, rounding_mode=None).dtype == torch.float32
    x = rnd(5, scale=3)
    y = torch.tensor([0.7, -1.3, 2.0, -0.4, 1.1], dtype=torch.float64)
    assert torch.equal(x.div(y, rounding_mode="floor"), torch.tensor(np.floor_divide(x.detach().numpy(), y.numpy())))
    assert gradcheck(lambda t: t.div(y, rounding_mode=None), (x,))
    assert gradgradcheck(lambda t, u: t.div(u, rounding_mode=None), (x, y.clone().requires_grad_()))


def test_round_with_decimals_is_flat():
    x = rnd(4)
    y = x.round(decimals=3)
    y.sum().backward()
    assert x.grad.tolist() == [0.0] * 4
    assert np.allclose(y.detach().numpy(), np.round(x.detach().numpy(), 3))
    with pytest.raises(NotImplementedError, match="\"round_cpu\" not implemented for 'Long'"):
        torch.tensor([15]).round(decimals=-1)


def test_bernoulli_frequencies_errors_and_zero_gradient():
    torch.manual_seed(0)
    p = torch.full((20000,), 0.3, requires_grad=True)
    s = torch.bernoulli(p)
    assert abs(s.mean().item() - 0.3) < 0.02 and set(s.unique().tolist()) <= {0.0, 1.0}
    s.sum().backward()
    assert p.grad.abs().sum().item() == 0
    with pytest.raises(RuntimeError, match=r"^Expected p_in >= 0 && p_in <= 1 to be true"):
        torch.bernoulli(torch.tensor([1.5]))
    assert torch.bernoulli(torch.tensor([0.0, 1.0])).tolist() == [0.0, 1.0]


def test_unique_backward_raises_pytorchs_error():
    x = torch.tensor([2.0, 1.0, 2.0], requires_grad=True)
    for u, op in ((torch.unique(x), "_unique2"), (torch.unique(x.view(3, 1), dim=0), "unique_dim"),
                  (torch.unique_consecutive(x), "unique_consecutive")):
        with pytest.raises(NotImplementedError, match=f"^the derivative for '{op}' is not implemented.$"):
            u.sum().backward()


def test_unique_of_empty_and_nan():
    values, counts = torch.unique(torch.tensor([], dtype=torch.int64), return_counts=True)
    assert values.shape == (0,) and counts.shape == (0,)
    out = torch.unique(torch.tensor([float("nan"), 1.0, float("nan")]))
    assert out.shape == (3,)      # NaNs stay distinct, as in PyTorch


def test_embedding_from_pretrained_shares_freezes_and_differentiates():
    table = torch.tensor(np.arange(12.0).reshape(4, 3), dtype=torch.float64)
    frozen = torch.nn.Embedding.from_pretrained(table)
    assert not frozen.weight.requires_grad and frozen(torch.tensor([1])).grad_fn is None
    table[1, 0] = -1.0
    assert frozen.weight[1, 0].item() == -1.0            # the same storage
    trained = torch.nn.Embedding.from_pretrained(table.clone(), freeze=False, padding_idx=0)
    idx = torch.tensor([0, 2, 2, 3])
    assert gradcheck(lambda w: torch.nn.functional.embedding(idx, w), (trained.weight,))   # (padding: no gradient by design)
    trained(idx).sum().backward()
    assert trained.weight.grad[0].abs().sum().item() == 0 and trained.weight.grad[2].tolist() == [2.0] * 3
