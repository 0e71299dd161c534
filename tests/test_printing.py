"""autograd_teach.compat.printing must print exactly what PyTorch 2.x prints.

The goldens in tests/golden/printing.json were recorded from real PyTorch by
scripts/record_printing_goldens.py; this test needs numpy only.
"""

import json
import math
import pathlib

import numpy as np
import pytest

from autograd_teach.compat.printing import (
                                            format_tensor,
                                            get_printoptions,
                                            printoptions,
                                            set_printoptions,
                                            )

GOLDEN = pathlib.Path(__file__).parent / "golden" / "printing.json"
CASES = json.loads(GOLDEN.read_text())
DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


def decode(case):
    """Rebuild the exact array the golden was recorded from (floats are reprs)."""
    values = case["values"]
    if case["dtype"].startswith("float"):
        values = [float(v) for v in values]
    return np.array(values, dtype=case["dtype"]).reshape(case["shape"])


@pytest.fixture(autouse=True)
def default_printoptions():
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['dtype']}" for i, c in enumerate(CASES)])
def test_matches_pytorch(case):
    if case["printoptions"]:
        set_printoptions(**case["printoptions"])
    assert format_tensor(decode(case), case["dtype"], case["suffixes"]) == case["expected"]


def test_goldens_cover_the_tricky_parts():
    expected = [c["expected"] for c in CASES]
    for needle in ["tensor(2.)", "tensor(0.3333)", "tensor(True)", "tensor(5)", "tensor([])",
                   "size=(0, 3)", "e+", "e-", "nan", "inf", "-0.", "...", "\n\n",
                   "requires_grad=True", "grad_fn=<MulBackward0>", "dtype=torch.int32"]:
        assert any(needle in e for e in expected), needle
    assert len(CASES) >= 300


def test_tutorial_examples():
    assert format_tensor(np.array(28.0), "float32") == "tensor(28.)"
    assert format_tensor(np.array([1.0, 2.0]), "float64", ["requires_grad=True"]) == (
        "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"
    )
    assert format_tensor(np.eye(2), "float32", ["grad_fn=<MulBackward0>"]) == (
        "tensor([[1., 0.],\n        [0., 1.]], grad_fn=<MulBackward0>)"
    )


def test_array_is_cast_to_the_named_dtype():
    assert format_tensor(np.array([1, 2]), "float32") == "tensor([1., 2.])"
    assert format_tensor([0.1], "float16") == "tensor([0.1000], dtype=torch.float16)"


def test_printoptions_defaults_and_profiles():
    assert get_printoptions() == DEFAULTS
    set_printoptions(profile="full")
    assert get_printoptions()["threshold"] == math.inf
    set_printoptions(profile="short", precision=3)
    assert get_printoptions() == {**DEFAULTS, "precision": 3, "edgeitems": 2}


def test_set_printoptions_is_as_lenient_as_pytorch():
    # PyTorch ignores an unknown profile and resets sci_mode on every call.
    set_printoptions(sci_mode=True)
    set_printoptions(profile="no-such-profile")
    assert get_printoptions() == DEFAULTS


def test_printoptions_context_manager_restores():
    set_printoptions(linewidth=100)
    with printoptions(precision=2):
        assert format_tensor(np.array(1 / 3), "float32") == "tensor(0.33)"
        assert get_printoptions()["linewidth"] == 100
    assert get_printoptions() == {**DEFAULTS, "linewidth": 100}
