"""torch.nn, torch.optim and torch.utils.data beyond the goldens: the paths
off the happy one (shared weights, misuse, empty and odd shapes, threads),
and the diagram of a real model showing PyTorch's node names."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import nn
from autograd_teach.utils import data

F = nn.functional


def test_parameter_is_a_leaf_tensor_that_ops_accept():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    assert isinstance(p, torch.Tensor) and p.is_leaf and p.requires_grad
    y = (p * p).sum()          # a Parameter is an op input like any tensor
    y.backward()
    assert p.grad.tolist() == [2.0, 4.0]
    assert type(p * 2) is torch.Tensor and repr(p).startswith("Parameter containing:\n")
    assert not nn.Parameter(torch.ones(1), requires_grad=False).requires_grad


def test_shared_weights_are_listed_once_and_get_both_gradients():
    shared = nn.Linear(2, 2)
    net = nn.Sequential(shared, nn.ReLU(), shared)
    assert [n for n, _ in net.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(net.parameters())) == 2
    x = torch.ones(1, 2)
    net(x).sum().backward()
    # the gradient sums both uses: compare with the two uses written out by hand
    w, b = shared.weight.detach().requires_grad_(), shared.bias.detach().requires_grad_()
    F.linear(F.linear(x, w, b).relu(), w, b).sum().backward()
    assert np.allclose(shared.weight.grad._data, w.grad._data)
    assert np.allclose(shared.bias.grad._data, b.grad._data)


def test_module_training_loop_in_a_loop_with_reused_module():
    torch.manual_seed(0)
    lin = nn.Linear(3, 1)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    losses = []
    for _ in range(20):
        h = x
        for _ in range(3):          # the same layer applied three times
            h = lin(h).expand(8, 3)
        loss = F.mse_loss(h[:, :1], y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]


def test_assignment_errors_and_registration():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(2))

    m = M()
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'w'"):
        m.w = torch.ones(2)
    m.w = None
    assert list(m.parameters()) == []

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.ones(1))
    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__"):
        Early()
    with pytest.raises(AttributeError, match="'M' object has no attribute 'nothing'"):
        m.nothing
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        nn.Module()(1)


def test_load_state_dict_errors_and_strict_false():
    a, b = nn.Linear(2, 1), nn.Linear(2, 1)
    with pytest.raises(RuntimeError, match=r'Unexpected key\(s\) in state_dict: "extra"'):
        b.load_state_dict({**a.state_dict(), "extra": torch.ones(1)})
    with pytest.raises(RuntimeError, match="size mismatch for weight"):
        b.load_state_dict({"weight": torch.ones(3, 2), "bias": torch.ones(1)})
    keys = b.load_state_dict({"weight": torch.ones(1, 2)}, strict=False)
    assert keys.missing_keys == ["bias"] and b.weight.tolist() == [[1.0, 1.0]]
    sd = a.state_dict()
    assert sd["weight"].requires_grad is False
    sd["weight"].add_(1.0)     # shares storage with the parameter, as in PyTorch
    assert np.array_equal(sd["weight"]._data, a.weight._data)


def test_sequential_indexing():
    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(net) == 3 and isinstance(net[-1], nn.Linear) and len(net[:2]) == 2
    assert [type(m).__name__ for m in net] == ["Linear", "ReLU", "Linear"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        net[3]
    del net[1]
    assert list(net._modules) == ["0", "1"]
    net.append(nn.Sigmoid())
    assert net(torch.ones(4, 2)).shape == (4, 1)


def test_empty_batch_through_linear_and_losses():
    lin = nn.Linear(3, 2)
    out = lin(torch.zeros(0, 3))
    assert out.shape == (0, 2)
    out.sum().backward()
    assert lin.weight.grad.tolist() == [[0.0] * 3] * 2


def test_nll_loss_misuse():
    with pytest.raises(IndexError, match="Target 5 is out of bounds"):
        F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 5]))
    with pytest.raises(RuntimeError, match="expected target dtype to be Long or Byte, but got Float"):
        F.nll_loss(torch.zeros(2, 3), torch.tensor([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(2\) to match target batch_size \(3\)"):
        F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1, 2]))
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))


def test_cat_and_stack_misuse():
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 0"):
        torch.cat([torch.ones(2, 3), torch.ones(2, 2)])
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        torch.stack([torch.ones(2), torch.ones(3)])
    with pytest.raises(RuntimeError, match="expected a non-empty list of Tensors"):
        torch.cat([])
    assert torch.cat([torch.ones(2), torch.ones(3, dtype=torch.int64)]).dtype is torch.float32
    assert torch.cat([torch.ones(0), torch.ones(2)]).shape == (2,)


def test_optimizer_misuse_and_zero_grad():
    p = nn.Parameter(torch.ones(2))
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        torch.optim.SGD([p * 2], lr=0.1)
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        torch.optim.SGD([p], lr=0.1, nesterov=True)
    opt = torch.optim.SGD([p], lr=0.1)
    p.grad = torch.ones(2)
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None
    opt.step()                  # no gradient: nothing changes, no error
    assert p.tolist() == [1.0, 1.0]
    v = p._version
    p.grad = torch.ones(2)
    opt.step()
    assert p._version == v + 1 and np.array_equal(p._data, np.float32([0.9, 0.9]))


def test_optimizer_state_dict_roundtrip():
    torch.manual_seed(0)
    a = nn.Linear(2, 1)
    opt = torch.optim.Adam(a.parameters(), lr=0.1)
    a(torch.ones(1, 2)).sum().backward()
    opt.step()
    opt2 = torch.optim.Adam(a.parameters(), lr=0.5)
    opt2.load_state_dict(opt.state_dict())
    assert opt2.param_groups[0]["lr"] == 0.1
    assert opt2.state[a.weight]["step"].item() == 1.0
    # as PyTorch's: a state tensor of the parameter's dtype is taken, not copied
    # (golden optim_nadam_radam_adamax shows it against torch)
    assert opt2.state[a.weight]["exp_avg"] is opt.state[a.weight]["exp_avg"]
    half = torch.optim.Adam([nn.Parameter(torch.ones(1, 2, dtype=torch.float64)), nn.Parameter(torch.ones(1))])
    half.load_state_dict(opt.state_dict())
    loaded = half.state[half.param_groups[0]["params"][0]]
    assert loaded["exp_avg"].dtype == torch.float64 and loaded["step"] is opt.state[a.weight]["step"]


def test_dataloader_draws_its_base_seed_even_without_shuffle():
    ds = data.TensorDataset(torch.arange(5.0))
    torch.manual_seed(3)
    expected = torch.rand(1).item()
    torch.manual_seed(3)
    batches = [b for (b,) in data.DataLoader(ds, batch_size=2)]
    # PyTorch's loader draws its base seed even without shuffle: one random64 word
    assert [b.tolist() for b in batches] == [[0.0, 1.0], [2.0, 3.0], [4.0]]
    assert torch.rand(1).item() != expected


def test_dataloader_misuse():
    ds = data.TensorDataset(torch.arange(5.0))
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        data.DataLoader(ds, batch_size=0)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        data.DataLoader(ds, shuffle=True, sampler=data.SequentialSampler(ds))
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        data.TensorDataset(torch.ones(2), torch.ones(3))
    assert len(data.DataLoader(ds, batch_size=2, drop_last=True)) == 2


def test_dataloader_shuffles_every_index_once_in_threads():
    ds = data.TensorDataset(torch.arange(100))
    results = []

    def run():
        loader = data.DataLoader(ds, batch_size=7, shuffle=True, generator=torch.Generator().manual_seed(5))
        results.append(sorted(i for (b,) in loader for i in b.tolist()))
    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [list(range(100))] * 4


def test_diagram_of_an_mlp_shows_pytorchs_node_names():
    from autograd_teach import viz
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    loss = F.cross_entropy(net(torch.randn(5, 4)), torch.tensor([0, 1, 2, 1, 0]))
    loss.backward()
    source = viz.draw(loss, names={}).source
    for name in ("NllLossBackward0", "LogSoftmaxBackward0", "AddmmBackward0", "TBackward0", "ReluBackward0",
                 "AccumulateGrad"):
        assert name in source, name
    assert "MmBackward0" not in source and "AddBackward0" not in source


def test_linear_init_matches_the_formula_bounds():
    torch.manual_seed(0)
    lin = nn.Linear(100, 50)
    bound = 1 / np.sqrt(100)
    assert np.abs(lin.weight._data).max() <= bound and np.abs(lin.bias._data).max() <= bound
    assert np.abs(lin.weight._data).max() > 0.9 * bound


def test_deepcopy_of_a_model_is_independent():
    import copy
    net = nn.Sequential(nn.Linear(2, 3))
    twin = copy.deepcopy(net)
    assert type(twin[0].weight) is nn.Parameter and twin[0].weight.requires_grad
    twin[0].weight.data.fill_(1.0)
    assert not np.array_equal(net[0].weight._data, twin[0].weight._data)


# ---- Dropout ------------------------------------------------------------------

def test_dropout_returns_its_input_when_there_is_nothing_to_drop():
    x = torch.randn(3, 4, requires_grad=True)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    empty = torch.ones(0, 4)
    assert F.dropout(empty, 0.5) is empty
    m = nn.Dropout(0.5).eval()
    assert m(x) is x and not m.training
    # nothing was drawn: the stream is where it was
    torch.manual_seed(2)
    F.dropout(x, 0.5, training=False)
    nn.Dropout(0.3).eval()(x)
    after = torch.rand(3).tolist()
    torch.manual_seed(2)
    assert torch.rand(3).tolist() == after


def test_dropout_keeps_dtype_shape_and_expected_value():
    torch.manual_seed(0)
    for dt in (torch.float16, torch.float32, torch.float64):
        x = torch.ones(2000, dtype=dt)
        out = F.dropout(x, 0.25)
        assert out.dtype == dt and out.shape == x.shape
        kept = out[out != 0]
        assert set(kept.tolist()) == {float(torch.tensor(1 / 0.75, dtype=dt))}
        assert abs(out.double().mean().item() - 1.0) < 0.1
    p1 = F.dropout(torch.ones(5, requires_grad=True), 1.0)
    assert p1.tolist() == [0.0] * 5 and p1.grad_fn.name() == "MulBackward0"


def test_dropout_inplace_modifies_and_versions_its_input():
    a = torch.ones(6, requires_grad=True)
    b = a * 1
    out = F.dropout(b, 0.5, inplace=True)
    assert out is b and b._version == 1 and out.grad_fn.name() == "MulBackward0"
    out.sum().backward()
    assert a.grad.tolist() == out.tolist()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        F.dropout(torch.ones(3, requires_grad=True), 0.5, inplace=True)


def test_dropout_misuse():
    for bad in (-0.5, 1.01):
        with pytest.raises(ValueError, match=f"dropout probability has to be between 0 and 1, but got {bad}"):
            F.dropout(torch.ones(2), bad)
        with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
            nn.Dropout(bad)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        F.dropout(torch.arange(4), 0.5)


def test_dropout_in_threads_draws_whole_masks():
    # each thread's mask is one whole draw: as many zeros as some sequential draw has
    results = []

    def run():
        results.append(F.dropout(torch.ones(500), 0.5).tolist())
    torch.manual_seed(9)
    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    torch.manual_seed(9)
    sequential = [F.dropout(torch.ones(500), 0.5).tolist() for _ in range(4)]
    assert sorted(results) == sorted(sequential)


def test_model_with_dropout_trains_and_evaluates():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1))
    x = torch.randn(16, 4)
    train_a, train_b = net(x), net(x)
    assert not torch.equal(train_a, train_b)          # a new mask each call
    net.eval()
    assert torch.equal(net(x), net(x))
    net.train()
    loss = net(x).pow(2).mean()
    loss.backward()
    assert all(p.grad is not None for p in net.parameters())


# ---- DataLoader workers ------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:This DataLoader will create")     # 3 workers: more than some machines' CPUs
def test_workers_run_in_this_process_and_give_the_same_batches_and_stream():
    import multiprocessing
    ds = data.TensorDataset(torch.arange(23))
    out = {}
    for nw in (0, 3):
        g = torch.Generator().manual_seed(11)
        batches = [b.tolist() for (b,) in data.DataLoader(ds, batch_size=4, shuffle=True, num_workers=nw,
                                                          generator=g)]
        out[nw] = batches, g.get_state()
    assert multiprocessing.active_children() == []
    assert out[0][0] == out[3][0]
    assert torch.equal(out[0][1], out[3][1])
    assert sorted(i for b in out[0][0] for i in b) == list(range(23))


def test_persistent_workers_draw_one_base_seed():
    from autograd_teach.compat import random as R
    ds = data.TensorDataset(torch.arange(5))
    g, ref = torch.Generator(), torch.Generator()
    loader = data.DataLoader(ds, batch_size=2, num_workers=2, persistent_workers=True, generator=g)
    for _ in range(3):
        assert [b.tolist() for (b,) in loader] == [[0, 1], [2, 3], [4]]
    R.random_int64(ref)
    assert torch.equal(g.get_state(), ref.get_state())
    loader = data.DataLoader(ds, batch_size=2, num_workers=2, generator=g)
    for _ in range(3):
        list(loader)
    for _ in range(3):
        R.random_int64(ref)
    assert torch.equal(g.get_state(), ref.get_state())


def test_two_loaders_sharing_a_generator_interleave_its_stream():
    ds = data.TensorDataset(torch.arange(12))
    g = torch.Generator().manual_seed(1)
    a = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g)
    b = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g, num_workers=1)
    epochs = [[i for (t,) in loader for i in t.tolist()] for loader in (a, b, a)]
    assert all(sorted(e) == list(range(12)) for e in epochs)
    assert epochs[0] != epochs[2]                     # the shared stream moved on
    g.manual_seed(1)
    assert [i for (t,) in a for i in t.tolist()] == epochs[0]


def test_too_many_workers_warn_with_the_cpu_count(monkeypatch):
    import os
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    ds = data.TensorDataset(torch.arange(4))
    with pytest.warns(UserWarning, match="This DataLoader will create 4 worker processes in total. Our suggested "
                                         "max number of worker in current system is 1, which is smaller"):
        loader = data.DataLoader(ds, num_workers=4)
    with pytest.warns(UserWarning, match="will create 4 worker processes"):
        assert len(list(loader)) == 4


def test_worker_options_misuse():
    ds = data.TensorDataset(torch.arange(4))
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        data.DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        data.DataLoader(ds, persistent_workers=True)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        data.DataLoader(ds, prefetch_factor=2)
    with pytest.raises(AssertionError, match="prefetch_factor must be greater than 0"):
        iter(data.DataLoader(ds, num_workers=1, prefetch_factor=0))
    assert data.DataLoader(ds, num_workers=1).prefetch_factor == 2


def test_adadelta_step_follows_its_formula_in_float64():
    """One Adadelta step by hand (PyTorch's _single_tensor_adadelta), in float64."""
    import numpy as np
    import autograd_teach as torch
    p = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adadelta([p], lr=0.7, rho=0.8, eps=1e-3, weight_decay=0.1)
    sq = acc = np.zeros(3)
    value = p.detach().numpy().copy()
    for _ in range(3):
        opt.zero_grad()
        (p ** 3).sum().backward()
        g = 3 * value ** 2 + 0.1 * value
        sq = 0.8 * sq + 0.2 * g * g
        delta = np.sqrt(acc + 1e-3) / np.sqrt(sq + 1e-3) * g
        acc = 0.8 * acc + 0.2 * delta * delta
        value = value - 0.7 * delta
        opt.step()
        assert np.allclose(p.detach().numpy(), value, rtol=1e-12, atol=1e-12)
    assert opt.state[p]["step"].item() == 3.0 and np.allclose(opt.state[p]["acc_delta"].numpy(), acc)
