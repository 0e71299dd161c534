"""torch.einsum: gradients checked numerically (first and second order) over
the equations learners write, against a plain numpy einsum for values, and
through forward mode."""
import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.autograd.forward_ad as fwAD
from autograd_teach.autograd import gradcheck, gradgradcheck

CASES = [("ij,jk->ik", (2, 3), (3, 4)), ("ij->ji", (2, 3)), ("ii->i", (3, 3)), ("ii", (3, 3)), ("i,i->", (3,), (3,)),
         ("i,j->ij", (2,), (3,)), ("bij,bjk->bik", (2, 2, 3), (2, 3, 4)), ("...ij,...jk->...ik", (5, 2, 3), (3, 4)),
         ("ij->j", (2, 3)), ("ij,kj->ik", (2, 3), (4, 3)), ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)),
         ("iij->j", (2, 2, 3)), ("ijk,ik->j", (2, 3, 4), (2, 4)), ("i,i,i->i", (3,), (3,), (3,)),
         ("ij,j", (2, 3), (3,)), ("ik,kj->ij", (3, 1), (1, 4)), ("ab,ab->", (1, 3), (2, 3)), ("ij,ij,ij->", (2, 2), (2, 2), (2, 2))]


def operands(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [torch.tensor(rng.standard_normal(s), dtype=torch.float64, requires_grad=True) for s in shapes]


@pytest.mark.parametrize("eq, shapes", [(c[0], c[1:]) for c in CASES], ids=[c[0] for c in CASES])
def test_values_gradients_and_second_derivatives(eq, shapes):
    ops = operands(shapes)
    if eq != "ab,ab->":      # numpy does not broadcast a label of size 1
        np.testing.assert_allclose(torch.einsum(eq, *ops).detach().numpy(),
                                   np.einsum(eq, *[o.detach().numpy() for o in ops]), rtol=1e-12, atol=1e-12)
    f = lambda *xs: torch.einsum(eq, *xs)  # noqa: E731
    assert gradcheck(f, ops)
    assert gradgradcheck(f, ops)


def test_one_tensor_in_several_places():
    x = operands([(3, 3)])[0]
    assert gradcheck(lambda t: torch.einsum("ij,jk,ki->", t, t, t), (x,))
    assert gradgradcheck(lambda t: torch.einsum("ij,ji->", t, t), (x,))


def test_forward_mode_through_einsum():
    a, b = operands([(2, 3), (3, 4)])
    va, vb = operands([(2, 3), (3, 4)], seed=1)
    with fwAD.dual_level():
        out = torch.einsum("ij,jk->ik", fwAD.make_dual(a.detach(), va.detach()), fwAD.make_dual(b.detach(), vb.detach()))
        t = fwAD.unpack_dual(out).tangent
    assert torch.allclose(t, (va @ b + a @ vb).detach())


def test_empty_operands():
    out = torch.einsum("ij,jk->ik", torch.ones(0, 3, requires_grad=True), torch.ones(3, 2))
    assert out.shape == (0, 2)
    out.sum().backward()


@pytest.mark.parametrize("eq, shapes, message", [
    ("ij,jk", [(2, 3)], "fewer operands were provided than specified in the equation"),
    ("ij", [(2, 3), (3,)], "more operands were provided than specified in the equation"),
    ("ijk", [(2, 3)], r"the number of subscripts in the equation \(3\) does not match the number of dimensions \(2\)"),
    ("i->ii", [(3,)], "output subscript i appears more than once in the output"),
    ("ii", [(2, 3)], "subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
])
def test_errors(eq, shapes, message):
    with pytest.raises(RuntimeError, match="^einsum\\(\\): " + message):
        torch.einsum(eq, *operands(shapes))
