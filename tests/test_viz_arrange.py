"""What the layout is handed: a shared weight's loop stands in one column, and a
node with thousands of inputs is drawn with a few of them and one box for the rest."""
import re

import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import arrange as A
from autograd_teach.viz import graph as G


def size(svg):
    w, h = re.search(r'<svg[^>]* width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups()
    return float(w), float(h)


def loop(steps):
    """The issue's loop: one weight and one bias shared by every step."""
    torch.manual_seed(0)
    w = torch.randn(3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    h = torch.randn(3)
    for _ in range(steps):
        h = torch.tanh(h * w + b)
    return h.sum()


def rnn(steps):
    """An unrolled RNN with three shared parameters."""
    torch.manual_seed(0)
    wx = torch.randn(3, 3, requires_grad=True)
    wh = torch.randn(3, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    h = torch.zeros(3)
    for _ in range(steps):
        h = torch.tanh(wx @ torch.randn(3) + wh @ h + b)
    return h.sum()


@pytest.mark.parametrize("make", [loop, rnn], ids=["loop", "rnn"])
def test_a_shared_weights_loop_is_drawn_taller_than_wide(make):
    out = make(30)
    with viz.record() as rec:
        out.backward()
    d = viz.draw(out, recording=rec)
    width, height = size(d.svg())
    assert height > 2.5 * width, (width, height)          # a column, not a staircase
    assert width < 1200                                   # about 1,600 px: readable at 100%, panned down


def test_each_step_of_the_loop_is_on_one_spine():
    g = A.build_for_drawing(loop(30))
    spine = A.spines(g)
    tanh = [n.id for n in g.nodes if n.name == "TanhBackward0"]
    assert len(tanh) == 30 and len({spine[i] for i in tanh}) == 1
    assert all(spine[n.id] != spine[tanh[0]] for n in g.nodes if n.kind == G.REF)


def test_spines_cover_every_node_once_and_are_written_into_the_dot():
    g = A.build_for_drawing(rnn(5))
    spine = A.spines(g)
    assert set(spine) == {n.id for n in g.nodes}
    src = viz.draw(rnn(5)).source
    assert len(re.findall(r' group="s\d+"', src)) == len(g.nodes)


def stacked(n):
    w = torch.ones(3, requires_grad=True)
    return torch.stack([w * float(i) for i in range(n)]).sum()


def test_a_node_with_ten_thousand_inputs_draws_a_few_and_one_box():
    out = stacked(10_000)
    with viz.record() as rec:
        out.backward()
    d = viz.draw(out, recording=rec)
    g = d.graph
    stack = next(n for n in g.nodes if n.name == "StackBackward0")
    kids = [g.node(e.dst) for e in g.out_edges(stack.id)]
    assert len(kids) == G.MAX_FAN
    box = kids[-1]
    assert box.kind == G.HIDDEN and box.hides == "inputs" and box.count == 10_000 - (G.MAX_FAN - 1)
    assert len(g.nodes) < 20 and A.layout_cost(g) < 100
    words = d.svg()
    assert f"{box.count} more inputs" in words
    assert "StackBackward0 has 10000 inputs: the first 11 are drawn" in words
    # the drawn inputs still show the gradient each received
    sent = [s for s in G.grad_steps(g, rec.last) if s.node_id == stack.id][0]
    assert len(sent.edge_grads) == G.MAX_FAN - 1


def test_a_node_with_max_fan_inputs_draws_them_all():
    g = A.build_for_drawing(stacked(G.MAX_FAN))
    assert not any(n.kind == G.HIDDEN for n in g.nodes)
    assert sum(n.name == "MulBackward0" for n in g.nodes) == G.MAX_FAN


def test_layout_cost_counts_edges():
    g = A.build_for_drawing(stacked(5))
    assert A.layout_cost(g) == len(g.nodes) + len(g.edges) + A.virtual_nodes(g)


def test_fan_box_in_chinese():
    d = viz.draw(stacked(40), lang="zh")
    assert "还有 29 个输入" in d.svg()
