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


def test_an_op_module_imported_whole_gives_its_classes_and_its_tensor_methods():
    """A module imported into ops as a whole (from . import m) gives O its node
    classes on first use, and unique declares its Tensor methods beside its
    ops: both reach O and Tensor as the older names do."""
    import types
    import autograd_teach as torch
    from autograd_teach import ops
    whole = types.ModuleType("autograd_teach.ops.whole")
    whole.WholeBackward0 = type("WholeBackward0", (ops.gelu.GeluBackwardBackward0,), {"__module__": whole.__name__})
    vars(ops)["whole"] = whole
    try:
        assert ops.WholeBackward0 is whole.WholeBackward0 and vars(ops)["WholeBackward0"] is whole.WholeBackward0
    finally:
        del vars(ops)["whole"], vars(ops)["WholeBackward0"]
    assert torch.Tensor.unique is ops.unique.unique
    declared = [(m, name, f) for m in ops.op_modules() for name, f in getattr(m, "TENSOR_METHODS", {}).items()]
    assert declared and all(getattr(torch.Tensor, name) is f for _, name, f in declared)
    values, counts = torch.tensor([3, 1, 3]).unique(return_counts=True)
    assert values.tolist() == [1, 3] and counts.tolist() == [1, 2]


def test_a_tensor_method_or_op_class_defined_twice_is_refused():
    import types
    from autograd_teach import ops
    from autograd_teach.ops.methods import add_declared_methods
    twice = types.SimpleNamespace(__name__="autograd_teach.ops.fake", TENSOR_METHODS={"exp": lambda self: self})
    with pytest.raises(ImportError, match="Tensor.exp is defined twice"):
        add_declared_methods(type("Methods", (), {}), [twice])
    other = types.ModuleType("autograd_teach.ops.other_gelu")
    other.GeluBackward1 = type("GeluBackward1", (ops.gelu.GeluBackwardBackward0,), {"__module__": other.__name__})
    ops.gelu.GeluBackward1 = type("GeluBackward1", (ops.gelu.GeluBackwardBackward0,), {"__module__": ops.gelu.__name__})
    vars(ops)["other_gelu"] = other
    try:
        with pytest.raises(ImportError, match="two op classes named GeluBackward1"):
            ops.GeluBackward1
    finally:
        del vars(ops)["other_gelu"], ops.gelu.GeluBackward1
    with pytest.raises(AttributeError):
        ops.NoSuchBackward0
