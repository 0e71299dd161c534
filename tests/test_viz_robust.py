"""Graphs off the happy path: shared leaves in loops, huge fan-in, odd names, odd values."""
import xml.etree.ElementTree as ET

import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import arrange as A
from autograd_teach.viz import graph as G

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg):
    return ["".join(t.itertext()).replace("\xa0", " ") for t in ET.fromstring(svg).iter(SVG + "text")]


def reuse_loop(n):
    """The issue's RNN-like loop: the same leaf added back in every other step."""
    x = torch.ones(3, requires_grad=True)
    y = x
    for i in range(n):
        y = (y * 1.01).tanh() if i % 2 else y + x
    return y.sum()


@pytest.mark.parametrize("n, max_nodes", [(200, 400), (650, 400), (650, None), (5000, 400)])
def test_reuse_loop_draws_with_only_short_edges(n, max_nodes):
    d = viz.draw(reuse_loop(n), max_nodes=max_nodes)
    g = d.graph
    assert A.virtual_nodes(g) <= A.LONG_BUDGET          # what made the layout take minutes
    assert A.layout_cost(g) <= A.LAYOUT_COST
    refs = [x for x in g.nodes if x.kind == G.REF]
    assert refs and all(g.node(r.ref).name == "AccumulateGrad" for r in refs)
    svg = d.svg()
    assert "drawn as dashed copies next to each use" in " ".join(texts(svg))
    assert svg.count('class="node at-ref"') == len(refs)


def test_a_leaf_feeding_a_thousand_nodes_is_drawn_smaller_and_says_so():
    x = torch.ones(2, requires_grad=True)
    out = sum((x * float(i)).sum() for i in range(1000))
    d = viz.draw(out, max_nodes=None)
    assert A.layout_cost(d.graph) <= A.LAYOUT_COST
    assert d.graph.hidden[0][0] == "caption.collapsed"
    assert "Graph too large to lay out quickly" in " ".join(texts(d.svg()))


