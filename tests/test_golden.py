"""Compare autograd_teach with the PyTorch goldens (torch is not needed).

Each program in tests/golden/programs runs with autograd_teach imported as
``torch``; its normalized output must equal tests/golden/expected/<name>.txt,
recorded from real PyTorch by scripts/record_goldens.py.
"""

import contextlib
import difflib
import importlib
import importlib.util
import signal
import threading
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
PROGRAMS = sorted((GOLDEN / "programs").glob("*.py"))
EXPECTED = GOLDEN / "expected"
TIME_LIMIT = 30  # seconds per program; each takes milliseconds when correct

_spec = importlib.util.spec_from_file_location("golden_runner", GOLDEN / "runner.py")
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)


@contextlib.contextmanager
def time_limit(seconds):
    """Turn a hang (say, a loop on a wrong comparison) into a TimeoutError
    inside the program, which the runner reports as its last line."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"program still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


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
    with time_limit(TIME_LIMIT):
        actual = runner.run_file(path, teach)
    if actual != expected:
        diff = "\n".join(difflib.unified_diff(
            expected, actual, "pytorch (golden)", "autograd_teach", lineterm=""))
        pytest.fail(f"{path.name} differs from PyTorch:\n{diff}", pytrace=False)


def test_a_program_that_changes_directory_leaves_the_tests_where_they_were(tmp_path, teach):
    """d2l 5.5 saves files in a directory of its own; the tests after it (nbval
    reads notebooks/nbval_sanitize.cfg by a relative path) must not notice."""
    import os
    here = os.getcwd()
    out = runner.run_program(f"import os\nos.chdir({str(tmp_path)!r})\nprint('moved')\n", teach)
    assert out == "moved\n" and os.getcwd() == here
