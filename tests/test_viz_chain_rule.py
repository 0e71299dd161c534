"""The inspector's chain rule: the ops' own docstring rules, evaluated on the recorded numbers,
give the gradients the engine sent; the widget shows rule, numbers and result."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.ops import formulas
from autograd_teach.viz.inspector import substitute


def graphs():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = torch.tensor([[1.0, 2.0, 3.0], [0.5, -0.5, 1.5]], requires_grad=True)
    b = torch.tensor([0.1, 0.2], requires_grad=True)
    yield "mlp", ((w @ x + b).tanh() * 3).sum()
    yield "pointwise", ((x * x + 2) ** 2 / (x.exp() + 1)).mean()
    yield "dot", 2 * torch.dot(x, x)
    yield "reductions", (x.sigmoid() - x.relu()).sum() + (w * w).mean()


def as_tensor(v):
    # In float64: the engine computes some rules with one rounding where the docstring's
    # text rounds each op (1 - result * result near result = 1 cancels float32's digits).
    if isinstance(v, np.ndarray):
        return torch.tensor(v.astype(np.float64) if v.dtype.kind == "f" else v)
    return v


def unbroadcast(g, shape):
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.sum(0)
    for i, s in enumerate(shape):
        if s == 1 and g.shape[i] != 1:
            g = g.sum(i, keepdims=True)
    return g


@pytest.mark.parametrize("name, out", list(graphs()), ids=[n for n, _ in graphs()])
def test_every_rule_on_the_recorded_numbers_gives_the_engines_gradient(name, out):
    with viz.record() as rec:
        out.backward()
    checked = 0
    for step in rec.steps:
        fn = step.fn
        if step.values is None:
            continue
        got = formulas.evaluate(fn, as_tensor(step.grad_output),
                                {k: as_tensor(v) for k, v in step.values.items()})
        inputs = type(fn).inputs
        for input_name, value in got.items():
            sent = step.grad_inputs[inputs.index(input_name)]
            np.testing.assert_allclose(unbroadcast(value.numpy(), sent.shape), sent, rtol=1e-5,
                                       err_msg=f"{type(fn).__name__} {input_name}")
            checked += 1
    assert checked >= 3


def test_widget_shows_rule_numbers_and_what_went_out():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    out = (x * w).sum()
    with viz.record() as rec:
        out.backward()
    wd = viz.GraphWidget(out, names={"x": x, "w": w}, recording=rec)
    mul = next(n for n in wd.graph.nodes if n.name == "MulBackward0")
    wd.picker.value = mul.id
    wd.step = 2
    html = wd.inspector.value
    assert "grad_self = grad * other" in html and "grad_other = grad * self" in html
    assert "= tensor([1., 1.]) * tensor([3., 4.])" in html      # the numbers put in
    assert "sent [0] to AccumulateGrad" in html and "tensor([3., 4.])" in html
    acc = next(n for n in wd.graph.nodes if n.name == "AccumulateGrad")
    wd.picker.value = acc.id
    wd.step = len(wd.steps)
    assert "old .grad + incoming = new .grad" in wd.inspector.value


def test_accumulate_shows_old_plus_incoming_on_a_second_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x * 2).sum()
    out.backward(retain_graph=True)
    with viz.record() as rec:
        out.backward()
    wd = viz.GraphWidget(out, names={"x": x}, recording=rec, lang="zh")
    acc = next(n for n in wd.graph.nodes if n.name == "AccumulateGrad")
    wd.picker.value = acc.id
    wd.step = len(wd.steps)
    assert "tensor([2., 2.]) + tensor([2., 2.]) = tensor([4., 4.])" in wd.inspector.value
    assert "原来的 .grad" in wd.inspector.value


def test_substitute_puts_values_only_for_names():
    assert substitute("grad * other", np.array([1.0], np.float32), {"other": np.array([3.0], np.float32)}) == \
        "tensor([1.]) * tensor([3.])"
    assert substitute("grad.expand(self_sym_sizes)", np.array(1.0, np.float32), {"self_sym_sizes": (2,)}) == \
        "tensor(1.).expand((2,))"


def test_a_node_past_the_snapshot_says_why_it_shows_no_numbers():
    import importlib
    R = importlib.import_module("autograd_teach.viz.recording")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(R.SNAPSHOT_STEPS + 5):
        y = y * 1.5
    out = y.sum()
    with viz.record() as rec:
        out.backward()
    wd = viz.GraphWidget(out, names={"x": x}, recording=rec, max_nodes=None)
    muls = [n for n in wd.graph.nodes if n.name == "MulBackward0"]
    wd.step = len(wd.steps)
    shown = []
    for n in muls:
        wd.picker.value = n.id
        html = wd.inspector.value
        assert "grad_self = grad * other" in html
        shown.append(("= tensor(" in html, "the 32 nodes nearest the output".replace("32", str(R.SNAPSHOT_STEPS))
                      in html))
    assert shown.count((True, False)) == R.SNAPSHOT_STEPS - 1     # the sum node is the first of the snapshot
    assert shown.count((False, True)) == len(muls) - (R.SNAPSHOT_STEPS - 1)
    zh = viz.GraphWidget(out, names={"x": x}, recording=rec, max_nodes=None, lang="zh")
    zh.step = len(zh.steps)
    zh.picker.value = muls[-1].id if not shown[-1][0] else muls[0].id
    assert f"只为最靠近输出的 {R.SNAPSHOT_STEPS} 个节点" in zh.inspector.value
