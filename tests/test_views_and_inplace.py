"""Views, in-place ops and edge cases found in review. Every expected value
below is what PyTorch 2.13 gives for the same code (checked with real torch)."""
import copy

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck


def test_a_root_given_twice_counts_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    torch.autograd.backward([y, y])
    assert x.grad.tolist() == [4.0, 4.0]


def test_a_single_element_is_a_view():
    x = torch.zeros(3)
    x[0].add_(1)
    x[1].fill_(7)
    assert x.tolist() == [1.0, 7.0, 0.0]
    e = x[1]
    x.add_(1)
    assert e.item() == 8.0 and e._version == x._version


def test_a_reshape_that_copies_is_not_a_view():
    x = torch.ones(2, 3, requires_grad=True)
    r = x.t().reshape(6)          # a copy: in-place on it is fine, as in PyTorch
    r.add_(1)
    assert r.grad_fn.name() == "AddBackward0"
    a = x.exp()
    r = a.t().reshape(6)
    with torch.no_grad():
        r.add_(1)                 # does not touch a's version: a's backward still works
    a.sum().backward()
    assert np.allclose(x.grad.numpy(), np.e)


def test_retain_grad_survives_an_inplace_op():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.add_(1)
    y.sum().backward()
    assert y.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("fill, node", [("uniform_", "UniformBackward0"), ("normal_", "NormalBackward0")])
def test_random_fill_inside_a_graph_cuts_the_gradient(fill, node):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    getattr(y, fill)()
    assert y.grad_fn.name() == node
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_reduction_indices_are_freed_and_shown_as_tensors():
    x = torch.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
    v = x.max(0).values
    assert v.grad_fn._saved_indices.tolist() == [1, 0]
    y = v.sum()
    y.backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.backward()
    z = x[[0, 1], [1, 0]].sum()
    z.backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        z.backward()


def test_assignment_and_copy_cast_to_the_tensors_dtype():
    t = torch.tensor([1, 2, 3])
    t[0] = 2.5
    assert t.tolist() == [2, 2, 3] and t.dtype is torch.int64
    assert torch.tensor([1, 2]).copy_(torch.tensor([1.5, 2.5])).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired output type Long$"):
        torch.tensor([1, 2]).add_(1.5)


def test_inplace_on_a_view_rewrites_the_base_history():
    # y does not require grad; adding w into a row makes y part of the graph (CopySlices)
    w = torch.ones(3, requires_grad=True)
    y = torch.zeros(2, 3)
    y[0].add_(w)
    assert y.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]] and y.grad_fn.name() == "torch::autograd::CopySlices"
    (y * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    assert w.grad.tolist() == [1.0, 2.0, 3.0]


def test_augmented_assignment_into_an_element():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[0] += 5
    assert y.tolist() == [6.0, 2.0, 3.0]
    (y * y).sum().backward()
    assert x.grad.tolist() == [12.0, 4.0, 6.0]


def test_inplace_on_a_slice_and_on_a_view_of_a_view():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[1:]
    v.mul_(x[:2])
    assert y.tolist() == [2.0, 4.0, 12.0]
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 8.0, 4.0]
    m = torch.ones(2, 2, requires_grad=True)
    z = m * 1
    z.t()[0].mul_(3)
    assert z.tolist() == [[3.0, 1.0], [3.0, 1.0]]
    z.sum().backward()
    assert m.grad.tolist() == [[3.0, 1.0], [3.0, 1.0]]


def test_no_gradient_means_a_plain_write():
    y = torch.zeros(2, 3)
    y[0].add_(1)
    assert y.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]] and y.grad_fn is None


def test_gradcheck_skips_outputs_that_need_no_grad():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda a: (a.detach() * 0 + 5, a * 2), (x,))


def test_randint_with_high_and_size():
    torch.manual_seed(0)
    assert torch.randint(10, (3,)).tolist() == [4, 9, 3]


def test_zero_to_a_power_and_the_zero_norm():
    x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
    (0 ** x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, float("-inf")]
    x.grad = None
    n = x.norm(0)
    n.backward()
    assert n.item() == 2.0 and x.grad is None


def test_flatten_of_a_vector_is_itself():
    x = torch.ones(3, requires_grad=True)
    assert x.flatten() is x
    assert torch.ones(2, 2).flatten().shape == (4,)


def _names(fn):
    return [None if f is None else f.name() for f, _ in fn.next_functions]


