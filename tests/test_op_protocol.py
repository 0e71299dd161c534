"""The op protocol: saved inputs are declared by name (needed_for), and a
name that is not an input fails when the op class is defined."""
import pytest

from autograd_teach.core.node import OpNode

def test_needed_for_must_name_an_input():
    with pytest.raises(TypeError, match="needed_for"):
        class Typo(OpNode):    # noqa: F841
            inputs = ("self", "other")
            saved = ("self",)
            needed_for = {"self": "othr"}


def test_needed_for_saves_only_what_a_gradient_needs():
    import autograd_teach as torch
    x, c = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 4.0])
    y = x * c          # only x needs a gradient: c is saved (for x's), x is not
    assert y.grad_fn._saved_self is None and y.grad_fn._saved_other is c
