"""The diagram's and widget's Chinese: the glossary's terms, and no English words
apart from PyTorch's own names (issue 13)."""
import html
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import graph as G
from autograd_teach.viz.inspector import inspector_html
from autograd_teach.viz.lang import TEXT

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(builder)

# What the learner types, so it stays English in the Chinese text too.
PYTORCH_WORDS = {"AccumulateGrad", "Function", "backward", "grad", "retain_graph", "True", "False", "dtype",
                 "viz", "autorecord", "show", "max_nodes", "depth", "None", "float32", "float64",
                 "tensor", "requires_grad", "grad_fn", "torch",
                 "autograd",   # the SVG's id, a hover title nobody reads as prose
                 "Run", "All", "Cells",   # JupyterLab's menu "Run → Run All Cells", English in zh too
                 # names in the chain rule's formulas (viz/teach.py): code, as typed
                 "self", "target", "reduction", "mean", "sum", "input", "invstd", "log_softmax",
                 "derivatives", "yaml"}


def _english(text, allowed=()):
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)) - PYTORCH_WORDS - set(allowed)
    words = {w for w in words if len(w) > 2}     # 1e-3's e, node ids n12 / e3 / r0
    return {w for w in words if "Backward" not in w and not re.fullmatch(r"[nre]\d+|_saved_\w+", w)}


@pytest.mark.parametrize("key", sorted(TEXT))
def test_chinese_text_uses_the_glossarys_terms(key):
    zh = TEXT[key][1]
    for english, chinese, variants in builder.read_glossary():
        for variant in variants:
            m = variant.search(zh)
            assert m is None, f"{key}: {zh!r} says {m.group(0)!r}; the glossary says {chinese} ({english})"


def test_the_glossary_check_can_fail():
    variants = [v for _, chinese, vs in builder.read_glossary() if chinese == "叶子张量" for v in vs]
    assert any(v.search("叶子节点") for v in variants)


@pytest.mark.parametrize("key", sorted(TEXT))
def test_chinese_text_has_no_english_but_pytorchs_names(key):
    zh = re.sub(r"\{[^}]*\}", " ", TEXT[key][1])
    assert not _english(zh), f"{key}: {TEXT[key][1]!r}"


def _big_graph():
    w = torch.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
    c = torch.ones(4)                       # needs no grad: drawn as a constant
    with viz.record() as rec:
        y = ((w * c) * 2).sum()
        y.backward()
    return y, {"w": w, "y": y}, rec


def _svg_words(svg):
    return " ".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)) + " " + \
        " ".join(html.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg))


def test_chinese_diagram_shows_no_english_words():
    y, names, rec = _big_graph()
    d = viz.draw(y, names=names, recording=rec, lang="zh", show_constants=True, show_saved=True)
    words = _svg_words(d.svg())
    assert "形状" in words and "范数" in words          # the 12-element tensor is summarised
    assert not _english(words, names), words


def test_english_diagram_still_says_shape_and_norm():
    y, names, rec = _big_graph()
    words = _svg_words(viz.draw(y, names=names, recording=rec, lang="en", show_constants=True).svg())
    assert "shape (3, 4)" in words and "norm" in words and "constant" in words


def test_chinese_widget_list_and_inspector_show_no_english_words():
    y, names, rec = _big_graph()
    w = viz.GraphWidget(y, names=names, recording=rec, lang="zh", show_constants=True)
    labels = " ".join(label for label, _ in w.picker.options)
    assert not _english(labels, names), labels
    for node in w.graph.nodes:
        for k in (0, len(w.steps)):
            text = inspector_html(w.graph, w.steps, k, node.id, "zh")
            # the chain rule is PyTorch's formula (derivatives.yaml), code like MulBackward0
            text = re.sub(r'<pre class="at-rule">.*?</pre>|<pre>= .*?</pre>', " ", text, flags=re.S)
            text = re.sub(r"<[^>]+>", " ", text)
            text = html.unescape(text)
            assert not _english(text, set(names) | {"div", "class"}), (node.kind, node.name, text)
