"""Every op's second derivative against finite differences (gradgradcheck).

With create_graph=True each node's backward runs as its docstring rule on
Tensors, recorded; gradgradcheck differentiates that recorded backward and
compares it with central differences of the gradients, in float64. The ops
and their cases are the ones of test_derivative_formulas.py (found in
autograd_teach/ops, not listed by hand), with a few inputs moved off the
places where the derivative jumps (ties, |x| at 0) and the float32 cases left
to a test of their own (finite differences need float64).

The last tests prove that gradgradcheck can fail, and show the classics:
d2/dx2 x**3 = 6x, a Hessian-vector product, hessian of a known function.
"""
import warnings

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import GradcheckError, gradgradcheck
from autograd_teach.autograd.functional import hessian, jacobian
from test_derivative_formulas import CASES, NO_DERIVATIVE, NOT_DIFFERENTIABLE, Recorder, op_classes, t
import test_gradcheck

from autograd_teach.core import engine
from autograd_teach import ops


def no_ties(*shape, rng):
    """float64 values at least 0.1 apart and from 0: max/min and abs are smooth there."""
    n = int(np.prod(shape))
    v = (np.arange(n) - n / 2 + 0.5) * 0.3 + 0.05
    return torch.tensor(rng.permutation(v).reshape(shape), dtype=torch.float64, requires_grad=True)


# Cases replaced here: finite differences straddle a jump of the derivative,
# or the case is not float64 (checked in test_a_cast_inside_a_double_backward).
OVERRIDES = {
    "MaxBackward1": [("all", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.max())],
    "MinBackward1": [("all", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.min())],
    "AbsBackward0": [("away from 0", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.abs())],
    "AmaxBackward0": [("dim", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.amax(1))],
    "MedianBackward0": [("all", lambda r: [no_ties(3, 3, rng=r)], lambda x: x.median())],
    "MedianBackward1": [("dim", lambda r: [no_ties(3, 4, rng=r)], lambda x: x.median(1).values)],
    "KthvalueBackward0": [("keepdim", lambda r: [no_ties(3, 4, rng=r)], lambda x: x.kthvalue(2, 0, keepdim=True).values)],
    "AminBackward0": [("all", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.amin())],
    "SortBackward0": [("sort", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.sort(1, descending=True).values)],
    "TopkBackward0": [("topk", lambda r: [no_ties(2, 3, rng=r)], lambda x: x.topk(2, 0, largest=False).values)],
    "ToCopyBackward0": [],
    "MaximumBackward0": [("no ties", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, y: x.maximum(y))],
    "MinimumBackward0": [("no ties", lambda r: [t(3, 4, rng=r), t(4, rng=r)], lambda x, y: x.minimum(y))],
    # no derivative at all (test_derivative_formulas.py checks that backward raises PyTorch's error)
    **{name: [] for name in NOT_DIFFERENTIABLE},
    # its backward has no derivative in PyTorch (HardsigmoidBackwardNoDerivative raises; tested there)
    "HardsigmoidBackward0": [],
    # no derivative in PyTorch (tests/test_d2l_more_ops.py checks its error)
    **{name: [] for name in NO_DERIVATIVE},
}
FLOAT32_CASES = {("MulBackward0", "float32 * float64")}


def gg_cases():
    out = []
    for name in sorted(op_classes()):
        for case in OVERRIDES.get(name, CASES[name]):
            if (name, case[0]) not in FLOAT32_CASES:
                out.append(pytest.param(name, case, id=f"{name}-{case[0]}"))
    return out


def seeded(f):
    """The random in-place ops (uniform_, normal_) draw the same values each call."""
    def g(*args):
        torch.manual_seed(0)
        return f(*args)
    return g


def nodes_built(f, inputs):
    """The node classes in the graph of f, and of its create_graph backward."""
    out = f(*inputs)
    seen, stack = set(), [out.grad_fn]
    grads = torch.autograd.grad(out, [x for x in inputs if x.requires_grad],
                                torch.ones_like(out).requires_grad_(), create_graph=True, allow_unused=True)
    stack += [g.grad_fn for g in grads if g is not None]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack += [n for n, _ in node.next_functions]
    return {type(n).__name__ for n in seen}


@pytest.mark.parametrize("name,case", gg_cases())
def test_second_derivative_matches_finite_differences(name, case):
    _, make, f = case
    inputs = make(np.random.default_rng(0))
    assert name in nodes_built(seeded(f), inputs), f"the case does not reach a {name} node"
    assert gradgradcheck(seeded(f), inputs)


# test_gradcheck.py's cases through float32 and back: finite differences of a
# float32 gradient are noise at eps=1e-6 (test_a_cast_inside_a_double_backward covers the cast).
THROUGH_FLOAT32 = {"to_float32_and_back", "float_double"}


@pytest.mark.parametrize("case", [c for c in test_gradcheck.CASES if c[0] not in THROUGH_FLOAT32],
                         ids=[c[0] for c in test_gradcheck.CASES if c[0] not in THROUGH_FLOAT32])
