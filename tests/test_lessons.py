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
    ``tests/golden/programs/seed*.py``) appears in some lesson;
(e) the exercises: every one has an answer key in its source and a Why after
    it, and no stored output shows an answer (that the keys get ✓, run as a
    learner runs them, is tests/test_lessons_path.py);
(f) the Chinese track: the glossary and Chinese punctuation hold, and the
    zh notebooks print no English beyond code and PyTorch's own words.
"""
from __future__ import annotations

import html
import importlib.util
import io
import json
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
    "03_chain_rule",
    "04_non_scalar_outputs",
    "05_leaves_and_mse",
    "06_saved_tensors_retain_graph",
    "07_stopping_gradients",
    "08_control_flow",
    "09_training_loop",
    "10_custom_function",
    "11_write_the_engine",
    "12_nn_and_optim",
    "13_higher_order",
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


def _code_tokens(source):
    """A code cell without its comments and string literals: what must not differ between languages."""
    return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in (tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE)
            and not (t.type == tokenize.OP and t.string == "")]


@pytest.mark.parametrize("stem", LESSONS)
def test_english_and_chinese_share_code_cells(stem):
    """The zh code cells are the en ones with comments and printed words translated, nothing else."""
    en, zh = (_read(lang, stem) for lang in LANGS)
    assert [c.cell_type for c in en.cells] == [c.cell_type for c in zh.cells]
    assert [c.id for c in en.cells] == [c.id for c in zh.cells]
    for a, b in zip(en.cells, zh.cells):
        if a.cell_type == "code" and "Checker(" not in a.source:
            assert _code_tokens(a.source) == _code_tokens(b.source), f"{stem} {a.id}: en and zh code differ"
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
    with pytest.raises(builder.SourceError):
        builder.parse_source("%% md\n:: en\nHi\n:: zh\n你好\n%% answer\nx = 2\n")  # an answer needs its exercise
    with pytest.raises(builder.SourceError):
        builder.parse_source("%% code\nx = 1\n:: en\nx\n:: zh\nx\n")  # code before the language parts
    cells = builder.parse_source("note\n%% md\n:: en\nHi\n:: zh\n你好\n%% code\nx = 1\nx\n"
                                 "%% answer\nx = 2\nx\n%% code\n:: en\nprint('hi')\n:: zh\nprint('你好')\n")
    assert cells == [{"type": "markdown", "en": "Hi", "zh": "你好"},
                     {"type": "code", "en": "x = 1\nx", "zh": "x = 1\nx",
                      "answer": {"en": "x = 2\nx", "zh": "x = 2\nx"}},
                     {"type": "code", "en": "print('hi')", "zh": "print('你好')"}]


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
    # viz.show() stores no widget (it would have no kernel), only the replay as HTML:
    # the picture where scripts are stripped (an untrusted notebook), the replay where they run
    (out,) = widget[0].outputs
    assert builder.WIDGET_VIEW not in out.data and "widgets" not in nb.metadata
    html = out.data["text/html"]
    assert html.startswith('<div class="at-replay"') and 'src="data:image/svg+xml;base64,' in html
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


# --- (e) exercises: an answer key that runs, and no answer on the page ------

from autograd_teach.lessons import MESSAGES  # noqa: E402


_CHECK_CALL = re.compile(r"(?<![\w.])check\(")


def _is_exercise(source):
    return bool(_CHECK_CALL.search(source))


def _exercises(stem):
    return [(i, c) for i, c in enumerate(builder.parse_source((builder.SRC / f"{stem}.md").read_text(encoding="utf-8")))
            if c["type"] == "code" and _is_exercise(c["en"])]


@pytest.mark.parametrize("stem", LESSONS)
def test_every_exercise_has_an_answer_key(stem):
    exercises = _exercises(stem)
    assert len(exercises) >= 3, f"{stem}: fewer than three exercises"
    for i, cell in exercises:
        assert "answer" in cell, f"{stem} cell {i}: an exercise without a %% answer block"
        for lang in LANGS:
            assert cell["answer"][lang] != cell[lang]
            # the key solves the same exercise: it checks with the same calls
            calls = lambda src: [line.strip() for line in src.splitlines() if _is_exercise(line)]
            assert calls(cell["answer"][lang]) == calls(cell[lang])


@pytest.mark.parametrize("stem", LESSONS)
def test_every_exercise_has_its_why(stem):
    """✓ says "the reason is under Why": the next markdown cell after each
    exercise opens with a collapsed Why, in both languages. (That every answer
    key gets ✓, on the learner's path, is tests/test_lessons_path.py.)"""
    cells = builder.parse_source((builder.SRC / f"{stem}.md").read_text(encoding="utf-8"))
    for i, cell in enumerate(cells):
        if cell["type"] != "code" or not _is_exercise(cell["en"]):
            continue
        after = next((c for c in cells[i + 1:] if c["type"] == "markdown"), None)
        assert after is not None, f"{stem} cell {i}: no markdown after the exercise"
        for lang, why in (("en", "<details><summary>Why"), ("zh", "<details><summary>为什么")):
            assert after[lang].lstrip().startswith(why), f"{stem} cell {i}: the exercise has no {lang} Why after it"


def test_every_lesson_states_one_goal():
    for stem in LESSONS:
        for lang in LANGS:
            goal = builder.goal_of(_read(lang, stem), lang)
            assert len(goal) >= 15, f"{lang}/{stem}: its goal is too short to say anything: {goal!r}"
    assert len(LESSONS) >= 12


def test_readme_lists_the_lessons_from_their_sources():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert builder.with_readme_lessons(readme, builder.lesson_sources()) == readme, \
        "README.md's lesson list is out of date: run scripts/build_lessons.py"
    assert f"{len(LESSONS)} lessons, each in English" in readme
    for stem in LESSONS:
        title = builder.title_of(_read("en", stem)).split(" · ", 1)[-1]
        assert title in readme


@pytest.mark.parametrize("lang,stem", _all_notebooks())
def test_stored_outputs_show_no_answer(lang, stem):
    """As stored, an exercise cell only asks: no ✓, no answer, no reveal."""
    asked = 0
    for cell in _read(lang, stem).cells:
        if cell.cell_type != "code" or not _is_exercise(cell.source):
            continue
        text = "".join(o.get("text", "") + "".join(v for v in o.get("data", {}).values() if isinstance(v, str))
                       for o in cell.outputs)
        assert "reveal=True" not in cell.source
        assert MESSAGES[lang]["answer"] not in text and "✓" not in text, f"{lang}/{stem} {cell.id} shows its answer"
        assert MESSAGES[lang]["prompt"] in text or "✗" in text, f"{lang}/{stem} {cell.id}: no prompt"
        asked += 1
    assert asked == len(_exercises(stem))


# --- (f) the Chinese track ---------------------------------------------------

@pytest.mark.parametrize("stem", LESSONS)
def test_chinese_follows_the_glossary_and_punctuation(stem):
    cells = builder.parse_source((builder.SRC / f"{stem}.md").read_text(encoding="utf-8"))
    assert builder.check_chinese(cells, stem) == []


def test_the_chinese_check_can_fail():
    bad = builder.parse_source('%% md\n:: en\nx\n:: zh\n它是"叶子节点",就地修改\n%% code\n:: en\nx = 1  # one\n'
                               ':: zh\nx = 1  # one\n')
    problems = "\n".join(builder.check_chinese(bad))
    for expected in ("叶子节点", "就地", "ASCII quotes", "ASCII punctuation", "English comment"):
        assert expected in problems


# Words a zh notebook may print in English: PyTorch's own (tensor printing,
# dtypes, error messages are PyTorch's text, kept verbatim) and Python's.
PYTORCH_WORDS = {"tensor", "grad_fn", "requires_grad", "dtype", "float64", "float32", "int64", "True", "False",
                 "None", "object", "at", "size", "Size", "device", "cpu", "inf", "nan", "Parameter",
                 "containing", "bool", "AccumulateGrad", "autograd",
                 "mean", "sum", "none", "max_nodes", "depth",
                 "derivatives", "yaml"}  # PyTorch's derivatives.yaml, named by the inspector


def _error_words(nb):
    """The words of PyTorch's messages the notebook prints (a diagram's caption
    quotes one wrapped over several lines, only the first naming the error)."""
    lines = (line for cell in nb.cells for out in cell.get("outputs", []) for line in out.get("text", "").splitlines())
    return {w for line in lines if re.search(r"\w+(Error|Warning)\b", line)
            for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line)}


