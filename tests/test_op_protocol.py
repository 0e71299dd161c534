"""The op protocol: saved inputs are declared by name, and the script that
converts ops written for the old protocol (save_if by index) is mechanical."""
import importlib.util
import pathlib

import pytest

from autograd_teach.node import OpNode

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "migrate_op_protocol.py"
spec = importlib.util.spec_from_file_location("migrate_op_protocol", SCRIPT)
migrate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(migrate)

OLD = '''import numpy as np

from ..function import Function, quiet


class _Pair(Function):
    inputs = ("self", "other")


class HypotBackward0(_Pair):
    """out = sqrt(self**2 + other**2)"""
    saved = ("self", "other", "result")
    save_if = {"self": 1, "other": 0}   # each is needed only for the other's gradient

    def forward(self, a, b):
        return np.hypot(a, b)
'''


def test_the_migration_renames_the_base_and_names_the_inputs():
    new = migrate.migrate(OLD)
    assert "from ..node import OpNode, quiet" in new
    assert "class _Pair(OpNode):" in new and "class HypotBackward0(_Pair):" in new
    assert 'needed_for = {"self": "other", "other": "self"}   # each is needed only' in new
    assert "save_if" not in new and "Function" not in new
    assert migrate.migrate(new) == new          # a second run changes nothing
    assert new.count("\n") == OLD.count("\n")   # line for line: the docstrings stay where they were


def test_an_op_in_the_old_protocol_fails_loudly():
    with pytest.raises(TypeError, match="needed_for"):
        class OldStyle(OpNode):    # noqa: F841
            inputs = ("self", "other")
            saved = ("self",)
            save_if = {"self": 1}


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
