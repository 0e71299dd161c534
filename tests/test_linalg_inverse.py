"""torch.linalg det, inv, solve, cholesky: gradients in float64 (first and
second order), a singular matrix's det gradient (the adjugate), forward mode."""
import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.autograd.forward_ad as fwAD
from autograd_teach.autograd import gradcheck, gradgradcheck


def rnd(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=torch.float64, requires_grad=True)


def well(a):
    return a + 3 * torch.eye(a.shape[-1], dtype=torch.float64)


@pytest.mark.parametrize("f, shapes", [
    (lambda a: torch.linalg.det(a), [(3, 3)]),
    (lambda a: torch.linalg.inv(well(a)), [(2, 3, 3)]),
    (lambda a, b: torch.linalg.solve(well(a), b), [(3, 3), (3, 2)]),
    (lambda a, b: torch.linalg.solve(well(a), b), [(2, 3, 3), (2, 3)]),
    (lambda a: torch.linalg.cholesky(a @ a.mT + 3 * torch.eye(3, dtype=torch.float64)), [(3, 3)]),
    (lambda a: torch.linalg.cholesky(a @ a.mT + 3 * torch.eye(3, dtype=torch.float64), upper=True), [(3, 3)]),
    (lambda a: torch.linalg.inv(well(a)) @ well(a), [(3, 3)]),            # a shared input
], ids=["det", "inv batch", "solve", "solve vectors", "cholesky", "cholesky upper", "inv times itself"])
def test_gradcheck_and_gradgradcheck(f, shapes):
    xs = [rnd(*s, seed=k) for k, s in enumerate(shapes)]
    assert gradcheck(f, xs)
    assert gradgradcheck(f, xs)


def test_the_gradient_of_a_singular_determinant_is_pytorchs():
    """The derivative there is the adjugate (finite differences agree). PyTorch's
    backward gives 0 where det A is exactly 0 (its LU solve of a zero right
    side), and the adjugate with create_graph=True; so does this package (the
    golden linalg_decompositions prints both)."""
    s = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64, requires_grad=True)
    assert np.array_equal(torch.autograd.grad(torch.linalg.det(s), s)[0].numpy(), np.zeros((2, 2)))
    g, = torch.autograd.grad(torch.linalg.det(s), s, create_graph=True)
    assert np.allclose(g.detach().numpy(), [[4.0, -2.0], [-2.0, 1.0]])
    assert gradcheck(lambda a: torch.autograd.grad(torch.linalg.det(a), a, create_graph=True)[0].sum(), (s,))
    batch = torch.stack([s.detach(), s.detach() + torch.eye(2, dtype=torch.float64)]).requires_grad_()
    g, = torch.autograd.grad(torch.linalg.det(batch).sum(), batch, create_graph=True)   # one singular, one not
    assert np.allclose(g.detach().numpy(), [[[4.0, -2.0], [-2.0, 1.0]], [[5.0, -2.0], [-2.0, 2.0]]])
    assert np.array_equal(torch.autograd.grad(torch.linalg.det(batch).sum(), batch)[0].numpy()[0], np.zeros((2, 2)))


def test_forward_mode_at_a_singular_matrix_gives_zero_as_pytorch():
    s = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    with fwAD.dual_level():
        t = fwAD.unpack_dual(torch.linalg.det(fwAD.make_dual(s, torch.ones(2, 2, dtype=torch.float64)))).tangent
    assert t.item() == 0


def test_inverse_of_a_singular_matrix_is_refused():
    with pytest.raises(torch.linalg.LinAlgError, match="the input matrix is singular"):
        torch.linalg.inv(torch.zeros(2, 2))


def test_forward_mode_agrees_with_reverse_mode():
    a, v = rnd(3, 3), rnd(3, 3, seed=1).detach()
    with fwAD.dual_level():
        t = fwAD.unpack_dual(torch.linalg.det(fwAD.make_dual(a.detach(), v))).tangent
    g, = torch.autograd.grad(torch.linalg.det(a), a)
    assert np.isclose(t.item(), (g * v).sum().item())