def shared_rnn(n):
    w = torch.ones(2, 2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    h = torch.ones(2)
    for _ in range(n):
        h = (w @ h + b).tanh()
    return h.sum()


def called_twice(n):
    w = torch.ones(2, requires_grad=True)

    def model(z):
        for _ in range(n):
            z = (z * w).tanh()
        return z
    return (model(torch.ones(2)) + model(torch.ones(2) * 2)).sum()


def fan_in(n):
    x = torch.ones(2, requires_grad=True)
    return sum((x * float(i)).sum() for i in range(n))


def functions_in(g):
    """Functions the model draws: a collapsed run stands for all its members."""
    return sum(len(n.members) if n.kind == G.REPEAT else 1
               for n in g.nodes if n.kind in (G.FUNCTION, G.ACCUMULATE, G.REPEAT))


BIG = {"reuse loop": lambda: reuse_loop(5000), "RNN, shared w and b": lambda: shared_rnn(800),
       "one leaf, fan-in": lambda: fan_in(1000), "model called twice": lambda: called_twice(1200)}


@pytest.mark.parametrize("what", sorted(BIG))
def test_max_nodes_none_past_the_layout_budget_is_collapsed_and_says_so(what):
    out = BIG[what]()
    total = sum(1 for _ in G.iter_functions([out]))
    assert total > A.LAYOUT_COST // 2                       # too big to draw whole: the case under test
    g = A.build_for_drawing(out, max_nodes=None)
    assert A.LAYOUT_COST // 2 <= A.layout_cost(g) <= A.LAYOUT_COST   # cut to the budget, not far below
    assert g.hidden[0] == ("caption.collapsed", {"n": len(g.nodes)})
    hidden = [n for n in g.nodes if n.kind == G.HIDDEN]
    assert len(hidden) == 1
    assert functions_in(g) + hidden[0].count == total   # every Function is drawn or counted as hidden


def test_a_graph_under_the_layout_budget_is_drawn_whole_with_max_nodes_none():
    out = reuse_loop(400)                               # 803 nodes with its copies
    total = sum(1 for _ in G.iter_functions([out]))
    g = A.build_for_drawing(out, max_nodes=None)
    assert A.layout_cost(g) <= A.LAYOUT_COST
    assert functions_in(g) == total
    assert not any(n.kind == G.HIDDEN for n in g.nodes)
    assert "caption.collapsed" not in [key for key, _ in g.hidden]


def test_collapsed_caption_is_drawn_and_the_svg_is_the_same_every_time():
    out = shared_rnn(500)
    with viz.record() as rec:
        out.backward()
    first = viz.draw(out, recording=rec, max_nodes=None)
    again = viz.draw(out, recording=rec, max_nodes=None)
    words = " ".join(texts(first.svg()))
    assert f"only the {len(first.graph.nodes)} nodes nearest the output are drawn" in words
    assert first.svg() == again.svg()


def test_small_shared_graphs_are_drawn_as_they_are():
    x = torch.ones(2, requires_grad=True)
    g = viz.draw(x * x + x).graph
    assert not any(n.kind == G.REF for n in g.nodes)


NASTY = ['<b>"x"</b> & {y}', "line\nbreak", "ctl\x01\x1f", "emoji \U0001F600", "中文名字", "a'b]"]


@pytest.mark.parametrize("label", NASTY)
def test_any_name_renders_as_text(label):
    x = torch.ones(2, requires_grad=True)
    out = (x * 2).sum()
    svg = viz.draw(out, names={label: x}).svg()
    words = " ".join(texts(svg))                       # parses as XML, or this fails
    shown = label.replace("\x01", "\\x01").replace("\x1f", "\\x1f")
    for part in shown.split("\n"):
        assert part in words


def test_custom_function_with_markup_in_its_name_renders():
    class Odd(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    Odd.__name__ = "Odd<&>"
    x = torch.ones(2, requires_grad=True)
    svg = viz.draw(Odd.apply(x).sum()).svg()
    assert any("Odd<&>" in w for w in texts(svg))


def test_name_wins_over_the_callers_variable_name():
    x = torch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    words = texts(viz.draw(y, name="loss").svg())
    assert any(w.startswith("loss") for w in words) and not any(w.startswith("y ") for w in words)


@pytest.mark.parametrize("make", [
    lambda: torch.tensor([float("nan"), float("inf"), -float("inf")], requires_grad=True),
    lambda: torch.tensor(3.0, requires_grad=True),
    lambda: torch.ones(0, requires_grad=True),
], ids=["nan_inf", "zero_dim", "empty"])
def test_odd_values_draw_before_and_after_backward(make):
    x = make()
    out = (x * 2).sum()
    assert viz.draw(out).svg().startswith("<svg")
    with viz.record() as rec:
        out.backward()
    svg = viz.draw(out, recording=rec).svg()
    ET.fromstring(svg)
    assert "Gradients from one backward pass" in " ".join(texts(svg))


def test_chinese_diagram_has_no_english_words_but_pytorchs_names():
    import re
    x = torch.ones(2, requires_grad=True)
    out = (x * 2).sum()
    with viz.record() as rec:
        out.backward()
    words = " ".join(texts(viz.draw(out, names={"x": x}, recording=rec, lang="zh").svg()))
    english = set(re.findall(r"[A-Za-z]{3,}", words))
    assert english <= {"SumBackward", "MulBackward", "AccumulateGrad", "Backward", "tensor", "float",
                       "grad", "Function", "backward"}, english
    assert "梯度" in words and "叶子张量" in words


def test_pdf_keeps_chinese(tmp_path):
    x = torch.ones(2, requires_grad=True)
    out = (x * 2).sum()
    path = viz.draw(out, names={"权重": x}, lang="zh").save(tmp_path / "g.pdf")
    data = open(path, "rb").read()
    assert b"/STSong-Light" in data and b"/UniGB-UCS2-H" in data
    assert "权重".encode("utf-16-be").hex().encode() in data      # the leaf's name, not "??"
    assert "梯度".encode("utf-16-be").hex().encode() in data      # the legend
    assert b"(??)" not in data


def test_widget_copies_follow_the_node_they_stand_for():
    out = reuse_loop(80)
    with viz.record() as rec:
        out.backward()
    w = viz.GraphWidget(out, recording=rec)
    refs = [n for n in w.graph.nodes if n.kind == G.REF]
    assert refs and w.view.aliases == {r.id: r.ref for r in refs}
    assert all(w.view.classes[r.id] == "at-pending" for r in refs)
    w.step = len(w.steps)
    assert all(w.view.classes[r.id] == "at-done" for r in refs)
    w.view.selected = refs[0].ref             # what a click on a copy sets (through aliases)
    assert w.picker.value == refs[0].ref
