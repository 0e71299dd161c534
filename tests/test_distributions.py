"""torch.distributions beyond what the goldens print (the goldens,
tests/golden/programs/distributions_*.py, hold PyTorch 2.13's values, nodes,
gradients, seeded samples and error texts): the gradients checked
numerically in float64, and the shapes, dtypes and degenerate parameters a
learner meets off the happy path."""
import math

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck
from autograd_teach.distributions import (Bernoulli, Categorical, Distribution, Multinomial, Normal, Uniform,
                                          kl_divergence, register_kl)
from autograd_teach.distributions.kl import _KL_MEMOIZE, _KL_REGISTRY

F64 = torch.float64


def leaf(*values):
    return torch.tensor(values, dtype=F64, requires_grad=True)


LOC, SCALE = (0.3, -1.0, 2.0), (0.5, 1.5, 3.0)
X = torch.tensor([0.1, -2.0, 4.0], dtype=F64)
Q = torch.tensor([0.05, 0.5, 0.9], dtype=F64)

# (name, function of the parameters, the parameters): every function of a
# distribution that gradients flow through
GRADIENT_CASES = [
    ("normal.log_prob", lambda m, s: Normal(m, s).log_prob(X), (LOC, SCALE)),
    ("normal.cdf", lambda m, s: Normal(m, s).cdf(X), (LOC, SCALE)),
    ("normal.icdf", lambda m, s: Normal(m, s).icdf(Q), (LOC, SCALE)),
    ("normal.entropy", lambda m, s: Normal(m, s).entropy(), (LOC, SCALE)),
    ("normal.log_prob.value", lambda x: Normal(0.5, 2.0).log_prob(x), ((0.1, -2.0, 4.0),)),
    ("normal.icdf.value", lambda q: Normal(0.5, 2.0).icdf(q), ((0.05, 0.5, 0.9),)),
    ("normal.kl", lambda m, s, m2, s2: kl_divergence(Normal(m, s), Normal(m2, s2)), (LOC, SCALE, (1.0, 0.0, -1.0),
                                                                                      (1.0, 0.7, 2.0))),
    # PyTorch's Bregman form detaches p's parameters: gradients reach q's only
    ("normal.kl.bregman", lambda m, s: _bregman(Normal(0.5, 1.5), Normal(m, s)), (LOC, SCALE)),
    ("normal.broadcast", lambda m, s: Normal(m.unsqueeze(-1), s).log_prob(X), ((0.2, -0.4), SCALE)),
    ("bernoulli.log_prob", lambda p: Bernoulli(p).log_prob(torch.tensor([1.0, 0.0, 1.0], dtype=F64)),
     ((0.2, 0.5, 0.9),)),
    ("bernoulli.entropy", lambda p: Bernoulli(p).entropy(), ((0.2, 0.5, 0.9),)),
    ("bernoulli.logits.log_prob", lambda z: Bernoulli(logits=z).log_prob(torch.tensor([1.0, 0.0, 1.0], dtype=F64)),
     ((-3.0, 0.0, 2.5),)),
    ("bernoulli.logits.entropy", lambda z: Bernoulli(logits=z).entropy(), ((-3.0, 0.0, 2.5),)),
    ("bernoulli.kl", lambda p, q: kl_divergence(Bernoulli(p), Bernoulli(q)), ((0.2, 0.5, 0.9), (0.3, 0.6, 0.1))),
    ("uniform.log_prob", lambda a, b: Uniform(a, b).log_prob(torch.tensor([0.5, 0.0, 2.5], dtype=F64)),
     ((0.0, -1.0, 2.0), (1.0, 1.0, 3.0))),
    ("uniform.cdf", lambda a, b: Uniform(a, b).cdf(torch.tensor([0.5, 0.0, 2.5], dtype=F64)),
     ((0.0, -1.0, 2.0), (1.0, 1.0, 3.0))),
    ("uniform.icdf", lambda a, b: Uniform(a, b).icdf(Q), ((0.0, -1.0, 2.0), (1.0, 1.0, 3.0))),
    ("uniform.entropy", lambda a, b: Uniform(a, b).entropy(), ((0.0, -1.0, 2.0), (1.0, 1.0, 3.0))),
    ("uniform.kl", lambda a, b: kl_divergence(Uniform(a, b), Uniform(-2.0, 4.0)), ((0.0, -1.0, 2.0), (1.0, 1.0, 3.0))),
    ("uniform.normal.kl", lambda a, b, s: kl_divergence(Uniform(a, b), Normal(0.5, s)),
     ((0.0, -1.0, 2.0), (1.0, 1.0, 3.0), (1.0, 2.0, 0.5))),
    ("categorical.log_prob", lambda w: Categorical(w).log_prob(torch.tensor([0, 2, 1, 2])), ((1.0, 2.0, 5.0),)),
    ("categorical.entropy", lambda w: Categorical(w).entropy(), ((1.0, 2.0, 5.0),)),
    ("categorical.logits.log_prob", lambda z: Categorical(logits=z.reshape(2, 3)).log_prob(torch.tensor([2, 0])),
     ((0.5, -1.0, 2.0, 0.0, 0.1, 0.2),)),
    ("categorical.logits.entropy", lambda z: Categorical(logits=z.reshape(2, 3)).entropy(),
     ((0.5, -1.0, 2.0, 0.0, 0.1, 0.2),)),
    ("categorical.kl", lambda w, v: kl_divergence(Categorical(w), Categorical(logits=v)), ((1.0, 2.0, 5.0),
                                                                                          (0.3, -0.2, 0.0))),
    ("multinomial.logits.log_prob", lambda z: Multinomial(5, logits=z.reshape(2, 3)).log_prob(
        torch.tensor([[1.0, 2.0, 2.0], [0.0, 0.0, 5.0]], dtype=F64)), ((0.5, -1.0, 2.0, 0.0, 0.1, 0.2),)),
    ("multinomial.probs.log_prob", lambda w: Multinomial(4, probs=w).log_prob(torch.tensor([1.0, 3.0, 0.0], dtype=F64)),
     ((1.0, 2.0, 5.0),)),
    ("multinomial.probs.entropy", lambda w: Multinomial(4, probs=w.reshape(2, 2)).entropy(), ((1.0, 2.0, 0.3, 0.6),)),
    ("multinomial.logits.entropy", lambda z: Multinomial(3, logits=z).entropy(), ((0.5, -1.0, 2.0),)),
]


