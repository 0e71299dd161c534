"""Finite differences in float64 for every op added for torch.nn and the
next chapters (issue 8): addmm / linear, softmax, log_softmax, nll_loss,
cross_entropy, binary_cross_entropy, l1_loss, cat, stack, where, masked_fill,
prod, var, std, remainder, outer, the in-place methods, dropout (a fixed
mask: the generator is re-seeded before each evaluation) and torch.normal's
(zero) gradient. Each case is one test id; the last tests show the checks can fail."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import ops
from autograd_teach.autograd import GradcheckError, gradcheck

from test_gradcheck import inplace, pos, rnd

F = torch.nn.functional
TARGET = torch.tensor([2, 0, 1])
PROBS = torch.tensor([[0.1, 0.2, 0.3, 0.4], [1.0, 0.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]], dtype=torch.float64)
PROB_T = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=torch.float64)


def prob(*shape, seed=0):
    return rnd(*shape, low=0.1, high=0.9, seed=seed, away=0.0)


CASES = [
    ("addmm", lambda b, x, w: torch.addmm(b, x, w), lambda: (rnd(2), rnd(3, 4, seed=1), rnd(4, 2, seed=2))),
    ("addmm_beta_alpha", lambda b, x, w: torch.addmm(b, x, w, beta=0.5, alpha=-2),
     lambda: (rnd(3, 2), rnd(3, 4, seed=1), rnd(4, 2, seed=2))),
    ("linear_2d", F.linear, lambda: (rnd(3, 4), rnd(2, 4, seed=1), rnd(2, seed=2))),
    ("linear_1d", F.linear, lambda: (rnd(4), rnd(2, 4, seed=1), rnd(2, seed=2))),
    ("linear_3d", F.linear, lambda: (rnd(2, 3, 4), rnd(2, 4, seed=1), rnd(2, seed=2))),
    ("linear_no_bias_3d", F.linear, lambda: (rnd(2, 3, 4), rnd(2, 4, seed=1))),
    ("linear_small_k", F.linear, lambda: (rnd(5, 2), rnd(3, 2, seed=1), rnd(3, seed=2))),
    ("mm_small_k", torch.mm, lambda: (rnd(4, 3), rnd(3, 2, seed=1))),
    ("leaky_relu", lambda a: F.leaky_relu(a, 0.2), lambda: (rnd(3, 4),)),
    ("leaky_relu_module_inplace", lambda a: torch.nn.LeakyReLU(0.1, inplace=True)(a * 1), lambda: (rnd(5),)),
    ("softmax_dim1", lambda a: a.softmax(1), lambda: (rnd(3, 4),)),
    ("softmax_dim0", lambda a: torch.softmax(a, 0), lambda: (rnd(3, 4),)),
    ("softmax_1d", lambda a: F.softmax(a, dim=-1), lambda: (rnd(5),)),
    ("log_softmax_dim1", lambda a: a.log_softmax(1), lambda: (rnd(3, 4),)),
    ("log_softmax_dim0", lambda a: F.log_softmax(a, dim=0), lambda: (rnd(2, 3, 2),)),
    ("nll_loss_mean", lambda a: F.nll_loss(a, TARGET), lambda: (rnd(3, 4),)),
    ("nll_loss_sum", lambda a: F.nll_loss(a, TARGET, reduction="sum"), lambda: (rnd(3, 4),)),
    ("nll_loss_none", lambda a: F.nll_loss(a, TARGET, reduction="none"), lambda: (rnd(3, 4),)),
    ("nll_loss_weight", lambda a: F.nll_loss(a, TARGET, weight=torch.tensor([1.0, 2.0, 0.5, 3.0],
                                                                            dtype=torch.float64)),
     lambda: (rnd(3, 4),)),
    ("nll_loss_ignore", lambda a: F.nll_loss(a, TARGET, ignore_index=0), lambda: (rnd(3, 4),)),
    ("cross_entropy", lambda a: F.cross_entropy(a, TARGET), lambda: (rnd(3, 4),)),
    ("cross_entropy_1d", lambda a: F.cross_entropy(a, torch.tensor(1)), lambda: (rnd(4),)),
    ("cross_entropy_probs", lambda a: F.cross_entropy(a, PROBS), lambda: (rnd(3, 4),)),
    ("cross_entropy_probs_none", lambda a: F.cross_entropy(a, PROBS, reduction="none", label_smoothing=0.2),
     lambda: (rnd(3, 4),)),
    ("cross_entropy_smoothing", lambda a: F.cross_entropy(a, TARGET, label_smoothing=0.1), lambda: (rnd(3, 4),)),
    ("cross_entropy_smoothing_ignore_sum", lambda a: F.cross_entropy(a, TARGET, label_smoothing=0.3,
                                                                     ignore_index=0, reduction="sum"),
     lambda: (rnd(3, 4),)),
    ("mul_number_node", lambda a: ops.MulBackward1.apply(a, 2.5), lambda: (rnd(3),)),
    ("div_number_node", lambda a: ops.DivBackward1.apply(a, -4.0), lambda: (rnd(3),)),
    ("add_number_node", lambda a: ops.AddBackward1.apply(a, 2.5), lambda: (rnd(3),)),
    ("sub_number_node", lambda a: ops.SubBackward1.apply(a, -4.0), lambda: (rnd(3),)),
    ("bce_mean", lambda p, t: F.binary_cross_entropy(p, t), lambda: (prob(3, 2), prob(3, 2, seed=1))),
    ("bce_sum_target_const", lambda p: F.binary_cross_entropy(p, PROB_T, reduction="sum"),
     lambda: (prob(3, 2),)),
    ("bce_none", lambda p, t: F.binary_cross_entropy(p, t, reduction="none"),
     lambda: (prob(3, 2), prob(3, 2, seed=1))),
    ("l1_loss", lambda a, b: F.l1_loss(a, b), lambda: (rnd(3, 2), rnd(3, 2, seed=1))),
    ("cat_dim0", lambda a, b: torch.cat([a, b]), lambda: (rnd(2, 3), rnd(1, 3, seed=1))),
    ("cat_dim1_three", lambda a, b: torch.cat((a, b, a), dim=1), lambda: (rnd(2, 3), rnd(2, 1, seed=1))),
    ("stack", lambda a, b: torch.stack([a, b, a], 1), lambda: (rnd(2, 3), rnd(2, 3, seed=1))),
    ("where", lambda a, b: torch.where(a > 0, a, b), lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("where_broadcast", lambda a, b: torch.where(a > 0, a, b), lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("where_number", lambda a: torch.where(a > 0, a * a, 0.0), lambda: (rnd(3, 4),)),
    ("cumsum_dim0", lambda a: a.cumsum(0), lambda: (rnd(3, 4),)),
    ("cumsum_axis1", lambda a: torch.cumsum(a, 1) * a, lambda: (rnd(3, 4),)),
    ("maximum", torch.maximum, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("minimum_broadcast", torch.minimum, lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("max_of_two", lambda a, b: torch.max(a, b), lambda: (rnd(3), rnd(3, seed=1))),
    ("masked_fill", lambda a: a.masked_fill(a < 0, 2.0), lambda: (rnd(3, 4),)),
    ("prod", lambda a: a.prod(), lambda: (rnd(2, 3),)),
    ("prod_with_zero", lambda a: (a * torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64)).prod(),
     lambda: (rnd(3),)),
    ("prod_dim", lambda a: a.prod(1), lambda: (rnd(2, 3),)),
    ("prod_dim_keepdim", lambda a: torch.prod(a, 0, keepdim=True), lambda: (rnd(2, 3),)),
    ("var", lambda a: a.var(), lambda: (rnd(2, 3),)),
    ("var_dim_biased", lambda a: a.var(1, unbiased=False), lambda: (rnd(2, 3),)),
    ("var_correction_keepdim", lambda a: torch.var(a, dim=0, correction=2, keepdim=True), lambda: (rnd(4, 3),)),
    ("std", lambda a: a.std(), lambda: (rnd(2, 3),)),
    ("std_dim", lambda a: a.std(dim=1), lambda: (rnd(2, 3),)),
    ("std_dim_keepdim", lambda a: torch.std(a, 0, keepdim=True), lambda: (rnd(3, 2),)),
    ("remainder_number", lambda a: a % 1.5, lambda: (rnd(3, 4, away=0.3),), dict(atol=1e-4)),
    ("remainder_tensor", lambda a, b: torch.remainder(a, b), lambda: (rnd(3), pos(3, seed=1))),
    ("outer", torch.outer, lambda: (rnd(3), rnd(2, seed=1))),
    ("bmm", torch.bmm, lambda: (rnd(2, 3, 4), rnd(2, 4, 2, seed=1))),
    ("exp_", inplace("exp_"), lambda: (rnd(3),)),
    ("log_", inplace("log_"), lambda: (pos(3),)),
    ("sqrt_", inplace("sqrt_"), lambda: (pos(3),)),
    ("sigmoid_", inplace("sigmoid_"), lambda: (rnd(3),)),
    ("tanh_", inplace("tanh_"), lambda: (rnd(3),)),
    ("relu_", inplace("relu_"), lambda: (rnd(3),)),
    ("neg_", inplace("neg_"), lambda: (rnd(3),)),
    ("abs_", inplace("abs_"), lambda: (rnd(3),)),
    ("sin_", inplace("sin_"), lambda: (rnd(3),)),
    ("masked_fill_", lambda a: (a * 1).masked_fill_(a > 0, 0.0), lambda: (rnd(3, 4),)),
]


def seeded(fn, seed=0):
    """fn with the default generator re-seeded before each call, so every
    finite-difference evaluation of a dropout sees the same mask."""
    def call(*args):
        torch.manual_seed(seed)
        return fn(*args)
    return call


CASES += [
    ("dropout", seeded(lambda a: F.dropout(a, 0.3)), lambda: (rnd(4, 5),)),
    ("dropout_p_high", seeded(lambda a: F.dropout(a, 0.9), seed=3), lambda: (rnd(20),)),
    ("dropout_p1", lambda a: F.dropout(a, 1.0), lambda: (rnd(3),)),
    ("dropout_inplace", seeded(lambda a: F.dropout(a * 1, 0.5, inplace=True)), lambda: (rnd(6),)),
    ("dropout_module_then_linear", seeded(lambda a, w: F.linear(torch.nn.Dropout(0.4)(a), w)),
     lambda: (rnd(3, 4), rnd(2, 4, seed=1))),
    ("gelu", F.gelu, lambda: (rnd(3, 4),)),
    ("gelu_tanh", lambda a: F.gelu(a, approximate="tanh"), lambda: (rnd(3, 4),)),
    ("gelu_wide_range", F.gelu, lambda: (rnd(20, low=-6, high=6),)),
    ("gelu_module_in_mlp", lambda a, w: torch.nn.GELU()(F.linear(a, w)).sum(),
     lambda: (rnd(3, 4), rnd(2, 4, seed=1))),
    ("embedding", lambda w: F.embedding(torch.tensor([[2, 0], [4, 2]]), w), lambda: (rnd(5, 3),)),
    # padding_idx: its row gets no gradient by design, so finite differences disagree there
    # (PyTorch's too); the other rows still match
    ("embedding_padding_idx_other_rows", lambda w: F.embedding(torch.tensor([1, 3, 1, 0]),
                                                               torch.cat([rnd(1, 2, seed=1).detach(), w]),
                                                               padding_idx=0),
     lambda: (rnd(3, 2),)),
    ("embedding_shared_in_loop", lambda w: sum(F.embedding(torch.tensor([k, 0]), w) * (k + 1) for k in range(3)),
     lambda: (rnd(3, 2),)),
    ("embedding_module_then_linear", lambda w, lw: F.linear(F.embedding(torch.tensor([3, 1]), w), lw),
     lambda: (rnd(4, 3), rnd(2, 3, seed=1))),
    ("layer_norm", lambda a, w, b: F.layer_norm(a, (4,), w, b), lambda: (rnd(3, 4), rnd(4, seed=1), rnd(4, seed=2))),
    ("layer_norm_no_affine_2d", lambda a: F.layer_norm(a, (2, 3)), lambda: (rnd(2, 2, 3),)),
    ("layer_norm_1d_eps", lambda a, w: F.layer_norm(a, (6,), w, eps=0.1), lambda: (rnd(6), rnd(6, seed=1))),
    ("layer_norm_shared_weight", lambda a, w: F.layer_norm(F.layer_norm(a, (3,), w), (3,), w),
     lambda: (rnd(2, 3), rnd(3, seed=1))),
    ("dropout_shared_in_loop", seeded(lambda a: sum(F.dropout(a, 0.5) * k for k in range(3))),
     lambda: (rnd(5),)),
]


# more activations (ops/activations.py); rnd keeps values 0.2 away from 0, and the
# corners (+-1 of hardtanh, 0 and 6 of relu6, +-3 of hardsigmoid) are avoided by the ranges
CASES += [
    ("softplus", F.softplus, lambda: (rnd(3, 4, low=-4, high=4),)),
    ("softplus_beta_threshold", lambda a: F.softplus(a, beta=2.0, threshold=1.5), lambda: (rnd(20, low=-3, high=3),)),
    ("elu", F.elu, lambda: (rnd(3, 4, low=-3, high=3),)),
    ("elu_alpha", lambda a: F.elu(a, alpha=0.3), lambda: (rnd(10, low=-3, high=3),)),
    ("elu_inplace", lambda a: F.elu(a * 1, 0.7, inplace=True), lambda: (rnd(10, low=-3, high=3),)),
    ("selu", F.selu, lambda: (rnd(10, low=-3, high=3),)),
    ("selu_inplace_module", lambda a: torch.nn.SELU(inplace=True)(a * 1), lambda: (rnd(10, low=-3, high=3),)),
    ("silu", F.silu, lambda: (rnd(3, 4, low=-5, high=5),)),
    ("silu_inplace", lambda a: F.silu(a * 1, inplace=True), lambda: (rnd(6),)),
    ("hardtanh", F.hardtanh, lambda: (rnd(6, low=-0.9, high=0.9, away=0.05),)),
    ("hardtanh_outside", lambda a: F.hardtanh(a, -0.5, 0.5), lambda: (rnd(10, low=0.6, high=2, away=0.0),)),
    ("hardtanh_inplace", lambda a: F.hardtanh(a * 1, -1.5, 1.5, inplace=True), lambda: (rnd(10, low=-1.4, high=1.4),)),
    ("relu6", F.relu6, lambda: (rnd(10, low=0.1, high=5.9, away=0.0),)),
    ("relu6_module_inplace", lambda a: torch.nn.ReLU6(inplace=True)(a * 1), lambda: (rnd(10, low=-3, high=-0.1),)),
    ("hardsigmoid", F.hardsigmoid, lambda: (rnd(10, low=-2.9, high=2.9, away=0.0),)),
    ("hardsigmoid_outside", F.hardsigmoid, lambda: (rnd(10, low=3.1, high=6, away=0.0),)),
    ("hardsigmoid_inplace", lambda a: F.hardsigmoid(a * 1, inplace=True), lambda: (rnd(10, low=-2.9, high=2.9, away=0.0),)),
    ("activations_shared_weight_in_loop", lambda a, w: sum(F.silu(F.softplus(F.linear(a, w))) * k + F.elu(a).sum()
                                                          for k in range(3)).sum(),
     lambda: (rnd(3, 4), rnd(2, 4, seed=1))),
]

CASES += [
    ("pad_last_dim", lambda a: F.pad(a, (1, 2)), lambda: (rnd(2, 3),)),
    ("pad_two_dims_value", lambda a: F.pad(a, (1, 0, 2, 1), value=-3.0), lambda: (rnd(2, 3),)),
    ("pad_negative_crops", lambda a: F.pad(a, (-1, -1, 0, -1)), lambda: (rnd(3, 4),)),
    ("pad_mixed_3d", lambda a: F.pad(a, [2, -1, -1, 1, 1, 1]), lambda: (rnd(2, 3, 4),)),
    ("pad_to_empty", lambda a: F.pad(a, (-3, 0)), lambda: (rnd(2, 3),)),
    ("pad_shared_in_loop", lambda a: sum(F.pad(a * k, (k, 2 - k)) for k in range(3)), lambda: (rnd(4),)),
]


def kink_grads(fn, values):
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.tolist()


def test_activation_gradients_at_the_kinks_are_pytorchs_subgradients():
    # PyTorch's kernels: hardtanh / relu6 / hardsigmoid pass nothing at their corners,
    # elu takes its negative branch at 0, softplus is the identity only strictly above threshold
    assert kink_grads(F.hardtanh, [-1.0, 1.0, 0.0]) == [0.0, 0.0, 1.0]
    assert kink_grads(F.relu6, [0.0, 6.0, 3.0]) == [0.0, 0.0, 1.0]
    assert kink_grads(F.hardsigmoid, [-3.0, 3.0, 0.0]) == [0.0, 0.0, float(np.float32(1 / 6))]  # a float32 1/6
    assert kink_grads(lambda a: F.elu(a, alpha=0.5), [0.0]) == [0.5]
    assert kink_grads(F.selu, [0.0]) == [1.0507009873554805 * 1.6732632423543772]
    assert kink_grads(lambda a: F.softplus(a, beta=2, threshold=1), [0.5, 0.75]) == [
        pytest.approx(1 / (1 + np.exp(-1.0))), 1.0]
    assert kink_grads(F.silu, [0.0]) == [0.5]


def test_hardsigmoid_has_no_second_derivative_as_in_pytorch():
    x = rnd(4, low=-2.5, high=2.5)
    g, = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward is not implemented"):
        g.sum().backward()


def test_activation_second_derivatives_match_finite_differences():
    from autograd_teach.autograd import gradgradcheck
    for fn in (F.softplus, F.elu, F.silu, F.selu, lambda a: F.softplus(a, 2.0, 1.0)):
        assert gradgradcheck(fn, (rnd(6, low=-3, high=3),))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_gradcheck(case):
    _, fn, make, *kw = case
    assert gradcheck(fn, make(), **(kw[0] if kw else {}))


def test_normal_sends_zero_gradient_to_mean_and_std():
    # PyTorch defines d normal(mean, std) / d mean = 0 (the sample is noise)
    mean, std = rnd(3), pos(3, seed=1)
    for out in (torch.normal(mean, std), torch.normal(mean, 2.0), torch.normal(1.0, std)):
        out.sum().backward()
    assert np.array_equal(mean.grad._data, np.zeros(3)) and np.array_equal(std.grad._data, np.zeros(3))


def test_module_gradients_match_finite_differences():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2)).double()
    x, y = rnd(5, 3), torch.tensor([0, 1, 1, 0, 1])
    params = list(net.parameters())
    assert gradcheck(lambda w0, b0, w1, b1: F.cross_entropy(
        F.linear(F.linear(x, w0, b0).tanh(), w1, b1), y), [p.detach().requires_grad_() for p in params])


@pytest.fixture
def broken_log_softmax(monkeypatch):
    def backward(self, grad, result):
        return grad - np.exp(result) * grad   # forgot the sum over the class dim
    monkeypatch.setattr(ops.LogSoftmaxBackward0, "backward", backward)


def test_gradcheck_catches_a_wrong_log_softmax(broken_log_softmax):
    with pytest.raises(GradcheckError):
        gradcheck(lambda a: a.log_softmax(1), (rnd(2, 3),))


def test_gradcheck_catches_a_wrong_cat(monkeypatch):
    monkeypatch.setattr(ops.CatBackward0, "backward",
                        lambda self, grad: tuple(reversed(np.split(grad, np.cumsum(self._sizes)[:-1], axis=0))))
    with pytest.raises(GradcheckError):
        gradcheck(lambda a, b: torch.cat([a, b]), (rnd(2, 3), rnd(2, 3, seed=1)))


def test_dropout_gradient_is_the_mask_and_a_new_mask_each_call_fails_gradcheck():
    torch.manual_seed(0)
    x = torch.ones(50, dtype=torch.float64, requires_grad=True)
    out = F.dropout(x, 0.2)
    out.sum().backward()
    assert set(out.tolist()) == {0.0, 1.25}               # kept ones are scaled by 1 / (1 - p)
    assert x.grad.tolist() == out.tolist()                # d out / d x is the mask
    with pytest.raises(GradcheckError):                   # unseeded: each evaluation draws a new mask
        gradcheck(lambda a: F.dropout(a, 0.5), (rnd(8),))


def test_gelu_second_and_third_derivatives_match_finite_differences():
    from autograd_teach.autograd import gradgradcheck
    for approximate in ("none", "tanh"):
        assert gradgradcheck(lambda a: F.gelu(a, approximate=approximate), (rnd(6),))
        # third order: the rule of GeluBackwardBackward0 (gelu_double_backward) is built from ops
        assert gradgradcheck(lambda a: torch.autograd.grad(F.gelu(a, approximate=approximate).sum(), a,
                                                           create_graph=True)[0], (rnd(5),))


def test_embedding_and_layer_norm_second_derivatives_match_finite_differences():
    from autograd_teach.autograd import gradgradcheck
    idx = torch.tensor([[2, 0], [2, 1]])
    assert gradgradcheck(lambda w: F.embedding(idx, w, padding_idx=0) ** 2, (rnd(3, 2),))
    assert gradgradcheck(lambda a, w, b: F.layer_norm(a, (4,), w, b),
                         (rnd(2, 4), rnd(4, seed=1), rnd(4, seed=2)))


def test_embedding_padding_row_gets_no_gradient_and_repeats_add_up():
    w = rnd(4, 2)
    F.embedding(torch.tensor([[1, 3], [1, 1]]), w, padding_idx=3).sum().backward()
    assert w.grad.tolist() == [[0.0, 0.0], [3.0, 3.0], [0.0, 0.0], [0.0, 0.0]]


def test_gradcheck_catches_a_layer_norm_that_forgets_the_mean_term(monkeypatch):
    def backward(self, grad, x, weight, bias):
        return (grad * weight * self.result2, None, None)
    monkeypatch.setattr(ops.NativeLayerNormBackward0, "backward", backward)
    with pytest.raises(GradcheckError):
        gradcheck(lambda a: F.layer_norm(a, (4,)), (rnd(2, 4),))
def test_pad_gradient_drops_the_border_and_zeroes_the_cropped_part():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    y = F.pad(x, (-1, 2), value=9.0)
    assert y.tolist() == [[1.0, 2.0, 9.0, 9.0], [4.0, 5.0, 9.0, 9.0]] and y.grad_fn.name() == "ConstantPadNdBackward0"
    (y * torch.arange(4.0)).sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_other_than_constant_say_so(mode):
    with pytest.raises(NotImplementedError, match=mode):
        F.pad(rnd(2, 3), (1, 1), mode=mode)


def test_pad_misuse_raises_pytorchs_errors():
    x = rnd(2, 3)
    for pad, message in [((1,), "divisible by 2"), ((1, 1, 1, 1, 1, 1), "padding length 6 and input of dimension 2"),
                         ((-2, -2), "length must be non-negative")]:
        with pytest.raises(RuntimeError, match=message):
            F.pad(x, pad)


def test_one_hot_is_int64_without_a_graph_and_raises_pytorchs_errors():
    out = F.one_hot(torch.tensor([[0, 2], [1, 0]]), 4)
    assert out.dtype is torch.int64 and out.shape == (2, 2, 4) and not out.requires_grad and out.grad_fn is None
    assert out.tolist() == [[[1, 0, 0, 0], [0, 0, 1, 0]], [[0, 1, 0, 0], [1, 0, 0, 0]]]
    assert F.one_hot(torch.tensor([1, 0])).tolist() == [[0, 1], [1, 0]]
    assert F.one_hot(torch.tensor([], dtype=torch.int64), 3).shape == (0, 3)
    for bad, message in [(lambda: F.one_hot(torch.tensor([0, -1])), "non-negative"),
                         (lambda: F.one_hot(torch.tensor([0, 3]), 3), "smaller than num_classes"),
                         (lambda: F.one_hot(torch.tensor([0.0, 1.0])), "LongTensor"),
                         (lambda: F.one_hot(torch.tensor([0, 1], dtype=torch.int32)), "LongTensor"),
                         (lambda: F.one_hot(torch.tensor([], dtype=torch.int64)), "empty tensor")]:
        with pytest.raises(RuntimeError, match=message):
            bad()


def test_activations_on_extreme_values_give_no_nan_and_pytorchs_limits():
    big = torch.tensor([-1e4, -100.0, 100.0, 1e4, float("inf"), float("-inf")], dtype=torch.float64,
                       requires_grad=True)
    outs = [F.softplus(big), F.elu(big), F.silu(big), F.hardtanh(big), F.hardsigmoid(big)]
    tiny = 3.720075976020836e-44      # exp(-100): PyTorch's values, inf and nan included
    assert outs[0].tolist() == [0.0, pytest.approx(tiny), 100.0, 1e4, float("inf"), 0.0]
    assert outs[1].tolist() == [-1.0, -1.0, 100.0, 1e4, float("inf"), -1.0]
    assert outs[2].tolist()[:5] == [-0.0, pytest.approx(-100 * tiny), 100.0, 1e4, float("inf")]
    assert np.isnan(outs[2].tolist()[5])
    sum(o.sum() for o in outs[1:4]).backward()
    assert big.grad.tolist()[:4] == [0.0, pytest.approx(-3.6456744565004186e-42), 2.0, 2.0]


def test_activations_in_threads_give_each_thread_its_own_gradient():
    from concurrent.futures import ThreadPoolExecutor

    def run(k):
        x = torch.full((1000,), 0.1 * k, dtype=torch.float64, requires_grad=True)
        (F.silu(F.pad(x, (1, 1))) * k).sum().backward()
        return x.grad.numpy()[0], k

    with ThreadPoolExecutor(4) as pool:
        for got, k in pool.map(run, range(1, 9)):
            s = 1 / (1 + np.exp(-0.1 * k))
            assert got == pytest.approx(k * s * (1 + 0.1 * k * (1 - s)))
