"""Parameters labelled by the caller's module variables and named_parameters() names.

No PyTorch needed: the lookup only duck-types ``named_parameters()``, so it
labels an autograd_teach model's parameters the same way (the real-PyTorch
models are in test_viz_torch_models.py)."""
import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import graph as G


class TinyModel:
    """Just what nn.Module offers to the lookup: named_parameters()."""

    def __init__(self):
        self.weight = torch.tensor([2.0], requires_grad=True)
        self.bias = torch.tensor([1.0], requires_grad=True)

    def named_parameters(self):
        return [("layer.weight", self.weight), ("layer.bias", self.bias)]

    def __call__(self, x):
        return x * self.weight + self.bias


def leaf_labels(diagram):
    return {n.name: n.tensor for n in diagram.graph.nodes if n.kind == G.LEAF}


def test_parameters_take_the_module_variable_and_their_names():
    model = TinyModel()
    loss = model(torch.tensor([3.0])).sum()
    labels = leaf_labels(viz.draw(loss))
    assert labels == {"model.layer.weight": model.weight, "model.layer.bias": model.bias}


def test_a_tensor_variable_wins_over_the_module_name_and_classes_are_skipped():
    model = TinyModel()
    b = model.bias
    cls = TinyModel       # noqa: F841  (a class: its named_parameters is not callable unbound)
    loss = model(torch.tensor([3.0])).sum()
    assert set(leaf_labels(viz.draw(loss))) == {"model.layer.weight", "b"}


def test_explicit_names_turn_the_lookup_off():
    model = TinyModel()
    loss = model(torch.tensor([3.0])).sum()
    assert set(leaf_labels(viz.draw(loss, names={}))) == {"leaf0", "leaf1"}
