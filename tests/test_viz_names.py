"""draw()/show() label tensors with the caller's variable names by default."""
import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import graph as G

viz.autorecord(False)   # these tests need no gradients; keep the store untouched


def labels(diagram):
    return {n.name for n in diagram.graph.nodes}


def test_leaf_and_output_take_the_callers_names():
    weight = torch.ones(3, requires_grad=True)
    loss = (weight * 2).sum()
    assert {"weight", "loss"} <= labels(viz.draw(loss))


def test_empty_mapping_turns_naming_off():
    weight = torch.ones(3, requires_grad=True)
    loss = (weight * 2).sum()
    names = labels(viz.draw(loss, names={}))
    assert "weight" not in names and "leaf0" in names and "output" in names


def test_explicit_names_win_and_underscore_names_are_skipped():
    _hidden = torch.ones(2, requires_grad=True)
    out = (_hidden * 3).sum()
    assert "_hidden" not in labels(viz.draw(out))
    assert "w" in labels(viz.draw(out, names={"w": _hidden}))


def test_first_bound_name_wins_for_a_tensor_with_two_names():
    first = torch.ones(2, requires_grad=True)
    second = first  # noqa: F841  (a second name for the same tensor)
    found = G.caller_names(__import__("sys")._getframe())
    assert list(found)[:2] == ["first", "second"]
    out = (first * 1).sum()
    assert "first" in labels(viz.draw(out)) and "second" not in labels(viz.draw(out))
