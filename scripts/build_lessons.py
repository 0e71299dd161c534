"""Build the lesson notebooks from their one source each, and execute them.

    .venv/bin/python scripts/build_lessons.py            # every lesson, both languages, and the index
    .venv/bin/python scripts/build_lessons.py 02 05      # only lessons 02 and 05 (and the index)
    .venv/bin/python scripts/build_lessons.py --check    # only compare sources, run nothing
    .venv/bin/python scripts/build_lessons.py --index-only   # only the index and the README's list

The first line is the one command that rebuilds and re-executes everything
(run it after any change to the renderer's output, then commit notebooks/).

Each lesson has one source, ``notebooks/src/NN_name.md``, holding the English
and the Chinese side by side::

    Anything before the first %% line is a note for authors and is dropped.
    %% md
    :: en
    # Lesson title
    English prose...
    :: zh
    # 课程标题
    中文说明……
    %% code
    x = torch.arange(4.0)
    x
    %% code
    :: en
    print("done")      # comments and printed words in English
    :: zh
    print("完成")      # 中文的注释和输出
    %% answer
    guess = 4.0        # the exercise above, solved: the answer key
    %% wrong
    guess = 5.0        # optional: a wrong attempt, for the learner-path test

A ``%% md`` cell must have both an ``:: en`` and a ``:: zh`` part.  A
``%% code`` cell without parts is shared by both languages; with parts, the
two may differ only in comments and string literals (tests/test_lessons.py
compares their tokens).  A ``%% answer`` block belongs to the exercise cell
just before it (a cell calling ``check(...)``): it is that cell as a solved
learner would write it.  It never reaches the notebooks; the tests walk every
lesson as a learner would (tests/test_lessons_path.py): each exercise run as
given, then wrong, then right, then right again, then Run All once more, in
one kernel, and require the prompt, ✗, ✓, ✓ and ✓.  A ``%% wrong`` block (after
the answer) is the wrong attempt; without one it is the exercise with every
``...`` replaced by a number no exercise expects (:func:`wrong_version`).

From a source this script writes ``notebooks/en/NN_name.ipynb`` and
``notebooks/zh/NN_name.ipynb``: the same cells in the same order with the
same ids, then runs each one with nbclient in a kernel of the Python running
this script, and stores the outputs.  ``notebooks/index.ipynb`` (markdown
only) and the README's lesson list are written from the lessons' titles and
goals (each lesson's first cell states one, on a ``**Goal:**`` line).

The Chinese text is checked against ``notebooks/src/glossary.md`` (one term
per idea) and for ASCII punctuation in Chinese prose: ``check_chinese``;
``--check`` reports both.

The files are deterministic: cell ids come from the cell's position, there are
no timings, the metadata is fixed (no Python version), and no widget state or
widget view is stored (its model ids are random, and a restored widget has
no kernel): a show() cell keeps its replay as HTML.
"""
from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import uuid
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SRC = NOTEBOOKS / "src"
LANGS = ("en", "zh")
CELL_TIMEOUT = 300  # seconds per cell; no lesson cell comes near it

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# What ipykernel reports, without the Python version: it differs between machines,
# and JupyterLab marks a notebook modified unless it is exactly the kernel's, so
# `make lab`'s working copy adds the version of the kernel it starts (scripts/lab.py).
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ID_NAMESPACE = uuid.UUID("6f1c3c52-5a0e-4d8e-9a57-2b7f4d1e0a11")  # any fixed UUID

_MARKER = re.compile(r"^%%\s*(md|code|answer|wrong)\s*$")
_LANG = re.compile(r"^::\s*(en|zh)\s*$")


class SourceError(ValueError):
    """A lesson source that does not follow the format above."""


def _strip_blank(lines):
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return "\n".join(line.rstrip() for line in lines)


def _parts(body, where, start, kind):
    """Split a cell body into its ``:: en`` / ``:: zh`` parts.  A code or answer
    body without them is shared by both languages; an md body must have both."""
    parts, lang, chunk, before = {}, None, [], []
    for line in body:
        m = _LANG.match(line)
        if m:
            if lang is not None:
                parts[lang] = _strip_blank(chunk)
            lang, chunk = m.group(1), []
            if lang in parts:
                raise SourceError(f"{where}:{start}: two ':: {lang}' parts in one {kind} cell")
        elif lang is None:
            before.append(line)
        else:
            chunk.append(line)
    if lang is None and kind != "md":
        return {need: _strip_blank(before) for need in LANGS} if _strip_blank(before) else \
            _fail(f"{where}:{start}: empty {kind} cell")
    if _strip_blank(before):
        _fail(f"{where}:{start}: text before ':: en' / ':: zh' in a {kind} cell")
    if lang is not None:
        parts[lang] = _strip_blank(chunk)
    for need in LANGS:
        if not parts.get(need):
            _fail(f"{where}:{start}: {kind} cell without its ':: {need}' part")
    return parts