def _bregman(p, q):
    from autograd_teach.distributions.exp_family import bregman_kl
    return bregman_kl(p, q)


@pytest.mark.parametrize("name,f,params", GRADIENT_CASES, ids=[c[0] for c in GRADIENT_CASES])
def test_gradients_are_the_numerical_ones(name, f, params):
    inputs = [leaf(*p) for p in params]
    assert gradcheck(f, inputs)
    assert gradgradcheck(f, inputs)


def seeded(f, seed=5):
    """f with the generator reseeded on each call: one noise, as gradcheck needs."""
    def run(*args):
        torch.manual_seed(seed)
        return f(*args)
    return run


@pytest.mark.parametrize("shape", [(), (2,), (2, 3), (7, 3)])    # 7 * 3 = 21: the 16-wide normal kernel
def test_rsample_is_differentiable_in_its_parameters(shape):
    loc, scale = leaf(*LOC), leaf(*SCALE)
    assert gradcheck(seeded(lambda m, s: Normal(m, s).rsample(shape)), [loc, scale])
    assert gradgradcheck(seeded(lambda m, s: Normal(m, s).rsample(shape)), [loc, scale])
    low, high = leaf(0.0, -1.0, 2.0), leaf(1.0, 1.0, 3.0)
    assert gradcheck(seeded(lambda a, b: Uniform(a, b).rsample(shape)), [low, high])


