"""Every exercise survives the path a real learner takes, in a real kernel.

The prompt says "replace ... and run this cell again", so a learner runs each
exercise as given first, then tries an answer that is wrong, then the right
one, then runs it once more (to be sure), and at the end runs the whole
notebook again (Run All) with the answers in place.  Per lesson and language,
in one kernel (as the learner has one), this test does exactly that:

1. every cell from the top, in order; an exercise, run as given, prints the
   prompt (or ✗, for a "fix the code" cell) and raises nothing;
2. right after it, the same exercise wrong (``build_lessons.wrong_version``):
   ✗, with the kind of answer expected, and nothing raised;
3. then its ``%% answer`` block: ✓; then the answer again: ✓ again (an
   exercise whose cell changes state it then checks would fail here);
4. after the last cell, every cell once more, the answers in place: ✓ from
   every exercise, no error anywhere (so no cell depends on running once).

Any error output fails the test, with the cell that raised.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

from autograd_teach.lessons import MESSAGES

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
builder = importlib.util.module_from_spec(spec)
spec.loader.exec_module(builder)

LANGS = ("en", "zh")
NOTEBOOKS = [(lang, stem) for stem in builder.lesson_sources() for lang in LANGS]


def _printed(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


class Learner:
    """One kernel, running cells one at a time as a learner presses Shift-Enter."""

    def __init__(self, client, lang, stem):
        self.client, self.lang, self.stem = client, lang, stem
        self.say = MESSAGES[lang]

    def run(self, source, what):
        cell = nbformat.v4.new_code_cell(source)
        self.client.nb.cells.append(cell)  # the client stores each run's outputs in its notebook
        try:
            self.client.execute_cell(cell, len(self.client.nb.cells) - 1)
        except Exception as error:  # CellExecutionError: the traceback is in its message
            pytest.fail(f"{self.lang}/{self.stem}, {what}: the cell raised\n{source}\n{error}")
        return _printed(cell)

    def expect(self, source, what, want, *, also_wrong=False):
        out = self.run(source, what)
        ok = {"prompt": self.say["prompt"] in out or (also_wrong and "✗" in out),
              "wrong": "✗" in out and "✓" not in out and self.say["answer"] not in out,
              "right": self.say["right"] in out and "✗" not in out}[want]
        assert ok, f"{self.lang}/{self.stem}, {what}: expected {want}, got:\n{out}\n--- cell:\n{source}"


def _lesson(stem):
    path = builder.lesson_sources()[stem]
    return builder.parse_source(path.read_text(encoding="utf-8"), str(path))


def walk(cells, lang, stem):
    """The learner's path (see the module's docstring) through the code cells of
    one parsed lesson source, in one kernel; fails at the first cell that goes wrong."""
    from nbclient import NotebookClient

    cells = [c for c in cells if c["type"] == "code"]
    assert any("answer" in c for c in cells), f"{stem}: no exercise"
    nb = nbformat.v4.new_notebook()  # the learner's runs are appended one by one
    client = NotebookClient(nb, kernel_name="python3", timeout=builder.CELL_TIMEOUT,
                            resources={"metadata": {"path": str(builder.NOTEBOOKS / lang)}},
                            allow_errors=False)
    with client.setup_kernel():
        learner = Learner(client, lang, stem)
        for i, cell in enumerate(cells):
            if "answer" not in cell:
                learner.run(cell[lang], f"code cell {i}")
                continue
            fix_the_code = "..." not in cell[lang]
            learner.expect(cell[lang], f"exercise {i} as given", "prompt", also_wrong=fix_the_code)
            learner.expect(builder.wrong_version(cell, lang), f"exercise {i}, a wrong answer", "wrong")
            learner.expect(cell["answer"][lang], f"exercise {i}, the answer", "right")
            learner.expect(cell["answer"][lang], f"exercise {i}, the answer again", "right")
        for i, cell in enumerate(cells):  # Run All, with the answers in place
            if "answer" in cell:
                learner.expect(cell["answer"][lang], f"Run All again, exercise {i}", "right")
            else:
                learner.run(cell[lang], f"Run All again, code cell {i}")


@pytest.mark.parametrize("lang,stem", NOTEBOOKS)
def test_every_exercise_survives_the_learners_path(lang, stem):
    walk(_lesson(stem), lang, stem)


# An exercise written as lesson 2's used to be: the checked cell adds to x.grad,
# so the run with the placeholder spoils the right answer; and one whose cell
# cannot run twice. The walk must catch both.
SPOILED_BY_A_RERUN = """%% code
from autograd_teach.lessons import Checker
import autograd_teach as torch
check = Checker("en")
x = torch.arange(4.0, requires_grad=True)
(2 * torch.dot(x, x)).backward()
%% code
guess = ...
x.sum().backward()
check(guess, x.grad)
%% answer
guess = [1.0, 5.0, 9.0, 13.0]
x.sum().backward()
check(guess, x.grad)
"""
RAISES_ON_A_RERUN = """%% code
from autograd_teach.lessons import Checker
import autograd_teach as torch
check = Checker("en")
a = torch.tensor(2.0, requires_grad=True)
L = 3 * a * a
%% code
guess = ...
L.backward()
check(guess, a.grad)
%% answer
guess = 12.0
L.backward()
check(guess, a.grad)
"""


@pytest.mark.parametrize("source,why", [(SPOILED_BY_A_RERUN, "the answer: expected right"),
                                        (RAISES_ON_A_RERUN, "the cell raised")], ids=["spoiled", "raises"])
def test_the_walk_catches_an_exercise_that_breaks_on_a_rerun(source, why):
    with pytest.raises((pytest.fail.Exception, AssertionError), match=why):
        walk(builder.parse_source(source), "en", "broken")


def test_a_wrong_version_replaces_every_placeholder():
    cell = builder.parse_source("%% code\nguess = ...\ndef f(x):\n    return [..., ...]  # ... here\n"
                                "check(guess, 1)\n%% answer\nguess = 1\ncheck(guess, 1)\n")[0]
    wrong = builder.wrong_version(cell, "en")
    assert "..." not in wrong.split("#")[0] and wrong.count(builder.WRONG_GUESS) == 3
    assert wrong.endswith("# ... here\ncheck(guess, 1)")  # comments keep their dots
    with_wrong = builder.parse_source("%% code\nguess = ...\ncheck(guess, 1)\n%% answer\nguess = 1\n"
                                      "check(guess, 1)\n%% wrong\nguess = 2\ncheck(guess, 1)\n")[0]
    assert builder.wrong_version(with_wrong, "zh") == "guess = 2\ncheck(guess, 1)"
