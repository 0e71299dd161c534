"""`make site`: the lessons as a static site in ``_site/``, from their stored outputs.

    .venv/bin/python scripts/build_site.py [--out _site]

Nothing is executed: each stored notebook (``notebooks/index.ipynb``,
``notebooks/en/*.ipynb``, ``notebooks/zh/*.ipynb``) becomes one page with
nbconvert's own ``lab`` template, the one ``jupyter nbconvert --to html``
uses, so a page looks like the lesson in JupyterLab.  Every ``show()`` output
already holds its replay as HTML (``viz/page.py``), so it steps through
backward on the page with no kernel.

What the site adds to nbconvert (``scripts/site/site.html.j2``):
* no script from elsewhere: the math (``$...$``, ``$$...$$``) is turned into
  MathML here (latex2mathml), which browsers draw themselves, so MathJax and
  require.js are not loaded; the pages make no request off the machine;
* a bar on each lesson: the index, the previous and next lesson, the other
  language; links to ``.ipynb`` files point at their pages.
"""
from __future__ import annotations

import argparse
import copy
import re
import shutil
import sys
from pathlib import Path

import nbformat
from latex2mathml.converter import convert as to_mathml
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LANGS = ("en", "zh")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NAV = {"en": ("Index", "Previous", "Next", "中文"), "zh": ("目录", "上一课", "下一课", "English")}

_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$", re.S)


def math_to_mathml(markdown):
    """``$...$`` and ``$$...$$`` outside code as MathML (inline / block)."""
    def one(m):
        block = m.group(1) is not None
        return to_mathml((m.group(1) if block else m.group(2)).strip(), display="block" if block else "inline")
    parts = _CODE.split(markdown)
    return "".join(part if i % 2 else _MATH.sub(one, part) for i, part in enumerate(parts))


def prepared(nb):
    """A copy of the stored notebook for the page: math as MathML, no widget (its state needs a kernel)."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = math_to_mathml(cell.source)
        for out in cell.get("outputs", []):
            out.get("data", {}).pop(WIDGET_VIEW, None)
    return nb


def _link(href, text):
    return f'<a href="{href}">{text}</a>'


def nav(lang, stems, i):
    """The bar above a lesson: index, previous, next, the other language."""
    index, prev, nxt, other = NAV[lang]
    links = [_link("../index.html", f"\u2302 {index}")]
    if i > 0:
        links.append(_link(f"{stems[i - 1]}.html", f"\u2190 {prev}"))
    if i + 1 < len(stems):
        links.append(_link(f"{stems[i + 1]}.html", f"{nxt} \u2192"))
    there = "zh" if lang == "en" else "en"
    links.append(f'<span class="at-lang">{_link(f"../{there}/{stems[i]}.html", other)}</span>')
    return f'<nav class="at-site-nav" aria-label="lessons">{" ".join(links)}</nav>'


def render(exporter, nb, title, site_nav=""):
    html, _ = exporter.from_notebook_node(prepared(nb), resources={"metadata": {"name": title},
                                                                    "site_nav": site_nav})
    return re.sub(r'href="([^":]+)\.ipynb(#[^"]*)?"', r'href="\1.html\2"', html)


def exporter():
    return HTMLExporter(template_name="lab", extra_template_paths=[str(ROOT / "scripts" / "site")],
                        template_file="site.html.j2")


def build(out):
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    ex = exporter()
    stems = sorted(p.stem for p in (NOTEBOOKS / "en").glob("[0-9][0-9]_*.ipynb"))
    pages = []
    for lang in LANGS:
        (out / lang).mkdir(parents=True)
        for i, stem in enumerate(stems):
            nb = nbformat.read(NOTEBOOKS / lang / f"{stem}.ipynb", as_version=4)
            title = next((line[2:].strip() for line in nb.cells[0].source.splitlines() if line.startswith("# ")), stem)
            path = out / lang / f"{stem}.html"
            path.write_text(render(ex, nb, title, nav(lang, stems, i)), encoding="utf-8")
            pages.append(path)
    index = nbformat.read(NOTEBOOKS / "index.ipynb", as_version=4)
    (out / "index.html").write_text(render(ex, index, "autograd_teach"), encoding="utf-8")
    return [out / "index.html"] + pages


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "_site"))
    args = parser.parse_args(argv)
    pages = build(args.out)
    print(f"wrote {len(pages)} pages to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
