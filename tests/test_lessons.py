"""The lesson notebooks: built from their sources, fully executed, and covering the tutorials.

nbval (``pytest --nbval notebooks ...``) re-runs the notebooks and compares
outputs; these tests check what nbval cannot see:

(a) every notebook's cells are exactly what ``scripts/build_lessons.py``
    builds from ``notebooks/src/`` (so the source, the English and the
    Chinese notebook cannot drift apart), and en/zh share identical code cells;
(b) every code cell has an execution count and at least one stored output
    (nbval silently passes a cell with none);
(c) no stored output is an error;
(d) every code block of the four source tutorials (their reconstructions in
    ``tests/golden/programs/seed*.py``) appears in some lesson.
"""
from __future__ import annotations

import importlib.util
import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
PROGRAMS = ROOT / "tests" / "golden" / "programs"
LESSONS = [
    "01_tracking_computation",
    "02_backward_and_gradients",
    "03_non_scalar_outputs",
    "04_leaves_retain_graph_mse",
    "05_stopping_gradients",
    "06_control_flow",
    "07_training_loop",
]
LANGS = ("en", "zh")


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = _load_builder()


def _read(lang, stem):
    return nbformat.read(NOTEBOOKS / lang / f"{stem}.ipynb", as_version=4)


def _all_notebooks():
    return [(lang, stem) for stem in LESSONS for lang in LANGS]


def test_every_lesson_has_a_source_and_both_notebooks():
    assert list(builder.lesson_sources()) == LESSONS
    for lang, stem in _all_notebooks():
        assert (NOTEBOOKS / lang / f"{stem}.ipynb").is_file(), f"{lang}/{stem}.ipynb is missing"


# --- (a) no drift -----------------------------------------------------------

@pytest.mark.parametrize("lang,stem", _all_notebooks())
def test_notebook_cells_are_built_from_source(lang, stem):
    built = builder.build_notebook(builder.SRC / f"{stem}.md", lang)
    have = _read(lang, stem)
    assert [(c.id, c.cell_type, c.source) for c in have.cells] == \
           [(c.id, c.cell_type, c.source) for c in built.cells], \
        f"{lang}/{stem}.ipynb differs from notebooks/src/{stem}.md: run scripts/build_lessons.py {stem[:2]}"
    assert have.metadata.kernelspec == builder.KERNELSPEC
    assert have.metadata.language_info == builder.LANGUAGE_INFO


@pytest.mark.parametrize("stem", LESSONS)
def test_english_and_chinese_share_code_cells(stem):
    en, zh = (_read(lang, stem) for lang in LANGS)
    assert [c.cell_type for c in en.cells] == [c.cell_type for c in zh.cells]
    assert [c.id for c in en.cells] == [c.id for c in zh.cells]
    assert [c.source for c in en.cells if c.cell_type == "code"] == \
           [c.source for c in zh.cells if c.cell_type == "code"]
    # the markdown really is translated, not copied
    for a, b in zip(en.cells, zh.cells):
        if a.cell_type == "markdown":
            assert a.source != b.source
            assert re.search(r"[\u4e00-\u9fff]", b.source), f"{stem} {b.id}: no Chinese in the zh cell"


def test_index_links_every_lesson_in_both_languages():
    index = nbformat.read(NOTEBOOKS / "index.ipynb", as_version=4)
    assert all(c.cell_type == "markdown" for c in index.cells)
    built = builder.build_index(builder.lesson_sources())
    assert [c.source for c in index.cells] == [c.source for c in built.cells], \
        "notebooks/index.ipynb is out of date: run scripts/build_lessons.py"
    text = "\n".join(c.source for c in index.cells)
    for lang, stem in _all_notebooks():
        assert f"]({lang}/{stem}.ipynb)" in text


def test_source_format_is_checked():
    with pytest.raises(builder.SourceError):
        builder.parse_source("%% md\n:: en\nonly English\n")
    with pytest.raises(builder.SourceError):
        builder.parse_source("%% code\n\n")
    cells = builder.parse_source("note\n%% md\n:: en\nHi\n:: zh\n你好\n%% code\nx = 1\nx\n")
    assert cells == [{"type": "markdown", "en": "Hi", "zh": "你好"},
                     {"type": "code", "source": "x = 1\nx"}]


# --- (b) and (c) executed, with outputs, without errors ---------------------

@pytest.mark.parametrize("lang,stem", _all_notebooks())
def test_every_code_cell_has_stored_output(lang, stem):
    nb = _read(lang, stem)
    counts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert cell.execution_count is not None, f"{cell.id} was never executed"
        assert cell.outputs, f"{cell.id} has no stored output for nbval to compare:\n{cell.source}"
        counts.append(cell.execution_count)
    assert counts == list(range(1, len(counts) + 1)), "cells were not run once, in order, from the top"


