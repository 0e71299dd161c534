"""In-place ops through views, as PyTorch names and refuses them (found by
the differential fuzz, tests/test_fuzz.py)."""
import pytest

import autograd_teach as torch

VIEWS = [lambda x: x[0:1], lambda x: x.t(), lambda x: x.view(6), lambda x: x[0],
         lambda x: x.transpose(0, 1), lambda x: x.unsqueeze(0), lambda x: x.permute(1, 0)]


@pytest.mark.parametrize("make_view", VIEWS)
def test_a_view_written_in_place_gets_as_strided_backward(make_view):
    # PyTorch 2.13: the view's grad_fn is AsStridedBackward0, the base's CopySlices
    a = torch.ones(2, 3, requires_grad=True)
    x = a * 1
    v = make_view(x)
    v.mul_(3)
    assert v.grad_fn.name() == "AsStridedBackward0"
    assert x.grad_fn.name() == "torch::autograd::CopySlices"
    (v * torch.arange(v.numel()).view(v.shape)).sum().backward()
    expected = torch.zeros(2, 3)
    make_view(expected).copy_(3 * torch.arange(v.numel()).view(v.shape).float())
    assert a.grad.tolist() == expected.tolist()


def test_writing_in_place_into_an_expanded_tensor_is_refused():
    x = torch.ones(3).expand(2, 3)
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element of the written-to "
                                           "tensor refers to a single memory location"):
        x.add_(1)


def _graph(fn):
    return fn.name() + "(" + ",".join(_graph(f) for f, _ in fn.next_functions if f is not None) + ")"


@pytest.mark.parametrize("make, graph", [
    # recorded from torch 2.13.0
    (lambda a: a.t().reshape(-1), "UnsafeViewBackward0(CloneBackward0(TBackward0(torch::autograd::AccumulateGrad())))"),
    (lambda a: a.t().reshape(3, 2), "ReshapeAliasBackward0(TBackward0(torch::autograd::AccumulateGrad()))"),
    (lambda a: a[:1].reshape(-1), "ViewBackward0(SliceBackward0(torch::autograd::AccumulateGrad()))"),
    (lambda a: a[:, :2].reshape(-1),
     "UnsafeViewBackward0(CloneBackward0(SliceBackward0(torch::autograd::AccumulateGrad())))"),
])
def test_reshape_records_the_node_pytorch_records(make, graph):
    a = torch.ones(2, 3, requires_grad=True)
    y = make(a)
    assert _graph(y.grad_fn) == graph
    (y * torch.arange(y.numel()).view(y.shape)).sum().backward()
    # each element of y is one element of a: a gets each weight 0..n-1 once, 0 elsewhere
    got = sorted(a.grad.flatten().tolist())
    assert got == [0.0] * (6 - y.numel()) + [float(k) for k in range(y.numel())]


def test_a_view_made_under_no_grad_pickles_and_copies_as_a_plain_tensor():
    import copy
    import pickle
    import autograd_teach as torch
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        v = x[:2]
    assert v.requires_grad and v.grad_fn is None and type(v).__name__ == "Tensor"
    for w in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v)):
        assert type(w) is torch.Tensor and w.tolist() == [1.0, 1.0] and w.requires_grad and w.is_leaf
        (w * 2).sum().backward()           # a leaf of its own now: it gets a gradient
        assert w.grad.tolist() == [2.0, 2.0]
    (v * 2).sum().backward()               # the view itself: no edge, nothing anywhere
    assert x.grad is None and v.grad is None


def test_only_the_thread_with_grad_mode_off_makes_no_grad_views():
    import threading
    import autograd_teach as torch
    x = torch.ones(4, requires_grad=True)
    y = x * 2
    inside, entered, done = {}, threading.Event(), threading.Event()

    def background():
        with torch.no_grad():
            entered.set()
            inside["view"] = y[:2]
            done.wait(5)

    t = threading.Thread(target=background)
    t.start()
    entered.wait(5)
    mine = y[2:]                          # made here, grad mode on: an ordinary view with history
    done.set()
    t.join()
    assert mine.grad_fn.name() == "SliceBackward0" and not mine._no_grad_view
    assert inside["view"]._no_grad_view and inside["view"].grad_fn is None and inside["view"].requires_grad
    (mine * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 6.0, 6.0]
