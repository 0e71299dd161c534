"""Every forward-mode rule (autograd_teach/jvp_rules.py) gives J·v.

For each op of the derivative-rule cases (tests/test_derivative_formulas.py)
that has a forward rule: the case runs on dual tensors (float64, random
tangents), and the tangent of its output must equal J·v, with J the
Jacobian that reverse mode computes one row at a time (so a subgradient
convention, max of ties say, is the same in both modes, as in PyTorch).
"""
import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.autograd.forward_ad as fwAD
from autograd_teach.forward_mode import dual
from autograd_teach.forward_mode.jvp_rules import JVP
from test_derivative_formulas import CASES, op_classes

# ops PyTorch has a forward rule for that this package does not (yet): a tangent reaching them raises
WITHOUT_RULE = {# no derivative at all in PyTorch (the in-place forms of asinh, acosh, atanh have none either)
                "AsinhBackward1", "AcoshBackward1", "AtanhBackward1", "Unique2Backward0", "UniqueDimBackward0", "UniqueConsecutiveBackward0"}
# where PyTorch's forward rule is not the Jacobian that its backward gives, the tangent follows its forward rule
AS_PYTORCH = {("EmbeddingBackward0", "padding_idx"): "PyTorch's rule is embedding(weight_t): the padding row moves "
                                                     "too, though backward gives it no gradient"}


def cases():
    return [pytest.param(name, i, id=f"{name}-{case[0]}")
            for name, cs in CASES.items() if name in JVP for i, case in enumerate(cs)]


def forward_and_reverse(name, i, seed=0):
    _, make, f = CASES[name][i]
    rng = np.random.default_rng(seed)
    inputs = make(rng)
    diff = [k for k, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]
    vs = {k: torch.tensor(rng.standard_normal(inputs[k].shape), dtype=inputs[k].dtype) for k in diff}
    out = f(*inputs)
    expected = np.zeros(out.shape)
    flat = out.reshape(-1)
    for j in range(out.numel()):       # row j of the Jacobian, dotted with v
        grads = torch.autograd.grad(flat[j], [inputs[k] for k in diff], retain_graph=True, allow_unused=True)
        expected.reshape(-1)[j] = sum(float((g * vs[k]).sum()) for g, k in zip(grads, diff) if g is not None)
    with fwAD.dual_level():
        # the primals require grad: a case that differentiates inside (double backward) runs forward over reverse
        duals = [fwAD.make_dual(x.detach().requires_grad_(), vs[k]) if k in vs else x for k, x in enumerate(inputs)]
        y = f(*duals)
        tangent = fwAD.unpack_dual(y).tangent
    return out, expected, tangent


@pytest.mark.parametrize("name, i", cases())
def test_the_tangent_is_the_jacobian_times_the_tangents(name, i):
    out, expected, tangent = forward_and_reverse(name, i)
    if (name, CASES[name][i][0]) in AS_PYTORCH:      # a linear op: the tangent is the op applied to the tangent
        _, make, f = CASES[name][i]
        rng = np.random.default_rng(0)
        inputs = make(rng)
        expected = f(*[torch.tensor(rng.standard_normal(x.shape)) if x.requires_grad else x for x in inputs])
        expected = expected.detach().numpy()
    assert tangent is not None and tangent.shape == out.shape
    np.testing.assert_allclose(tangent.detach().numpy(), expected, rtol=1e-7, atol=1e-9)


def test_every_op_has_a_forward_rule_or_is_known_not_to():
    missing = sorted(set(op_classes()) - set(JVP) - WITHOUT_RULE
                     - {"NoDerivative", "NotImplemented", "FloorDivide", "FloorDivideScalar", "RemainderScalarSelf",
                        "HardsigmoidBackwardNoDerivative"})
    assert missing == []
    assert not WITHOUT_RULE & set(JVP)


@pytest.mark.parametrize("name", sorted(WITHOUT_RULE & set(CASES)))
def test_an_op_without_a_rule_raises_pytorchs_error(name):
    _, make, f = CASES[name][0]
    inputs = make(np.random.default_rng(0))
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x.detach().requires_grad_(), torch.ones_like(x))
                 if isinstance(x, torch.Tensor) and x.requires_grad
                 else x for x in inputs]
        aten = getattr(op_classes()[name], "aten_name", None) or dual.aten_name(name)     # asinh_: its own name
        with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with {aten} that "
                                                      "does not support it because it has not been implemented yet.\n"
                                                      "Please file an issue to PyTorch"):
            f(*duals)
