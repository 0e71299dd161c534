"""GraphWidget state: steps, what is shown at step k, the inspector, the console fallback."""
import os
import re
import subprocess
import sys

import pytest

import autograd_teach as torch
from autograd_teach.core import engine
from autograd_teach import viz
from autograd_teach.viz import graph as G
from autograd_teach.viz.widget import step_classes



def recorded(make):
    out, names = make()
    with viz.record() as rec:
        out.backward()
    return viz.GraphWidget(out, names=names, recording=rec), rec


def dot_example():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return 2 * torch.dot(x, x), {"x": x}


def square_mean():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return (3 * (x + 2) ** 2).mean(), {"x": x}


def shown_grads(w):
    """Edges whose gradient label the widget shows: those not pending."""
    return {i for i, c in w.view.classes.items() if i.startswith("e") and c != "at-pending"}


@pytest.mark.parametrize("make", [dot_example, square_mean])
def test_step_count_is_the_number_of_nodes_the_engine_ran(make):
    w, rec = recorded(make)
    ran = sum(n.kind in (G.FUNCTION, G.ACCUMULATE) for n in w.graph.nodes)
    assert w.slider.max == w.play.max == len(rec.steps) == ran


class RawWatcher:
    """The engine's observer hook at its barest: (node, grad_inputs) per step, nothing from viz."""

    def __init__(self):
        self.calls = []

    def __call__(self, roots):
        return self

    def step(self, node, grad_outputs, grad_inputs):
        self.calls.append((node, tuple(grad_inputs)))

    def end(self):
        pass


def raw_recorded(make):
    out, names = make()
    raw = RawWatcher()
    handle = engine.add_observer(raw)
    try:
        with viz.record() as rec:       # viz's recorder sees the same run
            out.backward()
    finally:
        handle.remove()
    return viz.GraphWidget(out, names=names, recording=rec), raw.calls


def sent_by(graph, node, grad_inputs):
    """Edge ids carrying what the engine's ``node`` produced (from the raw hook data)."""
    n = graph.node_for(node)
    ids = {e.id for e in graph.in_edges(n.id) if e.kind == "output"}     # it received the output's grad
    for e in graph.out_edges(n.id):
        if e.kind == "grad" and grad_inputs[e.slot] is not None:
            ids.add(e.id)
        elif e.kind == "variable":                                       # AccumulateGrad wrote .grad
            ids.add(e.id)
    return ids


@pytest.mark.parametrize("make", [dot_example, square_mean])
def test_at_step_k_exactly_the_gradients_computed_by_then_are_shown(make):
    w, calls = raw_recorded(make)
    assert len(calls) == len(w.steps)
    expected = set()
    for k in range(len(calls) + 1):
        if k:
            expected |= sent_by(w.graph, *calls[k - 1])
        w.step = k
        assert shown_grads(w) == expected, k
        current = [i for i, c in w.view.classes.items() if c == "at-current" and i.startswith("n")]
        if k:
            assert w.graph.node_for(calls[k - 1][0]).id in current
            assert G.fn_name(calls[k - 1][0]) in w.status.value
        else:
            assert current == []


def test_dot_example_shows_the_gradients_by_hand():
    # y = 2 * dot(x, x): MulBackward0 sends to Dot (slot 1 is the constant 2),
    # DotBackward0 sends twice to x's AccumulateGrad, which writes x.grad.
    w, _ = recorded(dot_example)
    by = {n.kind if n.kind in (G.OUTPUT, G.LEAF) else n.name: n.id for n in w.graph.nodes}
    edge = {(w.graph.node(e.src).name, e.slot): e.id for e in w.graph.edges}
    out_edge = edge[("output", None)]
    mul, dot0, dot1 = edge[("MulBackward0", 0)], edge[("DotBackward0", 0)], edge[("DotBackward0", 1)]
    var = edge[("AccumulateGrad", None)]
    want = [set(), {out_edge, mul}, {out_edge, mul, dot0, dot1}, {out_edge, mul, dot0, dot1, var}]
    current = [set(), {by["MulBackward0"]}, {by["DotBackward0"]},
               {by["AccumulateGrad"], by[G.LEAF]}]     # the leaf lights up with its AccumulateGrad
    assert len(w.steps) == 3
    for k in range(4):
        w.step = k
        assert shown_grads(w) == want[k], k
        now = {i for i, c in w.view.classes.items() if c == "at-current" and i.startswith("n")}
        assert now == current[k], k


