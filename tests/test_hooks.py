"""register_hook: when hooks run, what they may change. Expected values are
PyTorch 2.13's for the same code (see also the golden program autograd_hooks)."""
import pytest

import autograd_teach as torch
from autograd_teach.core import engine


def test_a_leaf_hook_sees_the_summed_gradient_once():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    calls = []
    x.register_hook(lambda g: calls.append(g.tolist()))
    (x * x).sum().backward()          # two contributions, one call with their sum
    assert calls == [[2.0, 4.0]] and x.grad.tolist() == [2.0, 4.0]


def test_hooks_run_in_order_and_chain_their_results():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: g + 1)
    x.sum().backward()
    assert x.grad.tolist() == [11.0, 11.0]


def test_a_non_leaf_hook_changes_what_flows_on_and_what_retain_grad_keeps():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: g + 1)
    (y * y).sum().backward()
    assert y.grad.tolist() == [7.0, 13.0] and x.grad.tolist() == [21.0, 39.0]


def test_remove_undoes_a_hook():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 0)
    handle.remove()
    handle.remove()                   # a second remove is harmless, as in PyTorch
    x.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_an_order_only_walk_calls_no_hook():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: pytest.fail("hook called by topological_order"))
    assert [n.name() for n in engine.topological_order([y.sum().grad_fn])][:2] == ["SumBackward0", "MulBackward0"]


def test_no_hook_on_a_tensor_without_grad():
    with pytest.raises(RuntimeError, match="^cannot register a hook on a tensor that doesn't require gradient$"):
        torch.ones(2).register_hook(print)


# --- a custom backward returned None: the nodes below still run, with None ---------

class _DropSecond(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, d):
        return a * 1 + d

    @staticmethod
    def backward(ctx, g):
        return g, None


def test_a_hook_below_a_none_gradient_is_called_with_none():
    # PyTorch 2.13: d's hook runs with None, retain_grad keeps nothing, the leaf's
    # own hook sees None too, its .grad stays None; the other input's is right.
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    seen = []
    d = c * 2
    d.register_hook(lambda g: seen.append(("d", g)))
    d.retain_grad()
    c.register_hook(lambda g: seen.append(("c", g)))
    _DropSecond.apply(a, d).sum().backward()
    assert seen == [("d", None), ("c", None)]
    assert d.grad is None and c.grad is None and a.grad.tolist() == [1.0, 1.0]


def test_the_nodes_below_a_none_gradient_run_and_send_none():
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    out = _DropSecond.apply(a, (c * 2).exp())
    steps = []

    class Watcher:
        def step(self, node, grad_outputs, grad_inputs):
            steps.append((node.name(), grad_outputs[0] is None, [g is None for g in grad_inputs]))

        def end(self):
            pass
    handle = engine.add_observer(lambda roots: Watcher())
    try:
        out.sum().backward()
    finally:
        handle.remove()
    below = [s for s in steps if s[0] in ("ExpBackward0", "MulBackward0")]
    assert below == [("ExpBackward0", True, [True]), ("MulBackward0", True, [True, True])]
    assert [s[0] for s in steps].count("torch::autograd::AccumulateGrad") == 2
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.sum().backward()          # the nodes that ran with None freed what they saved, as in PyTorch


def test_a_hook_may_not_replace_a_none_gradient():
    a = torch.ones(2, requires_grad=True)
    d = torch.ones(2, requires_grad=True) * 2
    d.register_hook(lambda g: torch.ones(2))
    with pytest.raises(RuntimeError, match="can't replace a None gradient with a non-None value"):
        _DropSecond.apply(a, d).sum().backward()


def test_a_none_gradient_adds_to_a_real_one_as_nothing():
    a = torch.ones(2, requires_grad=True)
    c = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    d = c * 2
    d.register_hook(lambda g: seen.append(g.tolist()))
    (_DropSecond.apply(a, d) + d * 3).sum().backward()
    assert seen == [[3.0, 3.0]] and c.grad.tolist() == [6.0, 6.0]


def test_nodes_below_a_none_gradient_run_with_create_graph_too():
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    seen = []
    d = (c * 2).exp()
    d.register_hook(lambda g: seen.append(g))
    ga, gc = torch.autograd.grad(_DropSecond.apply(a, d).sum(), [a, c], create_graph=True, allow_unused=True)
    assert seen == [None] and gc is None and ga.tolist() == [1.0, 1.0]