def _fail(message):
    raise SourceError(message)


def parse_source(text, where="<source>"):
    """The cells of a lesson source, in order: dicts ``{"type": "markdown" or
    "code", "en": str, "zh": str}``; a code cell followed by a ``%% answer``
    block also has ``"answer": {"en": str, "zh": str}`` (and ``"wrong"``, the
    same, after a ``%% wrong`` block)."""
    cells, kind, body, start = [], None, [], 0

    def finish():
        if kind is None:
            return
        parts = _parts(body, where, start, kind)
        if kind in ("answer", "wrong"):
            if not cells or cells[-1]["type"] != "code" or kind in cells[-1] or \
                    (kind == "wrong" and "answer" not in cells[-1]):
                raise SourceError(f"{where}:{start}: an {kind} block must follow its exercise's code cell"
                                  + (" and its answer" if kind == "wrong" else ""))
            cells[-1][kind] = parts
        else:
            cells.append({"type": "code" if kind == "code" else "markdown", **parts})

    for number, line in enumerate(text.splitlines(), 1):
        m = _MARKER.match(line)
        if m:
            finish()
            kind, body, start = m.group(1), [], number
        elif kind is not None:
            body.append(line)
    finish()
    if not cells:
        raise SourceError(f"{where}: no cells")
    return cells


GLOSSARY = SRC / "glossary.md"
_CJK = "\u3400-\u9fff\uff00-\uffef\u3000-\u303f"
_ASCII_PUNCT_AFTER_CJK = re.compile(f"[{_CJK}][,;:?!()]|[,;:?!(][{_CJK}]")


def read_glossary(path=GLOSSARY):
    """``[(english, chinese, [forbidden regex, ...]), ...]`` from the glossary's table."""
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cols) != 3 or cols[0] in ("English", "---"):
            continue
        rows.append((cols[0], cols[1], [re.compile(v.strip()) for v in cols[2].split(",") if v.strip()]))
    return rows


def _prose(markdown):
    """Markdown without code blocks, code spans and math: the words a reader reads."""
    text = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", text, flags=re.S)
    return re.sub(r"<[^>]+>|\]\([^)]*\)", " ", text)  # html tags and link targets


def _code_words(code):
    """The comments and string literals of a code cell: its words for the reader."""
    import io
    import tokenize
    words = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                words.append(("comment", tok.string.lstrip("#").strip()))
            elif tok.type == tokenize.STRING:
                words.append(("string", tok.string))
    except (tokenize.TokenError, IndentationError):
        pass
    return words


def check_chinese(cells, where="<source>", glossary=None):
    """Problems in a lesson's Chinese text: glossary variants, ASCII punctuation
    in Chinese prose, and English comments in the zh code cells."""
    glossary = read_glossary() if glossary is None else glossary
    problems = []
    for i, cell in enumerate(cells):
        texts = []
        if cell["type"] == "markdown":
            prose = _prose(cell["zh"])
            texts.append(prose)
            for m in _ASCII_PUNCT_AFTER_CJK.finditer(prose):
                problems.append(f"{where} cell {i}: ASCII punctuation in Chinese prose: {m.group(0)!r}")
            if re.search(f'"[^"]*[{_CJK}]|[{_CJK}][^"]*"', prose.replace("\n", " ")) and '"' in prose:
                problems.append(f"{where} cell {i}: ASCII quotes in Chinese prose; use “ ” instead")
        else:
            for part in [cell["zh"]] + ([cell["answer"]["zh"]] if "answer" in cell else []):
                for kind, text in _code_words(part):
                    texts.append(text)
                    if kind == "comment" and re.search(r"[A-Za-z]{3,}", text) and not re.search(f"[{_CJK}]", text):
                        problems.append(f"{where} cell {i}: an English comment in the zh code: # {text}")
        for english, chinese, variants in glossary:
            for text in texts:
                for v in variants:
                    m = v.search(text)
                    if m:
                        problems.append(f"{where} cell {i}: {m.group(0)!r}: the glossary says {chinese} ({english})")
    return problems