def test_setitem_on_the_whole_tensor_writes_into_it_as_copy_to():
    # PyTorch: x[...] / x[()] / x[:] pick x itself, so setitem is copy_to(x, value):
    # a 0-d value fills (FillBackward3), another shape is viewed and expanded, then copied.
    x = torch.ones(2, 3, requires_grad=True)
    s = torch.tensor(2.0, requires_grad=True)
    row = torch.ones(1, 3, requires_grad=True)
    for index in (Ellipsis, (), slice(None), (slice(0, 5), Ellipsis)):
        y = x * 1
        y[index] = 5
        assert y.grad_fn.name() == "FillBackward3" and _names(y.grad_fn) == ["MulBackward0", None]
        y = x * 1
        y[index] = s * 1
        assert y.grad_fn.name() == "FillBackward3" and _names(y.grad_fn) == ["MulBackward0", "MulBackward0"]
        y = x * 1
        y[index] = row * 1
        assert _names(y.grad_fn) == ["MulBackward0", "ExpandBackward0"]
    y = x * 1
    y[:1] = 5                      # a part of x: a view, so CopySlices
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    z = torch.tensor(2.0, requires_grad=True) * 1
    z[...] = torch.ones(1, requires_grad=True) * 1      # 0-d: viewed without its leading 1
    assert _names(z.grad_fn) == ["MulBackward0", "ViewBackward0"]


def test_fill_with_a_tensor_sends_its_gradient_to_the_value():
    s = torch.tensor(2.0, requires_grad=True)
    y = (torch.ones(3, requires_grad=True) * 1).fill_(s * 1)
    assert y.grad_fn.name() == "FillBackward3"
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert s.grad.item() == 6.0
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor but got tensor with 1 dim"):
        torch.ones(2).fill_(torch.ones(1))


# --- an in-place op on a view: CopySlices holds the op's node, as in PyTorch -------

def test_inplace_on_a_view_puts_the_ops_node_inside_copyslices():
    # PyTorch: x's new grad_fn is CopySlices(old base, then the op's edges but its first);
    # the MulBackward0 of mul_ is not a node below it (the torch cross-check compares this).
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    a[1:].mul_(5)
    assert _names(a.grad_fn) == ["MulBackward0", None]     # 5 is a number: no edge
    assert a.grad_fn.fn.name() == "MulBackward0"             # held inside
    w = torch.tensor([3.0], requires_grad=True)
    b = x * 1
    b[1:].mul_(w)
    assert _names(b.grad_fn) == ["MulBackward0", "torch::autograd::AccumulateGrad"]
    c = x * 1
    c.t()[:1].pow_(2)
    assert _names(c.grad_fn) == ["MulBackward0"]
    d = x * 1
    d.view(2, 1)[0][0] = w[0] * 3        # setitem on a view of a view: CopySlices(d, value)
    assert _names(d.grad_fn) == ["MulBackward0", "MulBackward0"]


def _through_views(x, w):
    a = x * 1
    a[1:].mul_(w)                     # a view's mul_ with a tensor
    a.t()[:2].add_(w.sum()).pow_(2)   # two in a row on another view
    v = a.view(3, 1)[0]
    v[0] = w[0] * 3                   # setitem on a view
    a[2:].zero_()                     # the op's gradient for the region is zero
    a.unsqueeze(0)[0][1:2].sin_()
    a[:2][[0]] = w[1:] * x[2]         # advanced setitem on a view: CopySlices held in a CopySlices
    return a * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64) + a.sum() * a[1]


def test_inplace_on_a_view_gradients_by_finite_differences():
    from autograd_teach.autograd import gradcheck
    x = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    assert gradcheck(_through_views, (x, w))


def test_inplace_on_a_view_second_derivatives_by_finite_differences():
    # create_graph=True through a CopySlices holding the op's node: its backward
    # is recorded (the region write is a CopySlices again) and differentiated.
    from autograd_teach.autograd import gradgradcheck
    x = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    assert gradgradcheck(_through_views, (x, w))


def test_inplace_on_a_view_create_graph_gives_the_same_gradients():
    # gradgradcheck checks the second derivative of what create_graph built; this
    # checks that what it built is the first derivative.
    x = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    plain = torch.autograd.grad(_through_views(x, w).sum(), (x, w))
    recorded = torch.autograd.grad(_through_views(x, w).sum(), (x, w), create_graph=True)
    for p, r in zip(plain, recorded):
        assert r.grad_fn is not None and np.allclose(p.detach().numpy(), r.detach().numpy())


def test_double_backward_through_copyslices_holding_a_node():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x * 1
    a[1:].pow_(3)                     # a = [x0, x1^3, x2^3]
    (g,) = torch.autograd.grad(a.sum(), x, create_graph=True)
    assert g.tolist() == [1.0, 12.0, 27.0]                   # 3 x^2
    assert g.grad_fn is not None
    g.sum().backward()
    assert x.grad.tolist() == [0.0, 12.0, 18.0]              # 6 x