def test_second_derivatives_of_every_gradcheck_case(case):
    """The same functions as test_gradcheck.py (matmul shapes, setitem with
    masks and steps, in-place ops on views, losses...), differentiated twice."""
    _, f, make = case[:3]
    kw = case[3] if len(case) > 3 else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # x.T on 3-D, mse_loss size warnings: as test_gradcheck.py
        assert gradgradcheck(seeded(f), make(), **kw)


def test_the_float32_cases_exist():
    assert THROUGH_FLOAT32 <= {c[0] for c in test_gradcheck.CASES}


def test_every_op_is_gradgradchecked():
    checked = {p.values[0] for p in gg_cases()}
    no_second = {"HardsigmoidBackward0"} | set(NO_DERIVATIVE)    # PyTorch: its backward has no derivative, nor has unique
    assert checked == set(op_classes()) - {"ToCopyBackward0"} - set(NOT_DIFFERENTIABLE) - no_second


def d2l_mlp(seed=0):
    """d2l's MLP (Linear, ReLU, Linear) with a cross-entropy loss, in float64."""
    torch.manual_seed(seed)
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)).double()
    x = torch.randn(5, 4, dtype=torch.float64)
    y = torch.tensor([0, 2, 1, 1, 0])
    return net, x, y


def test_a_d2l_mlps_loss_differentiated_twice():
    """The gradient of the loss w.r.t. the weights, then the gradient of its
    squared norm (a gradient penalty): every node of both passes is recorded,
    and the second derivative matches finite differences."""
    net, x, y = d2l_mlp()
    params = list(net.parameters())
    loss = torch.nn.functional.cross_entropy(net(x), y)
    grads = torch.autograd.grad(loss, params, create_graph=True)
    assert all(g.requires_grad and g.grad_fn is not None for g in grads)
    penalty = sum((g * g).sum() for g in grads)
    second = torch.autograd.grad(penalty, params)
    assert all(s.shape == p.shape for s, p in zip(second, params))
    assert any(float(s.abs().sum()) > 0 for s in second)

    def loss_of(*ps):
        out = x
        out = torch.nn.functional.linear(out, ps[0], ps[1]).relu()
        return torch.nn.functional.cross_entropy(torch.nn.functional.linear(out, ps[2], ps[3]), y)
    leaves = [p.detach().clone().requires_grad_() for p in params]
    assert gradgradcheck(loss_of, leaves)


def test_the_nn_ops_twice():
    """log_softmax, softmax, nll_loss, leaky_relu, cat, var: a Hessian against finite differences."""
    x = torch.tensor(np.random.default_rng(1).standard_normal((3, 4)), requires_grad=True)

    def f(x):
        a = torch.cat([x.softmax(1), torch.nn.functional.leaky_relu(x, 0.2)], dim=0)
        return torch.nn.functional.nll_loss(a.log_softmax(1), torch.tensor([0, 1, 3, 2, 0, 1])) + x.var()
    assert gradgradcheck(f, [x])


def test_a_cast_inside_a_double_backward():
    """ToCopyBackward0 (float32 inside a float64 function): d2/dx2 of x.float()**3 is 6x, to float32 precision."""
    x = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((x.float() ** 3).sum(), x, create_graph=True)
    assert g.dtype == torch.float64 and type(g.grad_fn).__name__ == "ToCopyBackward0"
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), 6 * x.detach().numpy(), rtol=1e-6)


# -- the check can fail -----------------------------------------------------------
class WrongSecondDerivative(ops.SinBackward0):
    """out = self.sin()

    self: grad * self.detach().cos()

    The right value, but cut off from self: a recorded backward whose own
    derivative w.r.t. self is missing (the second derivative -sin).
    """


def test_a_wrong_rule_fails_gradgradcheck():
    x = no_ties(4, rng=np.random.default_rng(1))
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradgradcheck(lambda a: WrongSecondDerivative.apply(a), (x,))
    assert gradgradcheck(lambda a: WrongSecondDerivative.apply(a), (x,), raise_exception=False) is False
    assert gradgradcheck(lambda a: a.sin(), (x,))


def test_an_output_that_moves_without_grad_fails():
    x = no_ties(3, rng=np.random.default_rng(2))
    with pytest.raises(GradcheckError, match="expected to be zero"):
        torch.autograd.gradcheck(lambda a: torch.tensor(a.detach().numpy() * 2), (x,))