def test_rsample_is_loc_plus_noise_times_scale():
    """The reparameterisation: d/dloc = 1 and d/dscale = the noise drawn."""
    loc, scale = leaf(1.0, 2.0), leaf(0.5, 3.0)
    torch.manual_seed(7)
    x = Normal(loc, scale).rsample((4,))
    torch.manual_seed(7)
    eps = torch.randn(4, 2, dtype=F64)
    assert np.array_equal(x.detach().numpy(), (loc.detach() + eps * scale.detach()).numpy())
    g_loc, g_scale = torch.autograd.grad(x.sum(), (loc, scale))
    assert g_loc.tolist() == [4.0, 4.0]
    assert np.allclose(g_scale.numpy(), eps.sum(0).numpy())


@pytest.mark.parametrize("sample_shape", [(), (0,), (2, 3), torch.Size([4])])
def test_samples_have_sample_shape_plus_batch_shape(sample_shape):
    dists = [Normal(torch.zeros(2, 1), torch.ones(3)), Uniform(torch.zeros(2, 3), 1.0),
             Bernoulli(torch.full((2, 3), 0.5)), Categorical(torch.ones(2, 3, 4))]
    for d in dists:
        assert d.batch_shape == (2, 3) and d.event_shape == ()
        if isinstance(d, Categorical) and sample_shape == (0,):
            with pytest.raises(RuntimeError, match="cannot sample n_sample <= 0 samples"):   # as PyTorch
                d.sample(sample_shape)
            continue
        assert d.sample(sample_shape).shape == tuple(sample_shape) + (2, 3)
        if d.has_rsample:
            assert d.rsample(sample_shape).shape == tuple(sample_shape) + (2, 3)


def test_scalar_parameters_give_scalar_batch_and_default_dtype():
    for d in (Normal(0.0, 1.0), Uniform(0, 1), Bernoulli(0.3)):
        assert d.batch_shape == () and d.sample().shape == () and d.sample().dtype == torch.float32
        assert d.sample((3,)).shape == (3,)
    assert Normal(torch.tensor(0.0), 1.0).batch_shape == ()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_samples_take_the_parameters_dtype(dtype):
    for d in (Normal(torch.zeros(3, dtype=dtype), 1.0), Uniform(torch.zeros(3, dtype=dtype), 2.0),
              Bernoulli(torch.full((3,), 0.5, dtype=dtype))):
        assert d.sample((2,)).dtype == dtype
        assert d.log_prob(d.sample()).dtype == dtype and d.entropy().dtype == dtype
    assert Categorical(torch.ones(3)).sample((2,)).dtype == torch.int64   # (float64 draws: compat/sampling.py's limits)
    assert Categorical(torch.ones(3, dtype=dtype)).entropy().dtype == dtype


def test_seeded_samples_repeat_and_do_not_record_a_graph():
    loc = leaf(0.0, 1.0)
    for d in (Normal(loc, 1.0), Uniform(loc, 2.0), Bernoulli(torch.tensor([0.2, 0.7])),
              Categorical(torch.tensor([0.2, 0.3, 0.5]))):
        torch.manual_seed(11)
        a = d.sample((5,))
        torch.manual_seed(11)
        b = d.sample((5,))
        assert torch.equal(a, b) and a.grad_fn is None and not a.requires_grad


def test_nan_parameters_are_refused_when_validated_and_flow_through_when_not():
    nan = math.nan
    for make in (lambda v: Normal(torch.tensor([0.0, nan]), 1.0, validate_args=v),
                 lambda v: Normal(0.0, torch.tensor([1.0, nan]), validate_args=v),
                 lambda v: Uniform(torch.tensor([0.0, nan]), 1.0, validate_args=v),
                 lambda v: Bernoulli(torch.tensor([0.5, nan]), validate_args=v),
                 lambda v: Categorical(logits=torch.tensor([0.0, nan]), validate_args=v)):
        with pytest.raises(ValueError, match="to satisfy the constraint"):
            make(True)
        d = make(False)
        value = torch.tensor([0.0, 1.0])
        assert d.log_prob(value).isnan().any() or d.entropy().isnan().any()


def test_validation_can_be_switched_off_for_all_and_back():
    Distribution.set_default_validate_args(False)
    try:
        assert Normal(0.0, -1.0).log_prob(torch.tensor(0.0)).isnan()
    finally:
        Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        Normal(0.0, -1.0)
    with pytest.raises(ValueError):
        Distribution.set_default_validate_args("yes")