def test_grad_labels_are_laid_out_once_and_only_restyled():
    w, rec = recorded(square_mean)
    svg = w.view.svg
    assert svg.count('class="at-grad"') > len(rec.steps)   # every label is already there
    for k in range(len(rec.steps) + 1):
        w.step = k
        assert w.view.svg is svg


def test_inspector_shows_the_picked_nodes_tensor_and_gradient():
    w, _ = recorded(dot_example)
    leaf = next(n for n in w.graph.nodes if n.kind == G.LEAF)
    w.picker.value = leaf.id
    html = w.inspector.value
    assert 'class="at-inspector"' in html and f'data-node="{leaf.id}"' in html
    assert "tensor([1., 2., 3.])" in html and "(3,)" in html and "torch.float32" in html
    assert "not yet: written at step 3" in html
    w.step = 3
    assert "tensor([ 4.,  8., 12.])" in w.inspector.value     # its .grad once AccumulateGrad ran
    assert "at-selected" in w.view.classes[leaf.id]


def test_clicking_a_node_picks_it():
    w, _ = recorded(dot_example)
    w.step = 2
    dot = next(n for n in w.graph.nodes if n.name == "DotBackward0")
    w.view.selected = dot.id                  # what the browser sets on a click
    assert w.picker.value == dot.id
    html = w.inspector.value
    assert "gradient in" in html and "tensor(2.)" in html
    assert html.count("tensor([2., 4., 6.])") == 2             # sent along [0] and [1]


def test_inspector_shows_saved_tensors_while_they_exist():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x ** 3).sum()
    w = viz.GraphWidget(out)
    pow_node = next(n for n in w.graph.nodes if n.name == "PowBackward0")
    w.picker.value = pow_node.id
    assert "_saved_self" in w.inspector.value and "tensor([1., 2.])" in w.inspector.value
    assert "_saved_exponent" in w.inspector.value


def test_without_a_recording_the_widget_says_so():
    out, _ = square_mean()
    w = viz.GraphWidget(out)
    assert w.slider.max == 0 and w.play.disabled
    assert "No backward recorded" in w.status.value
    assert step_classes(w.graph, w.steps, 0) == {}


def test_toggles_drive_the_views_css_switches():
    w, _ = recorded(dot_example)
    w.toggles["grads"].value = False
    w.toggles["saved"].value = False
    assert (w.view.show_values, w.view.show_grads, w.view.show_saved) == (True, False, False)


