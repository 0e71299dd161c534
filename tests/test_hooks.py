"""register_hook: when hooks run, what they may change. Expected values are
PyTorch 2.13's for the same code (see also the golden program autograd_hooks)."""
import pytest

import autograd_teach as torch
from autograd_teach import engine


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
