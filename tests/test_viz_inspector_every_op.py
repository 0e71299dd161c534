"""The widget's inspector never crashes: every op class's node, at every step,
in both languages (saved values that are not tensors: reduction='mean', None,
sizes, dims; saved tensors kept and freed).  The graphs are the cases of the
derivative-formula and gradcheck tests, which together reach every op class."""
import re
import warnings
from html import escape

import numpy as np
import pytest

import test_derivative_formulas as formulas_cases
import test_gradcheck
import test_gradcheck_nn
import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz.inspector import inspector_html

CASES = ([(f"{name}-{cid}", (lambda make: lambda: make(np.random.default_rng(0)))(make), f)
          for name, cases in sorted(formulas_cases.CASES.items()) for cid, make, f in cases]
         + [(f"gradcheck-{c[0]}", c[2], c[1]) for c in test_gradcheck.CASES]
         + [(f"gradcheck_nn-{c[0]}", c[2], c[1]) for c in test_gradcheck_nn.CASES]
         + [("normal-mean", lambda: (torch.zeros(3, requires_grad=True),), lambda m: torch.normal(m, 1.0)),
            ("normal-std", lambda: (torch.ones(3, requires_grad=True),), lambda s: torch.normal(0.0, s)),
            ("normal-both", lambda: (torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True)),
             lambda m, s: torch.normal(m, s))])
# Nodes whose backward raises (derivatives.yaml: not_implemented): inspected before backward.
NOT_IMPLEMENTED = [("floor_divide", lambda x: x // torch.tensor([2.0, 3.0])),
                   ("floor_divide scalar", lambda x: x // 2),
                   ("remainder scalar self", lambda x: 2 % x)]


def _loss(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    outs = [o for o in outs if getattr(o, "grad_fn", None) is not None]
    total = outs[0].sum()
    for o in outs[1:]:
        total = total + o.sum()
    return total


def _raises(case_id):
    """A case of an op without a derivative (FloorDivide-tensors): its backward
    raises; (error type, message) or None."""
    name = case_id.split("-")[0]
    if name in formulas_cases.NOT_DIFFERENTIABLE:
        return RuntimeError, r"^derivative for aten::\w+ is not implemented$"
    if name in formulas_cases.NO_DERIVATIVE:
        return NotImplementedError, r"^the derivative for '[\w ]+' is not implemented\.$"
    return None


def _widget(make, f, retain, raises=None):
    """The widget of one backward, recorded; one through an op without a derivative
    raises PyTorch's error midway, and what ran before it is still shown."""
    inputs = make()
    with warnings.catch_warnings(), viz.record() as rec:
        warnings.simplefilter("ignore")
        loss = _loss(f(*inputs))
        if raises:
            with pytest.raises(raises[0], match=raises[1]):
                loss.backward(retain_graph=retain)
        else:
            loss.backward(retain_graph=retain)
    return viz.GraphWidget(loss, names={}, recording=rec, show_constants=True, max_nodes=None)


def _says_not_implemented(page, lang):
    said = {"en": "no derivative: backward through this node raises", "zh": "没有导数：经过这个节点的反向传播会报错"}[lang]
    return said in page and re.search(r"&quot;derivative for aten::\w+ is not implemented&quot;", page)


def _classes(graph):
    return {type(m) for n in graph.nodes for m in ((n.fn,) if n.fn is not None else ()) + n.members}


@pytest.mark.parametrize("retain", [False, True], ids=["freed", "retained"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_inspector_shows_every_node_at_every_step(case, retain):
    case_id, make, f = case
    w = _widget(make, f, retain, _raises(case_id))
    for n in w.graph.nodes:
        for k in sorted({0, len(w.steps) // 2, len(w.steps)}):
            for lang in ("en", "zh"):
                page = inspector_html(w.graph, w.steps, k, n.id, lang)
                assert page.startswith('<div class="at-inspector"') and f'data-node="{n.id}"' in page
                assert bool(_says_not_implemented(page, lang)) == (n.name == "NotImplemented"), (n.name, page)


@pytest.mark.parametrize("case", NOT_IMPLEMENTED, ids=[c[0] for c in NOT_IMPLEMENTED])
def test_the_inspector_shows_a_node_whose_backward_is_not_implemented(case):
    out = case[1](torch.tensor([1.5, 2.5], requires_grad=True))
    w = viz.GraphWidget(out, names={}, show_constants=True)
    said = 0
    for n in w.graph.nodes:
        for lang in ("en", "zh"):
            page = inspector_html(w.graph, w.steps, 0, n.id, lang)
            assert f'data-node="{n.id}"' in page
            said += bool(_says_not_implemented(page, lang))
            if n.name == "NotImplemented":     # PyTorch's own message, from the op's rule
                with pytest.raises(RuntimeError) as error:
                    out.sum().backward()
                assert escape(f'"{error.value}"') in page
    assert said == 2                           # the one NotImplemented node, in en and zh


def test_the_cases_reach_every_op_class():
    seen = set()
    for case_id, make, f in CASES:
        seen |= _classes(_widget(make, f, False, _raises(case_id)).graph)
    for _, f in NOT_IMPLEMENTED:
        seen |= _classes(viz.GraphWidget(f(torch.tensor([1.5, 2.5], requires_grad=True)), names={}).graph)
    names = {t.__name__ for t in seen}     # the NoDerivative classes all print as NotImplemented
    assert {name for name, cls in formulas_cases.op_classes().items() if cls not in seen and name not in names} == set()


def test_a_saved_string_is_shown_as_python_shows_it():
    """MseLossBackward0 saves reduction='mean': printed by repr, not as a tensor (it crashed)."""
    make, f = next((m, f) for cid, m, f in formulas_cases.CASES["MseLossBackward0"] if cid == "mean")
    w = _widget(lambda: make(np.random.default_rng(0)), f, False)
    node = next(n for n in w.graph.nodes if n.name == "MseLossBackward0")
    page = inspector_html(w.graph, w.steps, len(w.steps), node.id, "en")
    assert "&#x27;mean&#x27;" in page
