"""Real PyTorch models drawn by viz: PyTorch's node names, parameters by named_parameters() name,
and the gradients of a real backward recorded through viz.torch_record."""
import numpy as np
import pytest

from viz_torch_helpers import import_torch, name

torch = import_torch()
from torch import nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from autograd_teach import viz  # noqa: E402
from autograd_teach.viz import graph as G  # noqa: E402
import importlib  # noqa: E402

R = importlib.import_module("autograd_teach.viz.recording")   # the module (viz.record is the function)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).flatten(1))


def leaf_labels(diagram):
    """label -> the tensor drawn under it, for every leaf of the diagram."""
    return {n.name: n.tensor for n in diagram.graph.nodes if n.kind == G.LEAF}


def function_names(diagram):
    return [n.name for n in diagram.graph.nodes if n.kind == G.FUNCTION]


@pytest.fixture
def clean():
    """No recording from another test, and background recording off afterwards."""
    R.clear()
    yield
    viz.autorecord(False)
    R.clear()


def test_an_mlp_draws_with_pytorchs_names_and_its_parameter_names():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    x, y = torch.randn(5, 3), torch.randn(5, 1)
    loss = nn.MSELoss()(model(x), y)
    d = viz.draw(loss)
    assert function_names(d) == ["MseLossBackward0", "AddmmBackward0", "TanhBackward0", "TBackward0",
                                 "AddmmBackward0", "TBackward0"]
    labels = leaf_labels(d)
    assert set(labels) == {"model.0.weight", "model.0.bias", "model.2.weight", "model.2.bias"}
    for label, tensor in labels.items():          # each label sits on the right parameter
        assert tensor is model.get_parameter(label.removeprefix("model."))
    svg = d.svg()
    for text in ("model.0.weight", "model.2.bias", "MseLossBackward0", "AddmmBackward0", "AccumulateGrad"):
        assert text in svg
    assert "loss" in {n.name for n in d.graph.nodes if n.kind == G.OUTPUT}


def test_named_parameters_given_explicitly_label_like_torchviz_params():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    out = model(torch.randn(3, 2)).sum()
    assert set(leaf_labels(viz.draw(out, names=dict(model.named_parameters())))) == {
        "0.weight", "0.bias", "2.weight", "2.bias"}


def test_a_tensor_variable_keeps_its_own_name_and_two_models_stay_apart():
    torch.manual_seed(0)
    first, second = nn.Linear(2, 1), nn.Linear(1, 1)
    w = first.weight
    out = second(first(torch.randn(1, 2))).sum()
    assert set(leaf_labels(viz.draw(out))) == {"w", "first.bias", "second.weight", "second.bias"}


def test_a_small_cnn_draws_its_convolution():
    torch.manual_seed(0)
    cnn = SmallCNN()
    out = cnn(torch.randn(2, 1, 4, 4)).sum()
    d = viz.draw(out)
    assert function_names(d) == ["SumBackward0", "AddmmBackward0", "ViewBackward0", "TBackward0",
                                 "ReluBackward0", "ConvolutionBackward0"]
    assert set(leaf_labels(d)) == {"cnn.conv.weight", "cnn.conv.bias", "cnn.fc.weight", "cnn.fc.bias"}
    svg = d.svg()
    assert "ConvolutionBackward0" in svg and "cnn.conv.weight" in svg
    assert d.svg() == viz.draw(out).svg()         # the same bytes each time


def test_an_rnn_cell_over_three_steps_shares_its_parameters():
    torch.manual_seed(0)
    cell = nn.RNNCell(3, 4)
    h = torch.zeros(1, 4)
    for _ in range(3):
        h = cell(torch.randn(1, 3), h)
    d = viz.draw(h.sum())
    names = function_names(d)
    assert names.count("TanhBackward0") == 3 and names.count("AddmmBackward0") == 6
    labels = leaf_labels(d)
    assert set(labels) == {"cell.weight_ih", "cell.weight_hh", "cell.bias_ih", "cell.bias_hh"}
    # Shared across the three steps, each parameter is drawn once.
    accumulate = [n for n in d.graph.nodes if n.kind == G.ACCUMULATE]
    assert len(accumulate) == 4
    assert "cell.weight_hh" in d.svg()


def test_draw_before_backward_says_no_gradients_yet():
    model = nn.Linear(2, 1)
    loss = model(torch.ones(1, 2)).sum()
    d = viz.draw(loss)
    assert d.steps is None and "No gradients yet" in d.source