def lesson_sources():
    """``{"01_tracking_computation": Path, ...}`` in lesson order."""
    return {p.stem: p for p in sorted(SRC.glob("[0-9][0-9]_*.md"))}


def build_notebook(source_path, lang, answers=False):
    """The unexecuted notebook of one lesson in one language; with ``answers``,
    each exercise cell is replaced by its ``%% answer`` block (the answer key)."""
    source_path = Path(source_path)
    cells = parse_source(source_path.read_text(encoding="utf-8"), str(source_path))
    nb = nbformat.v4.new_notebook()
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": copy.deepcopy(LANGUAGE_INFO)}
    for i, cell in enumerate(cells):
        cell_id = f"{source_path.stem[:2]}-{i:03d}"
        if cell["type"] == "code":
            source = cell["answer"][lang] if answers and "answer" in cell else cell[lang]
            nb.cells.append(nbformat.v4.new_code_cell(source, id=cell_id))
        else:
            nb.cells.append(nbformat.v4.new_markdown_cell(cell[lang], id=cell_id))
    return nb


WRONG_GUESS = "-1234.5"  # no exercise expects it, and it is a plain number: the cell still runs


def wrong_version(cell, lang):
    """A wrong attempt at an exercise cell: its ``%% wrong`` block, or the cell with
    every ``...`` token replaced by ``WRONG_GUESS`` (a "fix the code" cell, with no
    ``...``, is wrong as given)."""
    if "wrong" in cell:
        return cell["wrong"][lang]
    import io
    import tokenize
    source = cell[lang]
    lines = source.splitlines(keepends=True)
    dots = [t.start for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type == tokenize.OP and t.string == "..."]
    for row, col in reversed(dots):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + WRONG_GUESS + line[col + 3:]
    return "".join(lines)


def title_of(nb):
    """The first '# ' heading of a notebook's first cell."""
    for line in nb.cells[0].source.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise SourceError("a lesson's first cell must start with a '# Title' line")


INDEX_HEAD = """# autograd_teach: the lessons · 课程目录

Short lessons on how PyTorch's autograd works, each in English and in Chinese
(the same code in both). Every lesson runs the code of a Chinese PyTorch tutorial
on `autograd_teach`, which prints what PyTorch prints, draws the autograd graph before
and after `backward()`, and replays the backward pass node by node in a widget.
Each ends with exercises: predict, then check, as often as you like; most end with one that asks for code.

几节短课，讲清 PyTorch 的 autograd（自动求导）是怎么工作的。每节课都有英文版和中文版，
两者的代码相同。课程中的代码来自几篇中文 PyTorch 教程，运行在 `autograd_teach`
上——它打印的结果与 PyTorch 一致；每节课都会画出 `backward()` 前后的计算图，并用一个小部件
逐个节点地回放反向传播。每节课最后都有练习：先预测，再核对，运行多少次都可以；多数课的最后一道要写代码。"""

GOAL = {"en": "**Goal:**", "zh": "**目标**："}  # one line in each lesson's first cell (the colon outside the bold: CommonMark)


def goal_of(nb, lang):
    """A lesson's one stated goal: the text after its first cell's "**Goal:**" line."""
    lines = [line for line in nb.cells[0].source.splitlines() if line.startswith(GOAL[lang])]
    if len(lines) != 1:
        raise SourceError(f"a lesson's first cell must state one goal, a line starting with {GOAL[lang]}")
    return lines[0][len(GOAL[lang]):].strip()