@pytest.mark.parametrize("stem", LESSONS)
def test_chinese_notebooks_print_no_english(stem):
    nb = _read("zh", stem)
    code = " ".join(c.source for c in nb.cells if c.cell_type == "code")
    allowed = PYTORCH_WORDS | set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code)) | _error_words(nb)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            text = out.get("text", "")
            if builder.WIDGET_VIEW not in data and "image/svg+xml" not in data and "text/html" not in data:
                text += data.get("text/plain", "")  # a fallback only when nothing richer is shown
            for svg in (data.get("image/svg+xml", ""), data.get("text/html", "")):
                # the diagram's words (legend, labels), drawn or in the widget's static fallback
                text += "\n" + "\n".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))
            for line in re.sub(r"0x[0-9a-f]+", "", text).splitlines():
                if re.search(r"\w+(Error|Warning)\b", line):
                    continue  # PyTorch's own message, word for word
                words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line)) - allowed
                words = {w for w in words if not re.fullmatch(r"n\d+|_saved_\w+", w)}  # node ids, PyTorch's saved names
                assert not {w for w in words if len(w) > 2 and "Backward" not in w}, \
                    f"zh/{stem} {cell.id} prints English: {line!r}"


@pytest.mark.parametrize("stem", LESSONS)
def test_every_lesson_ends_with_a_three_line_summary(stem):
    for lang, heading in (("en", "## Summary"), ("zh", "## 小结")):
        last = [c for c in _read(lang, stem).cells if c.cell_type == "markdown"][-1].source
        assert heading in last, f"{lang}/{stem}: no summary at the end"
        bullets = [line for line in last.split(heading, 1)[1].splitlines() if line.startswith("- ")]
        assert len(bullets) == 3, f"{lang}/{stem}: the summary has {len(bullets)} lines, not 3"


