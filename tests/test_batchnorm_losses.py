"""BatchNorm (F.batch_norm, nn.BatchNorm1d/2d), the losses of d2l chapters 5
and 7 and the containers: finite differences in float64 (first and second
derivatives) for every op, the running statistics against their formulas,
and misuse raising PyTorch's errors. Values and prints against torch 2.13
are in the goldens (tests/golden/programs/nn_batchnorm.py, ...)."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import ops
from autograd_teach.autograd import GradcheckError, gradcheck, gradgradcheck

from test_gradcheck import rnd

F = torch.nn.functional
nn = torch.nn


def stats(c, seed=5):
    """Running mean and a positive running variance, float64, no grad."""
    rng = np.random.default_rng(seed)
    return (torch.tensor(rng.standard_normal(c)), torch.tensor(rng.uniform(0.5, 2.0, c)))


def bn_train(x, w=None, b=None):
    return F.batch_norm(x, None, None, w, b, training=True)


def bn_eval(x, w=None, b=None):
    mean, var = stats(x.shape[1])
    return F.batch_norm(x, mean, var, w, b, training=False, eps=1e-3)


BN_CASES = [
    ("train_2d_affine", bn_train, lambda: (rnd(4, 3), rnd(3, seed=1), rnd(3, seed=2))),
    ("train_3d_affine", bn_train, lambda: (rnd(3, 2, 4), rnd(2, seed=1), rnd(2, seed=2))),
    ("train_4d_affine", bn_train, lambda: (rnd(2, 3, 2, 2), rnd(3, seed=1), rnd(3, seed=2))),
    ("train_no_affine", bn_train, lambda: (rnd(3, 2, 2, 2),)),
    ("train_batch_of_two", bn_train, lambda: (rnd(2, 3), rnd(3, seed=1))),
    ("train_one_channel", bn_train, lambda: (rnd(5, 1), rnd(1, seed=1), rnd(1, seed=2))),
    ("train_with_running_stats", lambda x, w: F.batch_norm(x, *stats(3), w, training=True, momentum=0.3),
     lambda: (rnd(4, 3), rnd(3, seed=1))),
    ("eval_2d_affine", bn_eval, lambda: (rnd(4, 3), rnd(3, seed=1), rnd(3, seed=2))),
    ("eval_4d_weight_only", bn_eval, lambda: (rnd(2, 3, 2, 2), rnd(3, seed=1))),
    ("eval_batch_of_one", bn_eval, lambda: (rnd(1, 3),)),
    ("shared_weight_twice", lambda x, w: bn_train(bn_train(x, w) * 2, w), lambda: (rnd(4, 3), rnd(3, seed=1))),
]


@pytest.mark.parametrize("case", BN_CASES, ids=[c[0] for c in BN_CASES])
def test_batch_norm_gradcheck(case):
    _, fn, make = case
    assert gradcheck(fn, make())


@pytest.mark.parametrize("case", BN_CASES, ids=[c[0] for c in BN_CASES])
def test_batch_norm_gradgradcheck(case):
    _, fn, make = case
    assert gradgradcheck(fn, make())


def test_gradcheck_catches_a_batch_norm_that_forgets_the_variance_term(monkeypatch):
    def backward(self, grad, x, weight):
        n = x.size // x.shape[1]
        return ((grad - grad.sum(0, keepdims=True) / n) * self.result2 * weight, None, None)
    monkeypatch.setattr(ops.NativeBatchNormBackward0, "backward", backward)
    with pytest.raises(GradcheckError):
        gradcheck(bn_train, (rnd(4, 3), rnd(3, seed=1)))


def test_training_normalises_each_channel_with_the_biased_variance():
    x = rnd(6, 2, 3)
    y = F.batch_norm(x, None, None, training=True, eps=0.0 + 1e-12).detach().numpy()
    assert np.allclose(y.mean((0, 2)), 0, atol=1e-12)
    assert np.allclose(y.var((0, 2)), 1, atol=1e-9)      # numpy's var is biased, as the normalisation


def test_running_stats_move_by_momentum_with_the_unbiased_variance():
    bn = nn.BatchNorm1d(3, momentum=0.25).double()
    x = rnd(5, 3)
    bn(x)
    data = x.detach().numpy()
    assert np.allclose(bn.running_mean.numpy(), 0.25 * data.mean(0))
    assert np.allclose(bn.running_var.numpy(), 0.75 + 0.25 * data.var(0, ddof=1))
    assert bn.num_batches_tracked.item() == 1 and bn.num_batches_tracked.dtype is torch.int64


def test_momentum_none_is_the_cumulative_average_of_the_batches():
    bn = nn.BatchNorm1d(2, momentum=None).double()
    batches = [rnd(4, 2, seed=s) for s in range(3)]
    for b in batches:
        bn(b)
    assert np.allclose(bn.running_mean.numpy(), np.mean([b.detach().numpy().mean(0) for b in batches], 0))
    assert np.allclose(bn.running_var.numpy(), np.mean([b.detach().numpy().var(0, ddof=1) for b in batches], 0))
    assert bn.num_batches_tracked.item() == 3


def test_eval_after_train_uses_the_running_stats_and_leaves_them():
    bn = nn.BatchNorm2d(2).double()
    for s in range(3):
        bn(rnd(3, 2, 2, 2, seed=s))
    mean, var = bn.running_mean.numpy().copy(), bn.running_var.numpy().copy()
    bn.eval()
    x = rnd(1, 2, 2, 2, seed=9)       # a batch of one is fine in eval mode
    y = bn(x)
    expected = (x.detach().numpy() - mean.reshape(1, 2, 1, 1)) / np.sqrt(var.reshape(1, 2, 1, 1) + 1e-5)
    assert np.allclose(y.detach().numpy(), expected)
    assert (bn.running_mean.numpy() == mean).all() and bn.num_batches_tracked.item() == 3
    assert y.grad_fn.name() == "NativeBatchNormBackward0" and y.grad_fn._saved_training is False
    assert tuple(y.grad_fn._saved_result1.shape) == (0,)


def test_constant_channel_gives_bias_and_a_finite_gradient():
    x = torch.tensor([[1.0, 2.0], [1.0, -2.0], [1.0, 0.5]], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([2.0, 1.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.5, 0.0], dtype=torch.float64, requires_grad=True)
    y = bn_train(x, w, b)
    assert y[:, 0].tolist() == [0.5, 0.5, 0.5]         # variance 0: (x - mean) = 0, invstd = 1/sqrt(eps)
    (y * torch.tensor([[1.0, 0.0], [2.0, 0.0], [-1.0, 0.0]], dtype=torch.float64)).sum().backward()
    assert np.isfinite(x.grad.numpy()).all() and np.isfinite(w.grad.numpy()).all()
    assert w.grad[0].item() == 0.0 and b.grad[0].item() == 2.0


def test_batch_of_one_in_training_raises_pytorchs_error():
    bn = nn.BatchNorm1d(3)
    for shape in [(1, 3), (1, 3, 1)]:
        with pytest.raises(ValueError, match=r"Expected more than 1 value per channel when training, got input "
                                             rf"size torch.Size\(\[{', '.join(map(str, shape))}\]\)"):
            bn(torch.randn(*shape))
    assert bn.num_batches_tracked.item() == 2       # counted before the check, as in PyTorch
    assert tuple(bn(torch.randn(1, 3, 2)).shape) == (1, 3, 2)


def test_misuse_raises_pytorchs_errors():
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 1D input\)"):
        nn.BatchNorm1d(3)(torch.randn(3))
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        nn.BatchNorm2d(3)(torch.randn(2, 3, 4))
    with pytest.raises(RuntimeError, match="running_mean should contain 4 elements not 3"):
        nn.BatchNorm2d(3)(torch.randn(2, 4, 4, 4))
    with pytest.raises(RuntimeError, match="running_mean must be defined in evaluation mode"):
        F.batch_norm(torch.randn(4, 3), None, None, training=False)
    with pytest.raises(RuntimeError, match="mixed dtype"):
        nn.BatchNorm1d(3)(torch.randn(4, 3, dtype=torch.float64))
    with pytest.raises(ValueError, match="eps must be positive during training"):
        F.batch_norm(torch.randn(4, 3), None, None, training=True, eps=0.0)


def test_module_buffers_state_dict_and_repr_as_pytorch():
    bn = nn.BatchNorm2d(3)
    assert repr(bn) == "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert [n for n, _ in bn.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    bare = nn.BatchNorm1d(4, affine=False, track_running_stats=False)
    assert repr(bare) == ("BatchNorm1d(4, eps=1e-05, momentum=0.1, affine=False, bias=False, "
                          "track_running_stats=False)")
    assert list(bare.state_dict()) == [] and list(bare.parameters()) == []
    y = bare(rnd(3, 4))
    assert y.grad_fn.next_functions[1] == (None, 0) and y.grad_fn.next_functions[2] == (None, 0)
    bare.eval()                       # no running stats: eval still uses the batch's
    assert np.allclose(bare(rnd(3, 4)).detach().numpy().mean(0), 0)
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    assert list(m.state_dict())[2:] == ["1.weight", "1.bias", "1.running_mean", "1.running_var",
                                        "1.num_batches_tracked"]


def test_a_model_reused_fifty_times_accumulates_the_sum_of_its_gradients():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)).double()
    x = rnd(6, 3)
    total = 0
    for _ in range(50):
        total = total + model(x).sum()
    total.backward()
    grad = model[1].weight.grad.numpy().copy()
    model.zero_grad()
    model(x).sum().backward()
    # with the same input, every batch's statistics are the same: 50 equal terms
    assert np.allclose(grad, 50 * model[1].weight.grad.numpy())
    assert model[1].num_batches_tracked.item() == 51


def test_threads_each_update_their_own_module():
    models = [nn.BatchNorm1d(2).double() for _ in range(4)]
    xs = [rnd(5, 2, seed=s) for s in range(4)]

    def run(i):
        for _ in range(20):
            models[i](xs[i]).sum().backward()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for m, x in zip(models, xs):
        expected = (1 - 0.9 ** 20) * x.detach().numpy().mean(0)
        assert np.allclose(m.running_mean.numpy(), expected) and m.num_batches_tracked.item() == 20


# -- losses: smooth_l1_loss, huber_loss, kl_div, cosine_similarity, normalize ----------
def prob(*shape, seed=0):
    return rnd(*shape, low=0.1, high=0.9, seed=seed, away=0.0)


LOSS_CASES = []
for red in ("mean", "sum", "none"):
    LOSS_CASES += [
        (f"smooth_l1_{red}", (lambda red: lambda a, b: F.smooth_l1_loss(a, b, reduction=red, beta=0.7))(red),
         lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
        (f"huber_{red}", (lambda red: lambda a, b: F.huber_loss(a, b, reduction=red, delta=1.3))(red),
         lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
        (f"huber_weight_{red}", (lambda red: lambda a, w: F.huber_loss(a, rnd(2, 3, seed=4).detach(), red,
                                                                        0.9, weight=w))(red),
         lambda: (rnd(2, 3), rnd(2, 3, seed=1))),
        (f"kl_div_{red}", (lambda red: lambda a: F.kl_div(a.log_softmax(1), PROB, reduction=red))(red),
         lambda: (rnd(2, 3),)),
    ]
TARGET5 = rnd(5, seed=3).detach()
PROB = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.0, 0.4]], dtype=torch.float64)
LOSS_CASES += [
    ("smooth_l1_beta_0_is_l1", lambda a, b: F.smooth_l1_loss(a, b, beta=0.0), lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("smooth_l1_broadcast_target", lambda a, b: F.smooth_l1_loss(a, b.expand(3, 4) * 1, beta=2.0),
     lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("huber_shared_in_loop", lambda a: sum(F.huber_loss(a * k, TARGET5, delta=0.5) for k in range(1, 4)),
     lambda: (rnd(5),)),
    ("kl_div_batchmean", lambda a: F.kl_div(a.log_softmax(1), PROB, reduction="batchmean"), lambda: (rnd(2, 3),)),
    ("kl_div_log_target", lambda a, b: F.kl_div(a, b, reduction="batchmean", log_target=True),
     lambda: (rnd(2, 3), rnd(2, 3, seed=1))),
    ("kl_div_target_grad", lambda a, p: F.kl_div(a, p, reduction="sum"), lambda: (rnd(2, 3), prob(2, 3, seed=1))),
    ("cosine_similarity", F.cosine_similarity, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("cosine_similarity_dim0_broadcast", lambda a, b: F.cosine_similarity(a, b, dim=0),
     lambda: (rnd(3, 4), rnd(3, 1, seed=1))),
    ("normalize", F.normalize, lambda: (rnd(3, 4),)),
    ("normalize_p1_dim0", lambda a: F.normalize(a, p=1.0, dim=0), lambda: (rnd(3, 4),)),
    ("modules", lambda a, b: nn.SmoothL1Loss(beta=0.5)(a, b) + nn.HuberLoss(delta=2.0)(a, b)
     + nn.KLDivLoss(reduction="batchmean")(a.log_softmax(1), b.softmax(1)),
     lambda: (rnd(2, 3), rnd(2, 3, seed=1))),
]


@pytest.mark.parametrize("case", LOSS_CASES, ids=[c[0] for c in LOSS_CASES])
def test_loss_gradcheck(case):
    _, fn, make = case
    assert gradcheck(fn, make())


@pytest.mark.parametrize("case", LOSS_CASES, ids=[c[0] for c in LOSS_CASES])
def test_loss_gradgradcheck(case):
    _, fn, make = case
    assert gradgradcheck(fn, make())


def test_gradcheck_catches_a_smooth_l1_that_forgets_beta(monkeypatch):
    def backward(self, grad, a, t):
        d = np.clip(a - t, -1, 1) * grad / a.size
        return d, -d
    monkeypatch.setattr(ops.SmoothL1LossBackward0, "backward", backward)
    with pytest.raises(GradcheckError):
        gradcheck(lambda a, b: F.smooth_l1_loss(a, b, beta=3.0), (rnd(3, 4), rnd(3, 4, seed=1)))


def test_smooth_l1_and_huber_values_on_both_sides_of_the_threshold():
    a = torch.tensor([0.0, 0.0, 0.0], dtype=torch.float64)
    b = torch.tensor([0.5, 2.0, -3.0], dtype=torch.float64)
    assert F.smooth_l1_loss(a, b, reduction="none", beta=1.0).tolist() == [0.125, 1.5, 2.5]
    assert F.huber_loss(a, b, reduction="none", delta=2.0).tolist() == [0.125, 2.0, 4.0]
    assert F.smooth_l1_loss(a, b, reduction="sum", beta=0.0).item() == 5.5     # l1
    assert F.huber_loss(a, b, delta=1.0).item() == F.smooth_l1_loss(a, b, beta=1.0).item()


def test_kl_div_of_a_distribution_with_itself_is_zero_and_batchmean_divides_by_the_batch():
    p = prob(4, 3)
    lp = (p / p.sum(1, keepdim=True)).log()
    assert abs(F.kl_div(lp, lp.exp(), reduction="batchmean").item()) < 1e-12
    q = torch.tensor([[0.5, 0.5], [0.9, 0.1]], dtype=torch.float64)
    lq = torch.tensor([[0.25, 0.75], [0.5, 0.5]], dtype=torch.float64).log()
    total = F.kl_div(lq, q, reduction="sum").item()
    assert abs(F.kl_div(lq, q, reduction="batchmean").item() - total / 2) < 1e-15
    assert abs(F.kl_div(lq, q.log(), reduction="sum", log_target=True).item() - total) < 1e-12
    assert F.kl_div(lq, torch.zeros(2, 2, dtype=torch.float64), reduction="sum").item() == 0.0   # 0 log 0 = 0


def test_cosine_similarity_and_normalize_values():
    a = torch.tensor([[3.0, 4.0], [1.0, 0.0]])
    b = torch.tensor([[6.0, 8.0], [0.0, 2.0]])
    assert F.cosine_similarity(a, b).tolist() == [1.0, 0.0]
    assert F.normalize(a).tolist() == [[0.6000000238418579, 0.800000011920929], [1.0, 0.0]]
    zero = torch.zeros(1, 2, requires_grad=True)
    F.normalize(zero).sum().backward()              # the norm is clamped to eps: no division by 0
    assert np.isfinite(zero.grad.numpy()).all()


def test_losses_warn_and_raise_as_pytorch():
    x, t = torch.randn(3, 4), torch.randn(4)
    for loss in (F.smooth_l1_loss, F.huber_loss):
        with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[4\]\)\) that is different to "
                                             r"the input size \(torch.Size\(\[3, 4\]\)\)"):
            loss(x, t)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(x, x.exp())
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values for beta."):
        F.smooth_l1_loss(x, x, beta=-1)
    with pytest.raises(RuntimeError, match="huber_loss does not support non-positive values for delta."):
        F.huber_loss(x, x, delta=0)
    for call in (lambda: F.huber_loss(x, x, reduction="foo"), lambda: F.kl_div(x, x, reduction="foo")):
        with pytest.raises(ValueError, match="foo is not a valid value for reduction"):
            call()
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(4\) must match the size of tensor b \(5\)"):
        F.cosine_similarity(torch.randn(3, 4), torch.randn(3, 5))
    with pytest.raises(TypeError, match="delta must be a float or int"):
        nn.HuberLoss(delta="1")
    assert [repr(m) for m in (nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(), nn.KLDivLoss())] == \
        ["SmoothL1Loss()", "HuberLoss()", "KLDivLoss()"]


# -- containers: ModuleDict, ParameterList, ParameterDict, Unflatten ----------------------
def test_containers_register_what_they_hold_under_pytorchs_names():
    md = nn.ModuleDict({"b": nn.Linear(1, 1), "a": nn.BatchNorm1d(1)})
    assert list(md) == ["b", "a"]                          # a ModuleDict keeps the dict's order
    assert list(md.state_dict()) == ["b.weight", "b.bias", "a.weight", "a.bias", "a.running_mean",
                                     "a.running_var", "a.num_batches_tracked"]
    pd = nn.ParameterDict({"b": torch.ones(1), "a": torch.ones(2)})
    assert list(pd) == ["a", "b"] and [n for n, _ in pd.named_parameters()] == ["a", "b"]   # sorted, as PyTorch
    assert all(p.requires_grad for p in pd.values())        # plain tensors become Parameters
    pl = nn.ParameterList([torch.ones(1)])
    pl.append(torch.zeros(2)).extend([torch.zeros(3)])
    assert [n for n, _ in pl.named_parameters()] == ["0", "1", "2"] and len(pl) == 3
    assert isinstance(pl[-1], nn.Parameter) and list(pl[1:].state_dict()) == ["0", "1"]
    assert repr(pl).splitlines()[1] == "    (0): Parameter containing: [torch.float32 of size 1]"
    assert repr(pd).splitlines()[1] == "    (a): Parameter containing: [torch.FloatTensor of size 2]"


def test_a_parameter_list_used_many_times_in_a_loop_gets_the_sum_of_its_gradients():
    pl = nn.ParameterList([rnd(3, seed=s).detach() for s in range(2)]).double()
    pd = nn.ParameterDict({"w": rnd(3, seed=5).detach()}).double()

    def f(a, b, w):
        out = 0
        for k in range(50):
            out = out + (a * b * w * (k % 3)).sum()
        return out
    assert gradcheck(f, (pl[0], pl[1], pd["w"]))
    f(pl[0], pl[1], pd["w"]).backward()
    weight = sum(k % 3 for k in range(50))               # 49
    assert np.allclose(pl[0].grad.numpy(), weight * (pl[1] * pd["w"]).detach().numpy())


def test_unflatten_is_a_view_with_pytorchs_errors():
    x = rnd(3, 10)
    y = nn.Unflatten(1, (2, -1))(x)
    assert tuple(y.shape) == (3, 2, 5) and y.grad_fn.name() == "ViewBackward0"
    assert gradcheck(lambda a: nn.Unflatten(-1, (5, 2))(a) * 2, (x,))
    with pytest.raises(RuntimeError, match=r"Provided sizes \[2, 4\] don't multiply up to the size of dim 1 \(10\)"):
        nn.Unflatten(1, (2, 4))(x)
    with pytest.raises(TypeError, match="unflattened_size must be a tuple of ints, but found type int"):
        nn.Unflatten(1, 5)
    with pytest.raises(RuntimeError, match="ParameterList should not be called."):
        nn.ParameterList()(1)
    with pytest.raises(TypeError, match="ModuleDict.update should be called with an iterable"):
        nn.ModuleDict().update(3)


def test_loading_a_state_dict_without_num_batches_tracked_keeps_the_modules_count():
    bn = nn.BatchNorm1d(2)
    bn(torch.randn(4, 2))
    old = {k: v for k, v in nn.BatchNorm1d(2).state_dict().items() if k != "num_batches_tracked"}
    result = bn.load_state_dict(old)
    assert result.missing_keys == [] and bn.num_batches_tracked.item() == 1
    assert bn.running_mean.tolist() == [0.0, 0.0]
    assert "num_batches_tracked" not in old        # the caller's dict is not changed


def test_double_backward_is_one_node_with_three_outputs_as_pytorchs():
    x, w, b = rnd(4, 3), rnd(3, seed=1), rnd(3, seed=2)
    out = bn_train(x, w, b)
    gx, gw, gb = torch.autograd.grad((out ** 3).sum(), (x, w, b), create_graph=True)
    node = gx.grad_fn
    assert node.name() == "NativeBatchNormBackwardBackward0" and gw.grad_fn is node and gb.grad_fn is node
    assert (gx.output_nr, gw.output_nr, gb.output_nr) == (0, 1, 2)
    assert len(node.next_functions) == 5 and node.next_functions[3:] == ((None, 0), (None, 0))
    assert node.next_functions[1][0].variable is x and node.next_functions[2][0].variable is w
    with pytest.raises(NotImplementedError, match="third derivative through batch_norm"):
        g2, = torch.autograd.grad((gx ** 2).sum(), x, create_graph=True)


def test_gradgradcheck_catches_a_double_backward_without_the_variance_term(monkeypatch):
    from autograd_teach.ops import batch_norm as module
    right = module.batch_norm_double_backward

    def wrong(node, g, x, w, grads):
        d_grad, d_input, d_weight = right(node, g, x, w, grads)
        return d_grad, d_input * 0.5, d_weight
    monkeypatch.setattr(module, "batch_norm_double_backward", wrong)
    with pytest.raises(GradcheckError):
        gradgradcheck(bn_train, (rnd(4, 3), rnd(3, seed=1)))


def test_double_backward_checks_the_saved_input_version():
    x = rnd(4, 3)
    y = x * 1
    g, = torch.autograd.grad((bn_train(y) ** 3).sum(), x, create_graph=True)
    with torch.no_grad():
        y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        g.sum().backward()


def test_an_empty_batch_leaves_the_running_stats_and_links_to_the_parameters():
    bn = nn.BatchNorm1d(3)
    x = torch.randn(0, 3, requires_grad=True)
    y = bn(x)
    assert tuple(y.shape) == (0, 3) and y.grad_fn.name() == "AddBackward0"     # ATen's clone * w[0] + b[0]
    y.sum().backward()
    assert bn.weight.grad.tolist() == [0.0, 0.0, 0.0] and bn.bias.grad.tolist() == [0.0, 0.0, 0.0]
    assert bn.running_mean.tolist() == [0.0] * 3 and bn.running_var.tolist() == [1.0] * 3