INDEX_TAIL = """## How to use them · 使用方法

- Run `make lab` in the project folder; JupyterLab opens this index on a working copy of the
  lessons (`.lab/`: the stored lessons stay as they are). Open a lesson and run
  its cells from the top (**Run → Run All Cells**), then read along.
- The notebooks are saved with their outputs. To do the exercises honestly, clear them first
  (**Kernel → Restart Kernel and Clear Outputs of All Cells**) and predict before you run.
- `import autograd_teach as torch` is the only change from PyTorch: with `import torch` the
  code cells run unchanged, the `viz` diagrams too (`from autograd_teach import viz` draws
  real PyTorch's graphs and steps through its backward).
- With your own `jupyter lab` instead of `make lab`, first switch on
  **Settings → Save Widget State Automatically**: a lesson you saved then reopens with its
  replays. Without it, once the kernel is gone, each replay of a saved lesson says
  "Error displaying widget: model not found" until you run the lesson again.

- 在项目目录里运行 `make lab`，JupyterLab 会在课程的工作副本（`.lab/`）上打开这个目录页，
  仓库里保存的课程不会被改动。打开一节课，从头运行所有单元格
  （**Run → Run All Cells**），然后跟着读。
- 笔记本保存时带着运行结果。想认真做练习，先清空输出
  （**Kernel → Restart Kernel and Clear Outputs of All Cells**），先预测，再运行。
- 与 PyTorch 相比唯一的改动是 `import autograd_teach as torch`：换成 `import torch`，
  代码单元格照样能运行，`viz` 画图也一样（`from autograd_teach import viz` 也能画真正 PyTorch
  的计算图，并逐步演示它的反向传播）。
- 如果不用 `make lab`，而是自己运行 `jupyter lab`，请先打开
  **Settings → Save Widget State Automatically**：这样保存过的课程再打开时，回放都还在。
  不打开它的话，内核一旦关闭，保存过的课程里每个回放的位置都会显示
  “Error displaying widget: model not found”，要重新运行这节课才会恢复。"""


# For teachers whose notebooks already use real PyTorch (issue 11).
INDEX_PYTORCH = """## Already using PyTorch? · 已经在用 PyTorch？

`from autograd_teach import viz` and draw your own model: `viz.draw(loss)` walks a real
PyTorch graph, with PyTorch's node names and the parameters labelled by their
`named_parameters()` names (`model.0.weight`). Record a real `loss.backward()` and the
widget steps through it in the order PyTorch's engine ran it, the gradient on every edge
(see the README, "Already using PyTorch?").

`from autograd_teach import viz`，就能画你自己的模型：`viz.draw(loss)` 直接遍历真正的 PyTorch
计算图，节点用 PyTorch 的名字，参数用 `named_parameters()` 的名字标注（`model.0.weight`）。
把真正的 `loss.backward()` 记录下来，小部件就按 PyTorch 引擎实际运行的顺序逐步回放，
每条边上都有梯度（见 README 的“Already using PyTorch?”一节）。"""


def build_index(lessons):
    """The markdown-only lesson index, linking both languages of every lesson."""
    rows = ["| # | English | 中文 |", "| --- | --- | --- |"]
    for stem, path in lessons.items():
        en_nb, zh_nb = (build_notebook(path, lang) for lang in LANGS)
        en, zh = title_of(en_nb), title_of(zh_nb)
        promise_en, promise_zh = goal_of(en_nb, "en"), goal_of(zh_nb, "zh")
        rows.append(f"| {stem[:2]} | [{en}](en/{stem}.ipynb)<br>{promise_en} "
                    f"| [{zh}](zh/{stem}.ipynb)<br>{promise_zh} |")
    nb = nbformat.v4.new_notebook()
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": copy.deepcopy(LANGUAGE_INFO)}
    for i, text in enumerate((INDEX_HEAD, "\n".join(rows), INDEX_TAIL, INDEX_PYTORCH)):
        nb.cells.append(nbformat.v4.new_markdown_cell(text, id=f"index-{i:03d}"))
    return nb


README = ROOT / "README.md"
README_BEGIN = "<!-- the lesson list: written by scripts/build_lessons.py from the lessons' titles and goals -->"
README_END = "<!-- end of the lesson list -->"


def readme_lessons(lessons):
    """The README's lesson list: how many, then each title and its goal."""
    count = len(lessons)
    lines = [README_BEGIN,
             f"{count} lessons, each in English (`notebooks/en/`) and Chinese (`notebooks/zh/`),",
             "listed side by side in `notebooks/index.ipynb`, built from one source per lesson",
             "(`notebooks/src/`, `scripts/build_lessons.py`) and stored executed, so nbval",
             "checks every output, diagrams included:", ""]
    for k, path in enumerate(lessons.values(), 1):
        nb = build_notebook(path, "en")
        title = title_of(nb).split(" · ", 1)[-1]
        goal = goal_of(nb, "en")
        lines.append(f"{k}. {title}. {goal[:1].upper()}{goal[1:]}")
    return "\n".join(lines + ["", README_END])


def with_readme_lessons(text, lessons):
    """README text with its lesson list (between the two markers) rewritten."""
    start, end = text.find(README_BEGIN), text.find(README_END)
    if start < 0 or end < start:
        raise SourceError(f"README.md has no lesson list between {README_BEGIN!r} and {README_END!r}")
    return text[:start] + readme_lessons(lessons) + text[end + len(README_END):]