# -- the classics --------------------------------------------------------------------
def test_second_derivative_of_x_cubed():
    x = torch.tensor(3.0, requires_grad=True)
    (dy,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    (d2y,) = torch.autograd.grad(dy, x)
    assert dy.item() == 27.0 and d2y.item() == 18.0
    assert dy.requires_grad and not d2y.requires_grad


def test_hessian_vector_product_equals_hessian_times_v():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 4))
    x = torch.tensor(rng.standard_normal(4), dtype=torch.float64, requires_grad=True)
    v = torch.tensor(rng.standard_normal(4), dtype=torch.float64)
    A = torch.tensor(a)

    def f(x):
        return (x @ A @ x) + (x ** 3).sum()

    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad(g, x, v)             # grad of (g . v)
    hess = a + a.T + np.diag(6 * x.detach().numpy())
    np.testing.assert_allclose(hv.numpy(), hess @ v.numpy(), rtol=1e-12)
    np.testing.assert_allclose(hessian(f, x.detach()).numpy(), hess, rtol=1e-12)


def test_jacobian_of_a_known_function():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    jac = jacobian(lambda a: a.exp() * a.sum(), x)
    e = np.exp(x.numpy())
    np.testing.assert_allclose(jac.numpy(), np.diag(e) * x.numpy().sum() + e[:, None], rtol=1e-12)


def test_backward_create_graph_accumulates_with_history():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    with pytest.warns(UserWarning, match="reference cycle"):
        y.backward(create_graph=True)
    first = x.grad
    assert type(first.grad_fn).__name__ == "CopyBackwards" and first.tolist() == [3.0, 12.0]
    with pytest.warns(UserWarning):
        y.backward(create_graph=True)                 # retain_graph defaults to create_graph
    assert type(x.grad.grad_fn).__name__ == "AddBackward0" and x.grad.tolist() == [6.0, 24.0]
    assert first.tolist() == [3.0, 12.0]              # added out of place: the old .grad is untouched
    (h,) = torch.autograd.grad(x.grad.sum(), x)
    assert h.tolist() == [12.0, 24.0]


def test_without_create_graph_the_gradient_is_a_constant():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad((x ** 3).sum(), x)
    assert g.grad_fn is None and not g.requires_grad
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        torch.autograd.grad(g.sum(), x)


def test_observers_see_arrays_under_create_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    rec = Recorder()
    handle = engine.add_observer(rec.begin)
    try:
        torch.autograd.grad((x * x).sum(), x, create_graph=True)
    finally:
        handle.remove()
    assert rec.steps and all(isinstance(g, np.ndarray) for _, g, _ in rec.steps)
    assert all(g is None or isinstance(g, np.ndarray) for _, _, gs in rec.steps for g in gs)


def test_hooks_see_tensors_with_history():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    seen = []
    y.register_hook(lambda g: seen.append(g) or g * 2)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [4.0, 8.0] and g.requires_grad
    (h,) = torch.autograd.grad(g.sum(), x)
    assert h.tolist() == [4.0, 4.0] and len(seen) == 1


def test_custom_function_backward_is_recorded():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 3

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * 3 * a ** 2

    x = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    assert g.tolist() == [3.0, 12.0] and h.tolist() == [6.0, -12.0]
    assert gradgradcheck(Cube.apply, (x,))


def test_freed_graph_is_refused_on_the_second_pass():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp()).sum()
    torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        torch.autograd.grad(y, x, create_graph=True)


def test_vector_products_equal_finite_differences_in_float64():
    """jvp and hvp (double-backward trick), vjp and vhp (backward) against
    central differences of the function and of its gradient."""
    import autograd_teach as torch
    from autograd_teach.autograd.functional import hvp, jvp, vhp, vjp
    rng = np.random.default_rng(7)
    x = torch.tensor(rng.standard_normal(4), dtype=torch.float64)
    v = torch.tensor(rng.standard_normal(4), dtype=torch.float64)
    u = torch.tensor(rng.standard_normal(3), dtype=torch.float64)
    a = torch.tensor(rng.standard_normal((3, 4)), dtype=torch.float64)

    def f(t):                          # R^4 -> R^3, not linear
        return (a @ t).tanh() * t[:3].exp()

    def scalar(t):
        return (t.sin() * t ** 2).sum() + (t[0] * t[1:]).sum()

    def grad_of(t):
        t = t.detach().requires_grad_()
        return torch.autograd.grad(scalar(t), t)[0]

    eps = 1e-6
    num_jv = (f(x + eps * v) - f(x - eps * v)) / (2 * eps)
    num_hv = (grad_of(x + eps * v) - grad_of(x - eps * v)) / (2 * eps)
    jac = np.stack([((f(x + eps * e) - f(x - eps * e)) / (2 * eps)).numpy()
                    for e in torch.eye(4, dtype=torch.float64)], axis=1)
    assert np.allclose(jvp(f, x, v)[1].numpy(), num_jv.numpy(), atol=1e-7)
    assert np.allclose(vjp(f, x, u)[1].numpy(), u.numpy() @ jac, atol=1e-7)
    assert np.allclose(hvp(scalar, x, v)[1].numpy(), num_hv.numpy(), atol=1e-6)
    assert np.allclose(vhp(scalar, x, v)[1].numpy(), num_hv.numpy(), atol=1e-6)
    assert not x.requires_grad and jvp(f, x, v)[1].grad_fn is None    # inputs untouched, results detached
