"""Nodes with several outputs (unbind, split, chunk, custom Functions that
return a tuple): one node for all outputs, one gradient slot per output.

Gradients are checked by finite differences in float64 (gradcheck and, with
create_graph=True, gradgradcheck), off the happy path too: unused outputs,
an output used twice, the input also used directly, outputs of several such
nodes in one graph, threads. What PyTorch prints and raises is checked by the
golden programs tests/golden/programs/multi_output_*.py; here are the
engine's semantics: slots, hooks, retain_grad, autograd.grad, roots."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.core import engine
from autograd_teach.autograd import gradcheck, gradgradcheck


def leaf(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float64, requires_grad=True)


# -- gradients by finite differences ---------------------------------------------------

CASES = [
    ("unbind rows, each output", lambda x: x.unbind(0), (3, 4)),
    ("unbind dim 1, one output unused", lambda x: (lambda u: u[0] * u[2])(x.unbind(1)), (2, 4)),
    ("unbind dim -1 of 3-d", lambda x: (lambda u: u[1].exp() + u[0])(x.unbind(-1)), (2, 3, 2)),
    ("chunk uneven, each output", lambda x: x.chunk(3), (7, 2)),
    ("chunk, an output used twice", lambda x: (lambda a, b: a * a + a.sin() * b)(*x.chunk(2, 1)), (3, 4)),
    ("split int, only the last used", lambda x: x.split(2)[-1] * 3, (5,)),
    ("split sizes dim 1", lambda x: (lambda a, b, c: (a * c).sum(1) + b[:, 0])(*x.split([1, 2, 1], 1)), (3, 4)),
    ("split, the input used directly too", lambda x: x.split(2)[0].sum() * x, (4,)),
    ("split size larger than the dim", lambda x: x.split(10)[0] ** 2, (3,)),
    ("unbind of a chunk (two nodes)", lambda x: (lambda a, b: a.unbind(0)[1] * b.unbind(0)[0])(*x.chunk(2)),
     (4, 3)),
    ("iteration over rows", lambda x: sum(row * k for k, row in enumerate(x)), (3, 2)),
    ("tensor_split", lambda x: (lambda a, b, c: a.sum() * b + c.sum())(*x.tensor_split(3)), (7,)),
]


@pytest.mark.parametrize("f,shape", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_gradients_match_finite_differences(f, shape):
    assert gradcheck(f, (leaf(*shape),))


@pytest.mark.parametrize("f,shape", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_second_derivatives_match_finite_differences(f, shape):
    assert gradgradcheck(f, (leaf(*shape),))


def test_a_wrong_slot_would_be_caught():
    """The gradient of output 1 alone lands in the second half only."""
    x = leaf(6)
    a, b = x.chunk(2)
    (b * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
    assert x.grad.tolist() == [0, 0, 0, 1, 2, 3]


def test_shared_weights_in_a_loop_over_rows():
    """An RNN-style loop: every row is an output of one UnbindBackward0, W is
    used at every step; the gradients match finite differences."""
    def rnn(inputs, W):
        H = torch.zeros(2, dtype=torch.float64)
        for X in inputs:
            H = torch.tanh(X @ W + H)
        return H
    assert gradcheck(rnn, (leaf(4, 2, seed=1), leaf(2, 2, seed=2)))
    assert gradgradcheck(rnn, (leaf(4, 2, seed=1), leaf(2, 2, seed=2)))


# -- one node, slots ----------------------------------------------------------------------

class Steps:
    """An observer that keeps (node name, grad_outputs) per step."""

    def __init__(self):
        self.steps = []

    def begin(self, roots):
        return self

    def step(self, node, grad_outputs, grad_inputs):
        self.steps.append((node.name(), grad_outputs))

    def end(self):
        pass


def watched(fn):
    steps = Steps()
    handle = engine.add_observer(steps.begin)
    try:
        fn()
    finally:
        handle.remove()
    return steps.steps


def test_the_node_runs_once_with_every_slot():
    x = leaf(3, 2)
    u = (x * 1).unbind(0)
    loss = (u[0] * 2).sum() + (u[2] * 3).sum()
    steps = watched(loss.backward)
    runs = [outs for name, outs in steps if name == "UnbindBackward0"]
    assert len(runs) == 1
    (outs,) = runs
    assert len(outs) == 3 and outs[1] is None
    assert outs[0].tolist() == [2, 2] and outs[2].tolist() == [3, 3]
    assert x.grad.tolist() == [[2, 2], [0, 0], [3, 3]]


def test_edges_name_the_output_they_come_from():
    y = leaf(6) * 1
    a, b, c = y.chunk(3)
    assert a.grad_fn is b.grad_fn is c.grad_fn
    assert [t.output_nr for t in (a, b, c)] == [0, 1, 2]
    assert (c + a).grad_fn.next_functions == ((a.grad_fn, 2), (a.grad_fn, 0))
    assert y.output_nr == 0 and a.grad_fn.num_outputs == 3


def test_outputs_are_views_that_share_the_version_counter():
    y = leaf(4) * 1
    a, b = y.split(2)
    assert a._base is y and b._base is y
    with torch.no_grad():
        y.add_(1)
    assert a._version == b._version == y._version == 1


def test_roots_at_two_outputs_of_one_node_add_in_their_slots():
    x = leaf(4)
    u = (x * 1).unbind()
    torch.autograd.backward([u[3], u[1], u[3]],
                            [torch.tensor(1.0, dtype=torch.float64), torch.tensor(2.0, dtype=torch.float64),
                             torch.tensor(4.0, dtype=torch.float64)])
    assert x.grad.tolist() == [0, 2, 0, 5]


def test_backward_inputs_and_autograd_grad_capture_an_outputs_slot():
    x = leaf(4)
    q = (x * 1).unbind()
    f = q[1] * 3 + q[2] * 5
    g1, g2, gx = torch.autograd.grad(f, [q[1], q[2], x], retain_graph=True)
    assert (g1.item(), g2.item()) == (3, 5) and gx.tolist() == [0, 3, 5, 0]
    (g0,) = torch.autograd.grad(f, [q[0]], allow_unused=True, retain_graph=True)
    assert g0 is None
    with pytest.raises(RuntimeError, match="index 0 appears to not have been used"):
        torch.autograd.grad(f, [q[0]], retain_graph=True)
    x.grad = None
    f.backward(inputs=[x])
    assert x.grad.tolist() == [0, 3, 5, 0]


def test_hooks_see_their_own_slot_and_none_when_it_got_nothing():
    seen = []
    x = leaf(4)
    a, b = (x * 1).chunk(2)
    b.register_hook(lambda g: seen.append(("b", g)))
    a.register_hook(lambda g: seen.append(("a", None if g is None else g.tolist())))
    (a.sum() * 3).backward()
    assert seen == [("b", None), ("a", [3, 3])]


def test_a_hook_changes_only_its_own_output():
    x = leaf(4)
    a, b = (x * 1).chunk(2)
    handle = b.register_hook(lambda g: g * 10)
    (a.sum() + b.sum()).backward(retain_graph=True)
    assert x.grad.tolist() == [1, 1, 10, 10]
    handle.remove()
    x.grad = None
    (a.sum() + b.sum()).backward()
    assert x.grad.tolist() == [1, 1, 1, 1]


def test_retain_grad_keeps_each_outputs_slot():
    x = leaf(4)
    a, b = (x * 1).chunk(2)
    a.retain_grad()
    b.retain_grad()
    (a * 3).sum().backward(retain_graph=True)
    assert a.grad.tolist() == [3, 3] and b.grad is None
    (b * 2).sum().backward()
    assert a.grad.tolist() == [3, 3] and b.grad.tolist() == [2, 2]


def test_create_graph_builds_stack_and_cat_nodes():
    x = leaf(6)
    u = (x * 1).view(2, 3).unbind(0)
    (g,) = torch.autograd.grad(u[1].exp().sum(), x, create_graph=True)
    names = set()
    stack = [g.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            names.add(node.name())
            stack += [n for n, _ in node.next_functions]
    assert "StackBackward0" in names
    (g,) = torch.autograd.grad(x.split([2, 4])[1].exp().sum(), x, create_graph=True)
    assert g.grad_fn.name() == "CatBackward0"
    assert len(g.grad_fn.next_functions) == 2 and g.grad_fn.next_functions[0] == (None, 0)


def test_a_double_backward_through_a_freed_output_goes_to_its_slot():
    """The saved output c of chunk is gone when the double backward rebuilds
    it: it must still be output 2, not output 0 (this was a wrong gradient)."""
    def f(x):
        a, _, c = x.chunk(3)
        return a * c
    assert gradgradcheck(f, (leaf(6, 2),))


def test_threads_backward_through_separate_unbinds():
    results, errors = {}, []
    barrier = threading.Barrier(2, timeout=10)

    def work(k):
        try:
            x = leaf(50, 3, seed=k)
            rows = list(x * (k + 1))
            barrier.wait()
            loss = sum((r * r).sum() for r in rows)
            loss.backward()
            results[k] = (x.grad.numpy(), x.detach().numpy())
        except BaseException as e:   # re-raised below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
        assert not t.is_alive(), "a thread hung"
    assert not errors, errors
    for k, (grad, data) in results.items():
        np.testing.assert_allclose(grad, 2 * (k + 1) ** 2 * data)


def test_edge_sizes():
    x = leaf(0, 3)
    assert [tuple(t.shape) for t in x.chunk(2)] == [(0, 3), (0, 3)]
    assert x.unbind(0) == ()
    y = leaf(5)
    assert [tuple(t.shape) for t in y.chunk(7)] == [(1,)] * 5
    big = leaf(1000, 2)
    rows = big.unbind(0)
    sum(r.sum() for r in rows[::7]).backward()
    expected = np.zeros((1000, 2))
    expected[::7] = 1
    np.testing.assert_array_equal(big.grad.numpy(), expected)


def test_outputs_of_split_are_refused_once_their_base_changed_in_place():
    """As PyTorch: no history is re-derived for them (grad_fn raises, repr says
    <Invalid>), whether the base changed with grad mode on or off; requires_grad
    and ops under no_grad do not ask."""
    x = leaf(4)
    y = x * 1
    a, b = y.split(2)
    y.mul_(3)
    for use in (lambda: a.grad_fn, lambda: (a * b).sum(), lambda: b.is_leaf):
        with pytest.raises(RuntimeError, match="^Output [01] of Split is a view and its base or another view"):
            use()
    assert "grad_fn=<Invalid>" in repr(a) and a.requires_grad
    with torch.no_grad():
        assert (a * 1).tolist() == (3 * x.detach()[:2]).tolist()
    w = leaf(4)
    first, _ = w.unbind()[:2]
    with torch.no_grad():
        w.mul_(2)
    with pytest.raises(RuntimeError, match="^Output 0 of Unbind is a view and its base"):
        first * 1
    base = torch.ones(4)
    c, d = base.split(2)       # no history to protect: re-derived as any view
    base.mul_(2)
    assert c.grad_fn is None and c.tolist() == [2, 2]


def test_in_place_on_an_output_is_refused_only_inside_a_graph():
    a, b = (leaf(4) * 1).chunk(2)
    with pytest.raises(RuntimeError, match="Output 1 of Split is a view"):
        b.mul_(2)
    with torch.no_grad():
        b.mul_(2)      # not recorded: allowed, as in PyTorch
    c, d = torch.ones(4).chunk(2)
    assert d.add_(1).tolist() == [2, 2]


# -- custom Functions with several outputs --------------------------------------------------

class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s, c = x.sin(), x.cos()
        ctx.save_for_backward(s, c)
        return s, c

    @staticmethod
    def backward(ctx, gs, gc):
        s, c = ctx.saved_tensors
        return gs * c - gc * s


def test_custom_function_with_two_outputs_matches_finite_differences():
    x = leaf(5)
    assert gradcheck(SinCos.apply, (x,))
    assert gradcheck(lambda x: SinCos.apply(x)[1] * 2, (x,))
    assert gradgradcheck(lambda x: (lambda s, c: s * c)(*SinCos.apply(x)), (x,))


def test_custom_function_gets_zeros_for_an_unused_output_or_none():
    got = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x * 2, (x * 3).float()

        @staticmethod
        def backward(ctx, ga, gb):
            got.append(gb if gb is None else (gb.dtype, gb.tolist()))
            return ga * 2, None

    x = leaf(2)
    F.apply(x, True)[0].sum().backward()
    F.apply(x, False)[0].sum().backward()
    assert got == [(torch.float32, [0, 0]), None]
    assert x.grad.tolist() == [4, 4]


def test_custom_function_outputs_hooks_and_retain_grad():
    x = leaf(3)
    s, c = SinCos.apply(x)
    seen = []
    c.register_hook(lambda g: seen.append(g))
    s.retain_grad()
    c.retain_grad()
    (s * 2).sum().backward()
    assert seen == [None] and c.grad is None and s.grad.tolist() == [2, 2, 2]


def test_a_custom_functions_output_changed_in_place_keeps_its_slot():
    """b.mul_(2) snapshots b (output 1) for MulBackward0: the snapshot must
    lead to slot 1 too."""
    x = leaf(3)

    def f(x):
        a, b = SinCos.apply(x * 1)
        b = b * 1      # not a view: PyTorch allows the in-place op on it
        b.mul_(2)
        return a + b
    assert gradcheck(f, (x,))
    s, c = SinCos.apply(x * 1)
    c.mul_(2)
    assert c.grad_fn.name() == "MulBackward0" and c.output_nr == 0
    assert c.grad_fn.next_functions[0] == (s.grad_fn, 1)


class Double_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


def test_mark_dirty_on_a_view_rewrites_its_bases_history():
    """The base's history must go through the custom node (CopySlices), or
    the gradient of the base would skip it (it did: [1, 1, 1, 1])."""
    def f(x):
        y = x * 1
        v = y[:2]
        assert Double_.apply(v) is v
        return y * y
    assert gradcheck(f, (leaf(4),))
    x = leaf(4)
    y = x * 1
    Double_.apply(y[1:3])
    y.sum().backward()
    assert x.grad.tolist() == [1, 2, 2, 1] and y._version == 2


def test_mark_dirty_checks_and_versions():
    x = leaf(3)
    z = x * 1
    assert Double_.apply(z) is z and z.grad_fn.name() == "Double_Backward" and z._version == 2
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad has been used in an in-place"):
        Double_.apply(x)
    plain = torch.ones(2)
    assert Double_.apply(plain).tolist() == [2, 2] and plain._version == 2 and plain.grad_fn is None


@pytest.mark.parametrize("make", [lambda x: x.split([1, 3]), lambda x: x.split(2), lambda x: x.unbind(),
                                  lambda x: x.chunk(2)])
def test_what_a_multi_output_node_saved_is_listed_for_viz_before_and_after_backward(make):
    # viz's show_saved lists saved_tensors_info(): these nodes saved sizes only, which
    # PyTorch keeps after backward frees the tensors (x.split([1, 3]) shows split_sizes)
    x = torch.ones(4, requires_grad=True)
    outs = make(x)
    node = outs[0].grad_fn
    names = sorted(a for a in dir(node) if a.startswith("_saved_"))
    assert names
    for when in ("before", "after"):
        info = {i.name: i.value for i in node.saved_tensors_info()}
        assert sorted(info) == names, when
        assert all(info[n] == getattr(node, n) for n in names), when
        if when == "before":
            sum(o.sum() for o in outs).backward()