def test_a_recorded_real_backward_puts_gradients_on_the_diagram(clean):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    x, y = torch.randn(4, 3), torch.randn(4, 1)
    loss = nn.MSELoss()(model(x), y)
    with viz.record():
        loss.backward()
    d = viz.draw(loss)
    assert [s.name for s in d.steps] == ["MseLossBackward0", "AddmmBackward0", "AccumulateGrad",
                                         "TBackward0", "AccumulateGrad"]
    assert "No gradients yet" not in d.source
    # The leaf's gradient on the diagram is PyTorch's own .grad of that parameter.
    for param in (model.weight, model.bias):
        step = next(s for s in d.steps if s.node_id is not None and s.name == "AccumulateGrad"
                    and d.graph.node(s.node_id).fn.variable is param)
        np.testing.assert_array_equal(step.leaf_grad, param.grad.numpy())
    # And every edge that carried a gradient is labelled with it, in the SVG too.
    sent = G.grads_until(d.steps, len(d.steps))
    grad_edges = [e for e in d.graph.edges if e.kind in ("grad", "variable", "output")]
    assert grad_edges and {e.id for e in grad_edges} <= set(sent)
    bias_grad = f"{model.bias.grad.item():.4f}"     # e.g. -0.3759; the SVG escapes its minus sign
    assert f".grad = tensor([{bias_grad}])" in d.source and bias_grad.lstrip("-") in d.svg()


def test_autorecord_records_a_plain_real_backward(clean):
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    loss = model(torch.randn(3, 2)).pow(2).mean()
    viz.autorecord(True)
    loss.backward()
    viz.autorecord(False)
    d = viz.draw(loss)
    assert [s.name for s in d.steps][0] == "MeanBackward0"
    assert "No gradients yet" not in d.source
    # Off again: the next real backward is not recorded, and the diagram says so.
    loss2 = model(torch.randn(3, 2)).sum()
    loss2.backward()
    d2 = viz.draw(loss2)
    assert d2.steps is None and d2.why == "caption.not_recorded_torch"     # not "no gradients yet"
    assert viz.draw(model(torch.randn(3, 2)).sum()).why is None        # backward never ran on this one


def test_a_leaf_grad_under_create_graph_and_in_bfloat16_is_read(clean):
    # .grad requires grad under create_graph=True (plain .numpy() refuses it); numpy has no bfloat16.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    with viz.record():
        y.backward(create_graph=True)
    d = viz.draw(y)
    acc = next(s for s in d.steps if s.name == "AccumulateGrad")
    np.testing.assert_array_equal(acc.leaf_grad, [3.0, 12.0])
    b = torch.tensor([1.5, -2.0], dtype=torch.bfloat16, requires_grad=True)
    z = (b * b).sum()
    with viz.record():
        z.backward()
    d = viz.draw(z)
    acc = next(s for s in d.steps if s.name == "AccumulateGrad")
    np.testing.assert_array_equal(acc.leaf_grad, [3.0, -4.0])
    assert f"leaf b: (2,) bfloat16 {b!r}".replace(", requires_grad=True", "") in repr(d)


def test_show_steps_through_a_real_backward_in_pytorchs_order(clean):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    loss = nn.MSELoss()(model(torch.randn(4, 2)), torch.randn(4, 1))
    with viz.record() as rec:
        loss.backward()
    viz.show(loss)                                # a console: prints the summary, must not fail
    widget = viz.GraphWidget(loss)                # what show(loss) displays in a notebook
    ran = [name(s.fn) for s in rec.last.steps]    # PyTorch's own order, as its hooks saw it
    assert [s.name for s in widget.steps] == ran and len(ran) == 10
    assert widget.slider.max == len(ran)
    widget.step = 3
    assert widget.status.value == f"<span>step 3 of {len(ran)}: {ran[2]} ran</span>"
    current = [widget.graph.node(k) for k, v in widget.view.classes.items()
               if v == "at-current" and k.startswith("n")]
    # The node that just ran, and the leaf it wrote .grad into.
    assert [(n.kind, n.name) for n in current] == [(G.ACCUMULATE, "AccumulateGrad"), (G.LEAF, "model.2.bias")]
    assert ran[2] == "AccumulateGrad" and current[0].fn is rec.last.steps[2].fn
    widget.step = len(ran)
    assert "at-pending" not in widget.view.classes.values()


def test_the_inspector_on_pytorch_nodes_says_where_their_rule_is(clean):
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    loss = nn.MSELoss()(model(torch.randn(3, 2)), torch.randn(3, 1))
    with viz.record():
        loss.backward()
    for lang, words in (("en", "derivatives.yaml"), ("zh", "法则")):
        widget = viz.GraphWidget(loss, lang=lang)
        widget.step = len(widget.steps)
        for node in widget.graph.nodes:          # every node inspects, none raises
            if node.kind != G.REF:
                widget.picker.value = node.id
                assert widget.inspector.value.startswith('<div class="at-inspector"')
        addmm = next(n for n in widget.graph.nodes if n.name == "AddmmBackward0")
        widget.picker.value = addmm.id
        html = widget.inspector.value
        assert words in html
        # What AddmmBackward0 sent on is still shown: the bias's gradient among it.
        sent = next(s for s in widget.steps if s.name == "AddmmBackward0")
        assert len([g for g in sent.edge_grads.values() if g is not None]) >= 2
        bias = next(n for n in widget.graph.nodes if n.name == "model.bias")
        widget.picker.value = bias.id
        assert f"{model.bias.grad.item():.4f}" in widget.inspector.value
