"""as_strided_backward, the helper AsStridedBackward0's rule calls (the backward
of a view re-derived after an in-place op on it): grad put back where the view
reads its base, as Tensor ops, so create_graph=True differentiates it."""
import numpy as np

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck
from autograd_teach.ops.as_strided import as_strided_backward
from autograd_teach.core.ops.shape import ExpandBackward0, TBackward0

T = [(TBackward0, ())]                     # x.t()
EXPAND = [(ExpandBackward0, ((2, 3),))]    # a (3,) base read twice


def test_the_gradient_lands_where_the_view_reads():
    g = torch.tensor(np.arange(6.0).reshape(3, 2))
    got = as_strided_backward(g, (2, 3), T)
    np.testing.assert_array_equal(got.numpy(), np.arange(6.0).reshape(3, 2).T)


def test_positions_read_twice_add_up():
    g = torch.tensor([[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]])
    np.testing.assert_array_equal(as_strided_backward(g, (3,), EXPAND).numpy(), [11.0, 22.0, 33.0])


def test_it_is_differentiable_in_grad():
    g = torch.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda g: as_strided_backward(g, (3,), EXPAND), (g,))
    assert gradgradcheck(lambda g: as_strided_backward(g, (3,), EXPAND) ** 2, (g,))
    w = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    (as_strided_backward(g, (3,), EXPAND) * w).sum().backward()
    np.testing.assert_array_equal(g.grad.numpy(), [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])


def test_the_engine_runs_it_under_create_graph():
    x = torch.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=torch.float64, requires_grad=True)
    y = x * 1
    v = y.t()
    v.mul_(2)                                      # v is re-derived from y: AsStridedBackward0
    assert v.grad_fn.name() == "AsStridedBackward0"
    (gx,) = torch.autograd.grad((v ** 3).sum(), x, create_graph=True)
    np.testing.assert_allclose(gx.detach().numpy(), 3 * (2 * x.detach().numpy()) ** 2 * 2)
    (ggx,) = torch.autograd.grad(gx.sum(), x)      # d/dx of 24 x^2 summed: 48 x
    np.testing.assert_allclose(ggx.numpy(), 48 * x.detach().numpy())
