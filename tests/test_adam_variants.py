"""NAdam, RAdam and Adamax against their algorithms as PyTorch's docs write
them, in float64 numpy (an independent reading, not PyTorch's loop), and off
the happy path: an lr that is a Tensor, parameters without grad, zero grads.
The float32 bits against PyTorch are in tests/golden/programs/optim_nadam_radam_adamax.py."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import nn


def nadam_reference(theta, grads, lr, beta1, beta2, eps, wd, psi, decoupled):
    m = v = np.zeros_like(theta)
    mu_product = np.float32(1.0)
    for t, g in enumerate(grads, 1):
        if wd and decoupled:
            theta = theta - lr * wd * theta
        elif wd:
            g = g + wd * theta
        mu = beta1 * (1 - 0.5 * 0.96 ** (t * psi))
        mu_next = beta1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi))
        mu_product = np.float32(mu_product) * np.float32(mu)   # PyTorch keeps the product in a float32 tensor
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat = mu_next * m / (1 - float(mu_product) * mu_next) + (1 - mu) * g / (1 - float(mu_product))
        theta = theta - lr * m_hat / (np.sqrt(v / (1 - beta2 ** t)) + eps)
    return theta


def radam_reference(theta, grads, lr, beta1, beta2, eps, wd, decoupled):
    m = v = np.zeros_like(theta)
    rho_inf = 2 / (1 - beta2) - 1
    for t, g in enumerate(grads, 1):
        if wd and decoupled:
            theta = theta - lr * wd * theta
        elif wd:
            g = g + wd * theta
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat = m / (1 - beta1 ** t)
        rho = rho_inf - 2 * t * beta2 ** t / (1 - beta2 ** t)
        if rho > 5:
            l = np.sqrt(1 - beta2 ** t) / (np.sqrt(v) + eps)
            r = np.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho))
            theta = theta - lr * m_hat * l * r
        else:
            theta = theta - lr * m_hat
    return theta


def adamax_reference(theta, grads, lr, beta1, beta2, eps, wd):
    m = u = np.zeros_like(theta)
    for t, g in enumerate(grads, 1):
        g = g + wd * theta
        m = beta1 * m + (1 - beta1) * g
        u = np.maximum(beta2 * u, np.abs(g) + eps)
        theta = theta - lr / (1 - beta1 ** t) * m / u
    return theta


CASES = [
    ("NAdam", dict(lr=0.01), lambda th, gs: nadam_reference(th, gs, 0.01, 0.9, 0.999, 1e-8, 0, 4e-3, False)),
    ("NAdam", dict(lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, momentum_decay=0.01),
     lambda th, gs: nadam_reference(th, gs, 0.02, 0.8, 0.99, 1e-8, 0.1, 0.01, False)),
    ("NAdam", dict(lr=0.02, weight_decay=0.1, decoupled_weight_decay=True),
     lambda th, gs: nadam_reference(th, gs, 0.02, 0.9, 0.999, 1e-8, 0.1, 4e-3, True)),
    ("RAdam", dict(lr=0.01), lambda th, gs: radam_reference(th, gs, 0.01, 0.9, 0.999, 1e-8, 0, False)),
    ("RAdam", dict(lr=0.01, betas=(0.5, 0.9), eps=1e-3, weight_decay=0.05),
     lambda th, gs: radam_reference(th, gs, 0.01, 0.5, 0.9, 1e-3, 0.05, False)),
    ("RAdam", dict(lr=0.01, weight_decay=0.05, decoupled_weight_decay=True),
     lambda th, gs: radam_reference(th, gs, 0.01, 0.9, 0.999, 1e-8, 0.05, True)),
    ("Adamax", dict(lr=0.01), lambda th, gs: adamax_reference(th, gs, 0.01, 0.9, 0.999, 1e-8, 0)),
    ("Adamax", dict(lr=0.03, betas=(0.7, 0.9), eps=1e-2, weight_decay=0.2),
     lambda th, gs: adamax_reference(th, gs, 0.03, 0.7, 0.9, 1e-2, 0.2)),
]


@pytest.mark.parametrize("name,kwargs,reference", CASES)
def test_the_update_is_the_documented_algorithm(name, kwargs, reference):
    rng = np.random.default_rng(0)
    theta0 = rng.normal(size=7)
    grads = [rng.normal(size=7) for _ in range(25)]    # RAdam: the rectified steps start at step 6
    p = nn.Parameter(torch.tensor(theta0, dtype=torch.float64))
    opt = getattr(torch.optim, name)([p], **kwargs)
    for g in grads:
        p.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
    assert np.allclose(p.detach().numpy(), reference(theta0, grads), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adamax"])
def test_maximize_climbs_as_the_negated_gradient_descends(name):
    a = nn.Parameter(torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64))
    b = nn.Parameter(a.detach().clone())
    up, down = getattr(torch.optim, name)([a], maximize=True), getattr(torch.optim, name)([b])
    for _ in range(8):
        a.grad = a.detach() * 2
        b.grad = -b.detach() * 2
        up.step()
        down.step()
    assert np.array_equal(a.detach().numpy(), b.detach().numpy())


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adamax"])
def test_an_lr_tensor_of_the_params_dtype_gives_the_same_steps(name):
    rng = np.random.default_rng(1)
    grads = [rng.normal(size=4) for _ in range(10)]
    out = []
    for lr in (0.01, torch.tensor(0.01, dtype=torch.float64), torch.tensor([0.01], dtype=torch.float64)):
        p = nn.Parameter(torch.ones(4, dtype=torch.float64))
        opt = getattr(torch.optim, name)([p], lr=lr, weight_decay=0.1)
        for g in grads:
            p.grad = torch.tensor(g, dtype=torch.float64)
            opt.step()
        out.append(p.detach().numpy())
    assert np.array_equal(out[0], out[1]) and np.array_equal(out[0], out[2])


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adamax"])
def test_parameters_without_grad_are_left_alone_and_zero_grads_move_nothing(name):
    p, frozen = nn.Parameter(torch.ones(3)), nn.Parameter(torch.full((2,), 5.0))
    opt = getattr(torch.optim, name)([p, frozen])
    for _ in range(4):
        p.grad = torch.zeros(3)
        opt.step()
    assert p.tolist() == [1.0, 1.0, 1.0] and frozen.tolist() == [5.0, 5.0]
    assert frozen not in opt.state and opt.state[p]["step"].item() == 4.0
    assert np.isfinite(opt.state[p]["exp_avg"].numpy()).all()


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adamax"])
def test_a_nan_gradient_reaches_the_parameter_as_in_pytorch(name):
    p = nn.Parameter(torch.ones(2))
    opt = getattr(torch.optim, name)([p])
    p.grad = torch.tensor([float("nan"), 1.0])
    opt.step()
    assert np.isnan(p[0].item()) and np.isfinite(p[1].item())


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adamax"])
def test_bad_hyperparameters(name):
    make = getattr(torch.optim, name)
    w = nn.Parameter(torch.ones(1))
    for kwargs, text in [(dict(lr=-0.1), "Invalid learning rate: -0.1"),
                         (dict(eps=-1.0), "Invalid epsilon value: -1.0"),
                         (dict(betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
                         (dict(betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
                         (dict(weight_decay=-1e-3), "Invalid weight_decay value: -0.001"),
                         (dict(lr=torch.tensor([0.1, 0.2])), "Tensor lr must be 1-element")]:
        with pytest.raises(ValueError, match=text.replace("(", r"\(").replace(")", r"\)")):
            make([w], **kwargs)
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        make([])