@pytest.mark.parametrize("lang,stem", _all_notebooks())
def test_no_stored_output_is_an_error(lang, stem):
    for cell in _read(lang, stem).cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{cell.id}: {out.get('ename')}: {out.get('evalue')}"
            assert not (out.output_type == "stream" and out.name == "stderr"), \
                f"{cell.id} wrote to stderr (warnings carry file paths that differ between machines):\n{out.text}"


@pytest.mark.parametrize("lang,stem", _all_notebooks())
def test_outputs_carry_no_unmasked_randomness(lang, stem):
    """What nbval compares must be the same on every machine: no ids, no paths."""
    for cell in _read(lang, stem).cells:
        for out in cell.get("outputs", []):
            text = out.get("text", "") + "".join(
                v for k, v in out.get("data", {}).items() if isinstance(v, str) and k != "image/svg+xml")
            assert "/tmp/" not in text and "ipykernel_" not in text, f"{cell.id}: a file path in the output"


def test_lesson_two_has_the_widget_the_browser_test_needs():
    nb = _read("en", "02_backward_and_gradients")
    sources = [c.source for c in nb.cells if c.cell_type == "code"]
    assert any("y = 2 * torch.dot(x, x)" in s for s in sources)
    assert any("y.backward()" in s for s in sources)
    widget = [c for c in nb.cells if c.cell_type == "code" and c.source.strip() == "viz.show(y)"]
    assert widget, "lesson 2 needs a viz.show(y) cell"
    # viz.show() displays the static diagram first (what a notebook shows before its
    # kernel runs), then the widget
    fallback, out = widget[0].outputs
    assert builder.WIDGET_VIEW in out.data
    assert 'class="at-fallback"' in fallback.data["text/html"]
    svgs = [o.data["image/svg+xml"] for c in nb.cells if c.cell_type == "code"
            for o in c.outputs if "image/svg+xml" in o.get("data", {})]
    assert any(all(name in s for name in ("DotBackward0", "MulBackward0", "AccumulateGrad")) for s in svgs)


# --- (d) the tutorials' code is all there -----------------------------------

# Lines of a seed program that no lesson runs verbatim, and why:
#   id(...) and data_ptr() print addresses, which differ on every run; the
#   lessons print the comparisons instead (print(id(x) == id(y)) and
#   print(x.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())).
NOT_VERBATIM = re.compile(r"^print\((id\(\w+\)|\w+\.untyped_storage\(\)\.data_ptr\(\))\)$")
ADDED = "# added:"  # lines from this marker to the next blank line were added to the seed programs


def _code_lines(source):
    """Statements of ``source`` without comments and without any whitespace."""
    kept = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError):
        tokens = []
    comments = {(t.start[0]) for t in tokens if t.type == tokenize.COMMENT}
    for number, line in enumerate(source.splitlines(), 1):
        if number in comments:
            # drop the comment itself (tokenize found where it starts)
            start = next(t.start[1] for t in tokens if t.type == tokenize.COMMENT and t.start[0] == number)
            line = line[:start]
        line = re.sub(r"\s+", "", line)
        if line:
            kept.append(line)
    return kept


def _seed_blocks(path):
    """The code blocks of a seed program (blank-line separated, as in the tutorial), as key lines."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for chunk in re.split(r"\n\s*\n", text):
        chunk = chunk.split(ADDED)[0]  # an "# added:" comment runs to the end of its block
        lines = [line for line in _code_lines(chunk)
                 if line != "importtorch" and not NOT_VERBATIM.match(line)]
        if lines:
            blocks.append(lines)
    return blocks


def _variants(line):
    """A line and its form as a displayed expression: print(x) <-> x."""
    m = re.fullmatch(r"print\((.*)\)", line)
    return {line, m.group(1)} if m else {line, f"print({line})"}


def _lesson_lines(stem):
    nb = _read("en", stem)
    lines = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            lines.update(_code_lines(cell.source))
    return lines


SEEDS = sorted(PROGRAMS.glob("seed*.py"))


def test_there_are_seed_programs():
    assert len(SEEDS) >= 14


@pytest.mark.parametrize("program", SEEDS, ids=[p.stem for p in SEEDS])
def test_every_seed_block_is_in_some_lesson(program):
    """Each block of the tutorial's code runs, whole, in one lesson (in any order of its lines,
    a printed value may be shown as a cell's last expression instead, and comments may differ)."""
    lessons = {stem: _lesson_lines(stem) for stem in LESSONS}
    blocks = _seed_blocks(program)
    assert blocks
    for block in blocks:
        missing = {stem: [line for line in block if not (_variants(line) & have)]
                   for stem, have in lessons.items()}
        if not any(not m for m in missing.values()):
            stem, lines = min(missing.items(), key=lambda kv: len(kv[1]))
            pytest.fail(f"{program.name}: no lesson has the block {block}; closest is {stem}, missing {lines}")