@pytest.mark.parametrize("lang,stem", _all_notebooks())
def test_first_cell_switches_recording_on(lang, stem):
    """Nothing is recorded on import: the lesson says so, in its first cell."""
    first = next(c for c in _read(lang, stem).cells if c.cell_type == "code").source
    assert "viz.autorecord(True)" in first


@pytest.mark.parametrize("stem", LESSONS)
def test_chinese_widgets_label_in_chinese(stem):
    """The widget's own words (buttons, toggles, status, inspector) in a zh notebook:
    every word its stored replay (show()'s HTML output) can show."""
    nb = _read("zh", stem)
    code = " ".join(c.source for c in nb.cells if c.cell_type == "code")
    allowed = PYTORCH_WORDS | set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code)) | {"Run", "All", "Cells", "Function", "retain_graph", "derivatives", "yaml"}
    replays = [json.loads(m.group(1)) for c in nb.cells if c.cell_type == "code" for o in c.outputs
               for m in re.finditer(r'<script type="application/json" data-at-replay-data="\w+">(.*?)</script>',
                                    o.get("data", {}).get("text/html", ""), re.S)]
    assert replays or "viz.show(" not in code, f"zh/{stem}: a show() cell stored no replay"
    for data in replays:
        assert data["lang"] == "zh"
        texts = list(data["labels"].values()) + [label for _, label in data["nodes"]]
        texts += [re.sub(r"<pre[^>]*>.*?</pre>", " ", html, flags=re.S)    # the inspector's words, not its code
                  for segments in data["inspector"].values() for _, html in segments]
        for t in texts:
            words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", re.sub(r"<[^>]+>|0x[0-9a-f]+|\{\w+\}", " ", t))) - allowed
            words = {w for w in words if not re.fullmatch(r"n\d+|_saved_\w+", w)}  # node ids, PyTorch's saved names
            assert not {w for w in words if len(w) > 2 and "Backward" not in w and w not in HTML_WORDS}, \
                f"zh/{stem}: a widget shows English: {t[:200]!r}"


