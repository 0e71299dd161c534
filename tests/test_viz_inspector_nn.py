"""The inspector's chain rule for what a learner meets first: accumulation into a
zeroed .grad, and (below) the teaching forms of the common nn ops, in both engines."""
import html
import re

import pytest

import autograd_teach
from autograd_teach import viz
from autograd_teach.viz import arrange, inspector
from autograd_teach.viz import graph as G

from viz_torch_helpers import import_torch


def plain(value):
    return html.unescape(re.sub("<[^>]+>", "", value))


def rows_of(torch, loss, name, lang=None):
    with viz.record() as rec:
        loss.backward()
    g = arrange.build_for_drawing(loss)
    step = next(s for s in G.grad_steps(g, rec.last) if s.name == name)
    return [(plain(h), plain(v)) for h, v in inspector.chain_rows(g, step, step.node_id, lang)]


def accumulation(torch, loss):
    return next(v for h, v in rows_of(torch, loss, "AccumulateGrad") if h == "numbers")


@pytest.mark.parametrize("engine", ["autograd_teach", "torch"])
def test_accumulating_into_a_zeroed_grad_is_not_a_first_gradient(engine):
    torch = autograd_teach if engine == "autograd_teach" else import_torch()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    first = accumulation(torch, (x * 3).sum())
    assert first.startswith("None + tensor([3., 3.]) = tensor([3., 3.])") and "none before" in first
    assert accumulation(torch, (x * 3).sum()) == "tensor([3., 3.]) + tensor([3., 3.]) = tensor([6., 6.])"
    x.grad.zero_()
    assert accumulation(torch, (x * 3).sum()) == "tensor([0., 0.]) + tensor([3., 3.]) = tensor([3., 3.])"
    x.grad = None
    assert accumulation(torch, (x * 3).sum()).startswith("None + ")


def nn_cases(torch):
    """(node name, loss) for the common nn ops, small enough that some values print whole."""
    torch.manual_seed(0)
    F = torch.nn.functional
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    b = torch.randn(2, requires_grad=True)
    y = torch.tensor([0, 1, 2, 0])
    img = torch.randn(1, 1, 4, 4, requires_grad=True)
    k = torch.randn(2, 1, 3, 3, requires_grad=True)
    return {
        "AddmmBackward0": lambda: torch.addmm(b, x, w).sum(),
        "MmBackward0": lambda: (x @ w).sum(),
        "MeanBackward0": lambda: (x * 2).mean(),
        "MeanBackward1": lambda: (x * 2).mean(0).sum(),
        "MseLossBackward0": lambda: F.mse_loss(x * 2, torch.zeros(4, 3)),
        "NllLossBackward0": lambda: F.cross_entropy(x * 2, y),
        "LogSoftmaxBackward0": lambda: F.cross_entropy(x * 2, y),
        "ReluBackward0": lambda: torch.relu(x * 2).sum(),
        "SigmoidBackward0": lambda: torch.sigmoid(x * 2).sum(),
        "TanhBackward0": lambda: torch.tanh(x * 2).sum(),
        "ConvolutionBackward0": lambda: F.conv2d(img, k, torch.zeros(2, requires_grad=True)).sum(),
        "NativeBatchNormBackward0": lambda: F.batch_norm(x * 2, None, None, torch.ones(3, requires_grad=True),
                                                         torch.zeros(3, requires_grad=True), training=True).sum(),
    }


FORMS = {"AddmmBackward0": "grad_mat1 = grad @ mat2ᵀ", "MmBackward0": "grad_mat2 = selfᵀ @ grad",
         "MeanBackward0": "grad_self = grad / self_sym_numel", "MeanBackward1": "grad_self = grad / n",
         "MseLossBackward0": "grad_self = 2 * (self - target) * grad / N",
         "NllLossBackward0": "grad_self = -grad / total_weight",
         "LogSoftmaxBackward0": "grad_self = grad - exp(result) * grad.sum(dim, keepdim=True)",
         "ReluBackward0": "grad_self = grad * (result > 0)", "SigmoidBackward0": "grad_self = grad * result * (1 - result)",
         "TanhBackward0": "grad_self = grad * (1 - result²)", "ConvolutionBackward0": "grad_weight = conv(input, grad)",
         "NativeBatchNormBackward0": "grad_weight = sum(grad * x̂)"}


@pytest.mark.parametrize("engine", ["autograd_teach", "torch"])
@pytest.mark.parametrize("name", sorted(FORMS))
def test_common_nn_ops_show_a_teaching_form_with_numbers_and_the_raw_formula_collapsed(engine, name):
    torch = autograd_teach if engine == "autograd_teach" else import_torch()
    rows = rows_of(torch, nn_cases(torch)[name](), name)
    rules = [v for h, v in rows if h.endswith("rule")]
    assert any(r.startswith(FORMS[name]) for r in rules), rules
    numbers = [v for h, v in rows if h == "numbers"]
    assert numbers and all(v.startswith("= ") for v in numbers)
    assert not any("maybe_multiply" in r or "_backward(" in r for r in rules)   # PyTorch's kernels' names
    assert any(h == "PyTorch's formula" for h, _ in rows)


def test_numbers_are_substituted_small_in_full_and_large_as_a_summary():
    torch = autograd_teach
    x = torch.tensor([[1.0, -2.0]], requires_grad=True)
    rows = rows_of(torch, torch.relu(x * 1).sum(), "ReluBackward0")
    assert ("numbers", "= tensor([[1., 1.]]) * (tensor([[1., 0.]]) > 0)") in rows
    big = torch.ones(10, 10, requires_grad=True)
    rows = rows_of(torch, torch.relu(big * 1).sum(), "ReluBackward0")
    assert ("numbers", "= [shape (10, 10), norm 10] * ([shape (10, 10), norm 10] > 0)") in rows


def test_addmm_numbers_in_chinese():
    torch = autograd_teach
    torch.manual_seed(0)
    lin = torch.nn.Linear(2, 1)
    rows = rows_of(torch, lin(torch.ones(1, 2)).sum(), "AddmmBackward0", lang="zh")
    heads = [h for h, _ in rows]
    assert "[0] 法则" in heads and "代入数值" in heads and "torch 的公式" in heads
    assert any("按广播的行求和" in v for _, v in rows)


def test_saved_names_never_run_into_their_values():
    torch = autograd_teach
    x = torch.ones(3, requires_grad=True)
    loss = (x * 2).mean()
    g = arrange.build_for_drawing(loss, show_saved=True)
    node = next(n for n in g.nodes if n.name == "MeanBackward0")
    page = inspector.inspector_html(g, None, 0, node.id)
    assert '<th><code class="at-name" style="white-space: nowrap">' in page