def test_inplace_on_a_view_of_a_base_without_grad():
    # The base needs no gradient: CopySlices has no edge for it, only the op's others.
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    a = torch.zeros(3)
    a[:2].add_(w)
    assert _names(a.grad_fn) == [None, "torch::autograd::AccumulateGrad"]
    (a * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert w.grad.tolist() == [1.0, 2.0]


def test_a_second_backward_through_a_held_node_is_refused():
    # The held node's saved tensors are freed with CopySlices'.
    # (AddBackward0 saves nothing: only the held MulBackward0 can refuse.)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0], requires_grad=True)
    a = x + 0
    a[1:].mul_(w)
    a.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        a.sum().backward()


# --- a view whose base changed is re-derived when its grad_fn is read, as in PyTorch ----

def _run_order(out):
    from autograd_teach.core import engine
    ran = []

    class Watcher:
        def step(self, node, grad_outputs, grad_inputs):
            ran.append(node.name())

        def end(self):
            pass
    handle = engine.add_observer(lambda roots: Watcher())
    try:
        out.backward()
    finally:
        handle.remove()
    return ran


def test_a_view_of_a_changed_base_gets_its_node_when_read():
    # PyTorch re-derives v1 when its grad_fn is read: v1's AsStridedBackward0 is made
    # after v2.sum()'s node, so backward runs it first (the highest sequence number
    # first). Made at mul_, it ran after SumBackward0. v2, written through, is
    # re-derived at once.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    v1, v2 = a[0], a[1:]
    v2.mul_(5)
    s = v2.sum()
    out = v1 + s
    assert a.grad_fn.sequence_nr < v2.grad_fn.sequence_nr < s.grad_fn.sequence_nr < v1.grad_fn.sequence_nr
    assert _run_order(out)[:3] == ["AddBackward0", "AsStridedBackward0", "SumBackward0"]
    assert x.grad.tolist() == [1.0, 5.0]


def test_a_view_read_twice_after_a_change_keeps_one_node():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    v = a[0]
    a.mul_(3)
    first = v.grad_fn
    assert first.name() == "AsStridedBackward0" and v.grad_fn is first
    assert first.next_functions[0][0] is a.grad_fn
    a.add_(1)                          # changed again: a new node, from the newest base
    assert v.grad_fn is not first and v.grad_fn.next_functions[0][0] is a.grad_fn
    v.backward()
    assert x.grad.tolist() == [3.0, 0.0]


def test_a_view_of_a_base_changed_under_no_grad_is_re_derived_too():
    # PyTorch: any in-place change of the base (the version counter moved) re-derives
    # the view's grad_fn on read, also under no_grad, also when read under no_grad.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    v = a[0]
    with torch.no_grad():
        a.mul_(2)
    with torch.no_grad():
        assert v.grad_fn.name() == "AsStridedBackward0"
    assert v.grad_fn.next_functions[0][0] is a.grad_fn     # a kept its MulBackward0
    t = x.t()                          # a view of a leaf that requires grad
    with torch.no_grad():
        x.add_(1)
    assert t.grad_fn.name() == "AsStridedBackward0"
    assert t.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"


def test_a_view_of_a_base_that_gets_a_history_requires_grad():
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.zeros(2)
    v = b[1]
    b.add_(torch.ones(2))               # nothing requires grad: nothing to re-derive
    assert v.grad_fn is None and not v.requires_grad
    b.mul_(w)
    assert v.requires_grad and v.is_leaf is False
    (v * 4).backward()                  # an op on the view records: it reads the new history
    assert w.grad.tolist() == [0.0, 4.0]


def test_a_stale_view_is_still_a_plain_tensor_to_the_user():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    v, u = a[0], a[1]
    a.mul_(2)
    assert isinstance(v, torch.Tensor) and repr(type(v)) == repr(torch.Tensor)
    assert "AsStridedBackward0" in repr(v)
    assert type(v) is torch.Tensor      # read: up to date again
    b = torch.tensor([1.0, 2.0])
    s = b[1]
    b.add_(1)
    c = copy.copy(s)                    # copy (and pickle) see it re-derived: a plain Tensor
    assert type(c) is torch.Tensor and type(s) is torch.Tensor and c.tolist() == 3.0
    assert (u * 1).grad_fn.next_functions[0][0].name() == "AsStridedBackward0"


def test_threads_reading_a_stale_view_share_one_node():
    import threading
    for _ in range(20):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        a = x * 1
        v = a[0]
        a.mul_(2)
        seen, start = [], threading.Barrier(4)

        def read():
            start.wait()
            seen.append(v.grad_fn)
        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(set(map(id, seen))) == 1 and seen[0] is v.grad_fn