def test_value_outside_the_support_has_log_prob_minus_inf_when_not_validated():
    assert Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor(2.0)).item() == -math.inf
    assert Bernoulli(0.3, validate_args=False).log_prob(torch.tensor(0.5)).isfinite()


def test_kl_registry_picks_the_most_specific_pair_and_forgets_on_register():
    class MyNormal(Normal):
        pass

    before = dict(_KL_REGISTRY)
    try:
        base = kl_divergence(MyNormal(0.0, 1.0), Normal(1.0, 2.0))
        assert torch.equal(base, kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)))
        register_kl(MyNormal, Normal)(lambda p, q: torch.tensor(-1.0))
        assert kl_divergence(MyNormal(0.0, 1.0), Normal(1.0, 2.0)).item() == -1.0
        with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type "
                                                      "Categorical and q type Uniform"):
            kl_divergence(Categorical(torch.ones(2)), Uniform(0.0, 1.0))
    finally:
        _KL_REGISTRY.clear()
        _KL_REGISTRY.update(before)
        _KL_MEMOIZE.clear()


def test_kl_of_a_distribution_with_itself_is_zero_and_inf_outside_the_support():
    assert kl_divergence(Normal(0.3, 2.0), Normal(0.3, 2.0)).item() == 0.0
    assert kl_divergence(Uniform(0.0, 2.0), Uniform(0.5, 2.0)).item() == math.inf
    assert kl_divergence(Bernoulli(0.5), Bernoulli(0.0)).item() == math.inf
    assert kl_divergence(Bernoulli(0.0), Bernoulli(0.5)).item() == pytest.approx(math.log(2))


def test_entropy_by_the_bregman_form_agrees_with_the_closed_form():
    """ExponentialFamily.entropy (autograd of the log normalizer) against Normal's own formula."""
    from autograd_teach.distributions.exp_family import ExponentialFamily
    d = Normal(torch.tensor([0.0, 1.0], dtype=F64), torch.tensor([0.5, 3.0], dtype=F64))
    assert np.allclose(ExponentialFamily.entropy(d).detach().numpy(), d.entropy().numpy())
    assert np.allclose(_bregman(d, Normal(1.0, 2.0)).detach().numpy(),
                       kl_divergence(d, Normal(1.0, 2.0)).numpy())


def test_expand_shares_the_parameters_and_keeps_validation():
    loc = leaf(0.0, 1.0)
    d = Normal(loc, 1.0, validate_args=False).expand((3, 2))
    assert d.batch_shape == (3, 2) and d.loc.shape == (3, 2) and not d._validate_args
    torch.autograd.grad(d.log_prob(torch.zeros(3, 2, dtype=F64)).sum(), loc)
    c = Categorical(logits=torch.zeros(4)).expand((2,))
    assert c.batch_shape == (2,) and c.logits.shape == (2, 4) and c.sample((5,)).shape == (5, 2)


def test_multinomial_is_a_distribution_with_an_event_shape():
    m = Multinomial(10, torch.tensor([1.0, 1.0, 2.0]))
    assert isinstance(m, Distribution) and m.event_shape == (3,) and m.batch_shape == ()
    assert m.sample((4,)).shape == (4, 3) and m.sample((4,)).sum(-1).tolist() == [10.0] * 4
    assert m.mean.tolist() == [2.5, 2.5, 5.0]


def test_erfinv_inverts_erf_and_matches_at_the_ends():
    y = torch.tensor([-1.0, -0.999, -0.5, 0.0, 0.3, 0.9999, 1.0, 1.5, math.nan], dtype=F64)
    x = torch.erfinv(y)
    assert x[0].item() == -math.inf and x[6].item() == math.inf and x[7].isnan() and x[8].isnan()
    assert np.allclose(torch.erf(x[1:6]).numpy(), y[1:6].numpy(), rtol=1e-15, atol=1e-15)
    assert torch.erfinv(torch.tensor(0.5)).dtype == torch.float32