def test_plain_console_gets_a_text_summary():
    code = ("import autograd_teach as torch\nfrom autograd_teach import viz\nviz.autorecord(True)\n"
            "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
            "y = 2 * torch.dot(x, x)\ny.backward()\nviz.show(y, names={'x': x})\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=root)
    assert done.stdout.startswith("autograd graph: 3 backward nodes")
    assert "engine order: MulBackward0 -> DotBackward0 -> AccumulateGrad" in done.stdout
    assert not re.search(r"0x[0-9a-f]{6,}", done.stdout)


def test_widget_speaks_chinese_with_lang_or_the_default():
    out, names = dot_example()
    with viz.record() as rec:
        out.backward()
    w = viz.GraphWidget(out, names=names, recording=rec, lang="zh")
    assert "第 0 步" in w.status.value and w.slider.description == "步"
    assert w.toggles["grads"].description == "梯度"
    w.step = 1
    assert "MulBackward0 已运行" in w.status.value
    try:
        viz.set_lang("zh")
        assert viz.GraphWidget(out, names=names, recording=rec).toggles["values"].description == "数值"
    finally:
        viz.set_lang("en")
    assert viz.GraphWidget(out, names=names, recording=rec).toggles["values"].description == "values"


def test_controls_have_titles_and_a_visible_on_state():
    w, _ = recorded(dot_example)
    for control in (w.play, w.slider, *w.toggles.values(), w.fit, w.zoom_in, w.zoom_out, w.picker):
        assert control.tooltip and control.description, control._key
    button = w.toggles["grads"]
    assert button.icon == "check"
    button.value = False
    assert button.icon == "" and w.view.show_grads is False


def test_every_control_of_the_front_end_has_its_own_label_and_title():
    # replay.js shows labels[key] and uses labels[key + ".title"] as title and aria-label
    for lang in ("en", "zh"):
        labels = viz.GraphWidget(dot_example()[0], lang=lang).data["labels"]
        keys = ["play", "pause", "stop", "repeat", "prev", "next", "step", "values", "grads", "saved",
                "follow", "fit", "zoom_in", "zoom_out", "inspect", "close"]
        titles = [labels[f"widget.{k}.title"] for k in keys]
        assert all(titles) and len(set(titles)) == len(titles), lang
        assert len({labels[f"widget.{k}"] for k in keys}) == len(keys), lang
        assert "Run \u2192 Run All Cells" in labels["widget.stale"]


def test_zoom_and_fit_drive_the_view():
    w, _ = recorded(dot_example)
    assert w.view.zoom == 0.0                 # open at a readable scale (the browser decides)
    w.zoom_in.click()
    assert w.view.zoom > 1.0
    w.zoom_out.click()
    w.zoom_out.click()
    assert w.view.zoom < 1.0
    w.fit.click()
    assert w.view.zoom == -1.0                # fit the width, however small


def test_step_and_selection_are_checked():
    w, _ = recorded(dot_example)
    w.step = 99
    assert w.step == len(w.steps)
    w.step = -3
    assert w.step == 0
    with pytest.raises(Exception, match="no node"):
        w.selected = "n999"


def test_show_is_a_view_of_draws_diagram():
    out, names = dot_example()
    with viz.record() as rec:
        out.backward()
    d = viz.draw(out, names=names, recording=rec, lang="zh")
    w = viz.GraphWidget(d)
    assert w.diagram is d and w.view.svg == d.svg() and w.lang == "zh"
    assert [s.name for s in w.steps] == ["MulBackward0", "DotBackward0", "AccumulateGrad"]


def test_the_widget_carries_the_replay_as_html_for_where_no_kernel_runs():
    w, _ = recorded(dot_example)
    bundle, _metadata = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    html = bundle["text/html"]
    assert html.startswith('<div class="at-replay"') and 'src="data:image/svg+xml;base64,' in html
    assert '<script type="module">' in html and w.html() == html     # the same bytes every time


def test_show_after_unrecorded_backward_never_claims_backward_did_not_run():
    out, names = square_mean()
    out.backward()                            # recording is off
    w = viz.GraphWidget(out, names=names)
    assert "No backward recorded" not in w.status.value
    assert "was not recorded" in w.status.value
    assert "was not recorded" in repr(w) and "no gradients yet" not in repr(w)


def test_saved_tensors_are_not_called_freed_before_their_node_runs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x * x).sum()
    with viz.record() as rec:
        out.backward()
    w = viz.GraphWidget(out, recording=rec)
    mul = next(n for n in w.graph.nodes if n.name == "MulBackward0")
    w.picker.value = mul.id
    assert "retain_graph=True" not in w.inspector.value and "kept until this node runs" in w.inspector.value
    w.step = len(w.steps)
    assert "freed by backward (use backward(retain_graph=True)" in w.inspector.value
    assert 'class="at-freed' in w.view.svg      # the note in the diagram hides while its node is pending
