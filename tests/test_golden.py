"""Compare autograd_teach with the PyTorch goldens (torch is not needed).

Each program in tests/golden/programs runs with autograd_teach imported as
``torch``; its normalized output must equal tests/golden/expected/<name>.txt,
recorded from real PyTorch by scripts/record_goldens.py.
"""

import difflib
import importlib
import importlib.util
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
PROGRAMS = sorted((GOLDEN / "programs").glob("*.py"))
EXPECTED = GOLDEN / "expected"

_spec = importlib.util.spec_from_file_location("golden_runner", GOLDEN / "runner.py")
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)


@pytest.fixture(scope="module")
def teach():
    return importlib.import_module("autograd_teach")


def test_every_program_has_a_golden_and_vice_versa():
    programs = {p.stem for p in PROGRAMS}
    goldens = {p.stem for p in EXPECTED.glob("*.txt")}
    assert sorted(programs - goldens) == [], "programs without a golden: run `make goldens`"
    assert sorted(goldens - programs) == [], "goldens without a program"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_matches_pytorch(path, teach):
    golden = EXPECTED / f"{path.stem}.txt"
    expected = golden.read_text(encoding="utf-8").splitlines()
    actual = runner.run_file(path, teach)
    if actual != expected:
        diff = "\n".join(difflib.unified_diff(
            expected, actual, "pytorch (golden)", "autograd_teach", lineterm=""))
        pytest.fail(f"{path.name} differs from PyTorch:\n{diff}", pytrace=False)