def execute(nb, cwd):
    """Run every cell in a fresh kernel of this Python; outputs go into ``nb``."""
    from nbclient import NotebookClient
    client = NotebookClient(nb, kernel_name="python3", timeout=CELL_TIMEOUT,
                            resources={"metadata": {"path": str(cwd)}},
                            record_timing=False, store_widget_state=False,
                            allow_errors=False)
    # "python3" resolves to this interpreter: jupyter_client swaps a spec's
    # leading "python" for sys.executable, so the venv that runs this runs the lessons.
    client.execute()
    return nb


def _merge_streams(outputs):
    """Join consecutive prints to the same stream: how the kernel happened to
    flush them (one message or three) is timing, not content."""
    merged = []
    for out in outputs:
        if (out.output_type == "stream" and merged and merged[-1].output_type == "stream"
                and merged[-1].name == out.name):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def normalize(nb, name):
    """Make an executed notebook's bytes depend on its cells and outputs only.

    No widget is stored: a stored widget would say its kernel is gone before
    anything ran.  A show() output keeps what it carries for a notebook without
    a kernel: the replay as HTML (the picture where scripts are stripped)."""
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": copy.deepcopy(LANGUAGE_INFO)}
    for cell in nb.cells:
        cell.metadata = {}
        if cell.cell_type == "code":
            cell.outputs = _merge_streams(cell.outputs)
        for out in cell.get("outputs", []):
            if "metadata" in out:
                out.metadata = {k: v for k, v in out.metadata.items() if k != "execution"}
            if WIDGET_VIEW in out.get("data", {}):
                del out.data[WIDGET_VIEW]
                out.metadata.pop(WIDGET_VIEW, None)
    return nb


def write(nb, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.validate(nb)
    text = nbformat.writes(nb)  # sorted keys, indent 1: stable bytes
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def check_sources(lessons):
    """Names of committed notebooks whose cells differ from what their source builds."""
    stale = []
    for stem, path in lessons.items():
        for lang in LANGS:
            target = NOTEBOOKS / lang / f"{stem}.ipynb"
            if not target.exists():
                stale.append(f"{target.relative_to(ROOT)} (missing)")
                continue
            built = build_notebook(path, lang)
            have = nbformat.read(target, as_version=4)
            if ([(c.id, c.cell_type, c.source) for c in built.cells]
                    != [(c.id, c.cell_type, c.source) for c in have.cells]):
                stale.append(str(target.relative_to(ROOT)))
    return stale


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or names (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="only check that the notebooks' cells match their sources")
    parser.add_argument("--index-only", action="store_true",
                        help="only write notebooks/index.ipynb and the README's lesson list (runs nothing)")
    args = parser.parse_args(argv)
    lessons = lesson_sources()

    if args.check:
        stale = check_sources(lessons)
        for stem, path in lessons.items():
            stale += check_chinese(parse_source(path.read_text(encoding="utf-8"), stem), stem)
        readme = README.read_text(encoding="utf-8")
        if with_readme_lessons(readme, lessons) != readme:
            stale.append("README.md (its lesson list)")
        for s in stale:
            print(f"out of date or not following the glossary: {s}")
        print("notebooks match their sources" if not stale else
              "run scripts/build_lessons.py to rebuild")
        return 1 if stale else 0
    chosen = {} if args.index_only else {
        k: v for k, v in lessons.items()
        if not args.lessons or any(k == a or k.startswith(a + "_") or k[:2] == a for a in args.lessons)}
    if args.lessons and not chosen:
        parser.error(f"no lesson matches {args.lessons}; have {list(lessons)}")
    for stem, path in chosen.items():
        problems = check_chinese(parse_source(path.read_text(encoding="utf-8"), stem), stem)
        if problems:
            sys.exit("\n".join(problems + ["fix the Chinese text (see notebooks/src/glossary.md)"]))
        for lang in LANGS:
            target = NOTEBOOKS / lang / f"{stem}.ipynb"
            print(f"building {target.relative_to(ROOT)}", flush=True)
            nb = execute(build_notebook(path, lang), target.parent)
            write(normalize(nb, f"{lang}/{stem}"), target)
    write(build_index(lessons), NOTEBOOKS / "index.ipynb")
    README.write_text(with_readme_lessons(README.read_text(encoding="utf-8"), lessons), encoding="utf-8")
    print("wrote notebooks/index.ipynb and the README's lesson list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