HTML_WORDS = {"class", "div", "span", "pre", "style", "table", "small", "data", "node", "inspector"}


@pytest.mark.parametrize("stem", LESSONS)
def test_chinese_lessons_switch_the_diagrams_to_chinese(stem):
    first = next(c for c in _read("zh", stem).cells if c.cell_type == "code").source
    assert 'viz.set_lang("zh")' in first


@pytest.mark.parametrize("stem", LESSONS)
def test_chinese_outputs_follow_the_glossary(stem):
    """What the zh notebooks print and draw uses the glossary's terms, as the prose does."""
    nb = _read("zh", stem)
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            texts.append(out.get("text", ""))
            for svg in (data.get("image/svg+xml", ""), data.get("text/html", "")):
                texts += [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]
    for english, chinese, variants in builder.read_glossary():
        for text in texts:
            for v in variants:
                m = v.search(text)
                assert m is None, f"zh/{stem} shows {m.group(0)!r} in {text!r}: the glossary says {chinese} ({english})"


@pytest.mark.parametrize("stem", LESSONS)
def test_chinese_outputs_put_no_space_after_a_full_width_colon(stem):
    """print("梯度：", g) prints "梯度： tensor(...)": the lessons print f"梯度：{g}" instead."""
    for cell in _read("zh", stem).cells:
        for out in cell.get("outputs", []):
            text = out.get("text", "")
            assert not re.search(r"[：，。] ", text), f"zh/{stem} {cell.id}: a space after full-width punctuation: {text!r}"


# --- (g) the prose renders as written ----------------------------------------

# CommonMark (JupyterLab's renderer as well as mistune) closes ``**`` only when the
# run is "right-flanking": after a punctuation mark it must be followed by a space
# or another punctuation mark.  ``**目标：**亲手写`` breaks that rule (a full-width
# colon, then a Chinese character), so the learner sees the asterisks; ``**目标**：``
# keeps the colon outside and renders bold.
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)       # $x * y$ is MathJax's, not emphasis
_CODE = re.compile(r"<code>.*?</code>|<pre>.*?</pre>", re.S)
_STRAY = re.compile(r".{0,20}(?:\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])).{0,20}"
                    r"|<(strong|em)>[^<]*<\1>.{0,20}")   # or a bold that failed to close swallows the next one


def stray_emphasis(markdown):
    """Emphasis markers a CommonMark renderer leaves as literal text in ``markdown``."""
    import mistune
    rendered = _CODE.sub("", mistune.html(_MATH.sub("M", markdown)))
    return [m.group(0) for m in _STRAY.finditer(rendered)]


def test_the_emphasis_check_can_fail():
    assert stray_emphasis("**目标：**亲手写训练循环") and stray_emphasis("是**“叶子”**张量")
    assert stray_emphasis("- **▶（播放）**和**步数滑块**：第 k 步")
    assert stray_emphasis("**目标**：亲手写训练循环 `a ** b` $x * y$ **Goal:** go") == []


@pytest.mark.parametrize("stem", LESSONS)
def test_markdown_emphasis_renders_in_both_languages(stem):
    cells = builder.parse_source((builder.SRC / f"{stem}.md").read_text(encoding="utf-8"))
    stray = [(i, lang, s) for i, c in enumerate(cells) if c["type"] == "markdown"
             for lang in LANGS for s in stray_emphasis(c[lang])]
    assert stray == [], f"{stem}: emphasis shown as literal asterisks (cell, lang, text): {stray}"
