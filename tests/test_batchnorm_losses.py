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
