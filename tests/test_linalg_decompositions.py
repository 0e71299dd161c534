"""torch.linalg eigh, svd, slogdet, pinv (ops/linalg_decompositions.py):
gradients in float64 against finite differences (first and second order,
batched too), forward mode against J·v, and the places off the happy path:
repeated eigenvalues, singular and empty matrices, NaN, float32, outputs
modified in place, graphs freed, hooks on one output. The values and errors
are compared with PyTorch's by the golden linalg_decompositions."""
import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.autograd.forward_ad as fwAD
from autograd_teach.autograd import gradcheck, gradgradcheck


def rnd(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=torch.float64, requires_grad=True)


def sym(a):
    return a + a.mT


def eigh_loss(a):
    """Depends on the eigenvectors only through their squares: blind to their signs."""
    L, Q = torch.linalg.eigh(sym(a))
    return (Q.pow(2) * torch.arange(1.0, a.shape[-1] + 1, dtype=torch.float64)).sum(-1) + L.pow(3)


def svd_loss(a, full_matrices=False):
    U, S, Vh = torch.linalg.svd(a, full_matrices=full_matrices)
    k = S.shape[-1]
    return (U[..., :k] * S.unsqueeze(-2)).matmul(Vh[..., :k, :]).pow(3) + U[..., :k].pow(2).sum(-1, keepdim=True)


# (name, function, input shapes): random inputs have distinct eigenvalues and singular values
CASES = [
    ("eigh", eigh_loss, [(3, 3)]),
    ("eigh batch", eigh_loss, [(2, 4, 4)]),
    ("eigh upper", lambda a: torch.linalg.eigh(sym(a), UPLO="U").eigenvectors.pow(2), [(3, 3)]),
    ("eigvalsh batch", lambda a: torch.linalg.eigvalsh(sym(a)).exp(), [(2, 3, 3)]),
    ("svd square", svd_loss, [(3, 3)]),
    ("svd tall", svd_loss, [(4, 2)]),
    ("svd wide batch", svd_loss, [(2, 2, 4)]),
    ("svd tall full_matrices", lambda a: svd_loss(a, True), [(4, 3)]),
    ("svd wide full_matrices", lambda a: svd_loss(a, True), [(2, 3)]),
    ("svd only U", lambda a: torch.linalg.svd(a, full_matrices=False).U.pow(2), [(4, 3)]),
    ("svd only Vh", lambda a: torch.linalg.svd(a, full_matrices=False).Vh.pow(2), [(3, 4)]),
    ("svdvals batch", lambda a: torch.linalg.svdvals(a), [(2, 3, 2)]),
    ("torch.svd", lambda a: (lambda r: r.U.pow(2).sum() + r.V.pow(4).sum() + r.S.sum())(torch.svd(a)), [(3, 2)]),
    ("slogdet", lambda a: torch.linalg.slogdet(a).logabsdet, [(3, 3)]),
    ("slogdet batch", lambda a: torch.linalg.slogdet(a).logabsdet * 2, [(2, 3, 3)]),
    ("logdet", lambda a: torch.logdet(a.matmul(a.mT) + torch.eye(3, dtype=torch.float64)), [(3, 3)]),
    ("det", lambda a: torch.linalg.det(a), [(2, 3, 3)]),
    ("pinv square", lambda a: torch.linalg.pinv(a), [(3, 3)]),
    ("pinv tall", lambda a: torch.linalg.pinv(a), [(4, 2)]),
    ("pinv wide batch", lambda a: torch.pinverse(a), [(2, 2, 3)]),
    ("pinv hermitian", lambda a: torch.linalg.pinv(sym(a) + 6 * torch.eye(3, dtype=torch.float64), hermitian=True),
     [(3, 3)]),
    ("matrix_norm 2", lambda a: torch.linalg.matrix_norm(a, ord=2), [(3, 4)]),
    ("matrix_norm -2, batch", lambda a: torch.linalg.matrix_norm(a, ord=-2), [(2, 3, 3)]),
    ("matrix_norm nuc, dims", lambda a: torch.linalg.matrix_norm(a, ord="nuc", dim=(2, 0), keepdim=True), [(3, 2, 4)]),
    ("matrix_norm 1 and inf", lambda a: torch.linalg.norm(a, 1) + torch.linalg.norm(a, float("inf")), [(3, 4)]),
    ("two decompositions of one input", lambda a: torch.linalg.svdvals(a) + torch.linalg.eigvalsh(sym(a)), [(3, 3)]),
]


@pytest.mark.parametrize("f, shapes", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_gradcheck_and_gradgradcheck(f, shapes):
    xs = [rnd(*s, seed=k) for k, s in enumerate(shapes)]
    assert gradcheck(f, xs)
    assert gradgradcheck(f, xs)


@pytest.mark.parametrize("f, shapes", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_forward_mode_is_the_jacobian_times_the_tangent(f, shapes):
    a = rnd(*shapes[0])
    v = rnd(*shapes[0], seed=7).detach()
    out = f(a)
    J = np.stack([torch.autograd.grad(o, a, retain_graph=True)[0].numpy().ravel() for o in out.reshape(-1)])
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(f(fwAD.make_dual(a.detach(), v))).tangent
    np.testing.assert_allclose(tangent.numpy().ravel(), J @ v.numpy().ravel(), rtol=1e-7, atol=1e-9)


def test_one_node_for_all_outputs():
    a = sym(rnd(3, 3))
    L, Q = torch.linalg.eigh(a)
    assert L.grad_fn is Q.grad_fn and L.grad_fn.name() == "LinalgEighBackward0" and (L.output_nr, Q.output_nr) == (0, 1)
    assert L.grad_fn.next_functions == ((a.grad_fn, 0),)
    U, S, Vh = torch.linalg.svd(a)
    assert U.grad_fn is S.grad_fn is Vh.grad_fn and U.grad_fn._saved_full_matrices is True
    assert U.grad_fn._saved_S_sym_argsize_minus_1 == 3
    assert np.array_equal(L.grad_fn._saved_eigenvalues.detach().numpy(), L.detach().numpy())
    sign, logabsdet = torch.linalg.slogdet(a)
    assert sign.grad_fn is logabsdet.grad_fn and sign.grad_fn._saved_A is a


def test_a_hook_on_one_output_sees_its_gradient_only():
    a = sym(rnd(3, 3))
    L, Q = torch.linalg.eigh(a)
    seen = []
    Q.register_hook(lambda g: seen.append(g))
    (L.sum() + 2 * Q.pow(2).sum()).backward()
    assert len(seen) == 1 and np.allclose(seen[0].numpy(), 4 * Q.detach().numpy())


def test_repeated_eigenvalues_give_pytorchs_nan_through_the_vectors_only():
    eye = torch.eye(3, dtype=torch.float64, requires_grad=True)
    L, Q = torch.linalg.eigh(eye)
    g, = torch.autograd.grad(L.sum(), eye, retain_graph=True)
    assert np.array_equal(g.numpy(), np.eye(3))              # the eigenvalues are differentiable there
    g, = torch.autograd.grad(Q.sum(), eye)
    assert np.isnan(g.numpy()).all()                         # the vectors are not (0 / 0), as in PyTorch


def test_a_non_symmetric_input_gets_the_symmetric_gradient_as_in_pytorch():
    """eigh reads one triangle, so finite differences see only that one; PyTorch's
    gradient (and this one) is the symmetric matrix's: V diag(gL) Vᵀ."""
    a = rnd(3, 3)
    g, = torch.autograd.grad(torch.linalg.eigvalsh(a)[2], a)
    L, Q = np.linalg.eigh(a.detach().numpy())
    assert np.allclose(g.numpy(), np.outer(Q[:, 2], Q[:, 2]))


def test_repeated_singular_values():
    a = torch.tensor([[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.linalg.svdvals(a).sum(), a, retain_graph=True)
    assert np.isfinite(g.numpy()).all()
    U, S, Vh = torch.linalg.svd(a, full_matrices=False)
    assert not np.isfinite(torch.autograd.grad((U @ Vh).pow(3).sum(), a)[0].numpy()).all()


def test_a_gradient_that_reaches_only_the_sign_gives_none():
    a = rnd(3, 3)
    sign, _ = torch.linalg.slogdet(a)
    assert torch.autograd.grad(sign, a, allow_unused=True) == (None,)


def test_singular_slogdet_is_not_differentiable_and_create_graph_refuses():
    s = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64, requires_grad=True)
    sign, logabsdet = torch.linalg.slogdet(s)
    assert sign.item() == 0 and logabsdet.item() == -np.inf
    assert not np.isfinite(torch.autograd.grad(logabsdet, s, retain_graph=True)[0].numpy()).all()
    with pytest.raises(torch.linalg.LinAlgError, match="the input matrix is singular"):
        torch.autograd.grad(logabsdet, s, create_graph=True)


def test_pinv_of_a_rank_deficient_matrix():
    r = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    assert np.allclose(torch.linalg.pinv(r).numpy(), r.numpy().T / 25)
    assert np.allclose(torch.linalg.pinv(r, hermitian=True).numpy(), r.numpy().T / 25)
    assert np.array_equal(torch.linalg.pinv(r, atol=100.0).numpy(), np.zeros((2, 2)))


def test_float32_in_float32_out():
    a = sym(rnd(3, 3)).float()
    assert {t.dtype for t in torch.linalg.eigh(a)} == {torch.float32}
    assert {t.dtype for t in torch.linalg.svd(a)} == {torch.float32}
    assert {t.dtype for t in torch.linalg.slogdet(a)} == {torch.float32}
    assert torch.linalg.pinv(a).dtype == torch.float32 and torch.logdet(a @ a.mT).dtype == torch.float32
    a = a.detach().requires_grad_()
    assert torch.autograd.grad(torch.linalg.svdvals(a).sum(), a)[0].dtype == torch.float32


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3), (3, 0), (0, 3), (1, 1)])
def test_empty_and_one_by_one_matrices_differentiate(shape):
    a = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    U, S, Vh = torch.linalg.svd(a)
    assert torch.autograd.grad(S.sum() + U.sum() + Vh.sum(), a)[0].shape == a.shape
    assert torch.autograd.grad(torch.linalg.pinv(a).sum(), a)[0].shape == a.shape
    if shape[-1] == shape[-2]:
        L, Q = torch.linalg.eigh(a)
        assert torch.autograd.grad(L.sum() + Q.sum(), a)[0].shape == a.shape


def test_nan():
    a = torch.tensor([[float("nan"), 0.0], [0.0, 1.0]])
    assert np.isnan(torch.linalg.eigh(a).eigenvalues.numpy()[0])           # PyTorch: no error
    sign, logabsdet = torch.linalg.slogdet(a)
    assert sign.item() == 0 and np.isnan(logabsdet.item())
    with pytest.raises(torch.linalg.LinAlgError, match="non-finite values"):
        torch.linalg.svd(a)


def test_an_output_modified_in_place_is_refused_in_backward():
    a = sym(rnd(3, 3))
    L, Q = torch.linalg.eigh(a)
    loss = Q.pow(2).sum()
    L.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_a_second_backward_through_a_freed_node_raises():
    a = rnd(3, 2)
    S = torch.linalg.svdvals(a)
    S.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        S.sum().backward()


def test_no_graph_without_grad():
    a = rnd(3, 3)
    with torch.no_grad():
        assert all(t.grad_fn is None and not t.requires_grad for t in (*torch.linalg.svd(a), torch.linalg.pinv(a)))
    assert all(t.grad_fn is None for t in torch.linalg.eigh(a.detach()))


def test_legacy_svd():
    a = rnd(3, 2)
    U, S, V = torch.svd(a)
    assert (U.shape, V.shape) == ((3, 2), (2, 2)) and V.grad_fn.name() == "TransposeBackward0"
    assert np.allclose((U * S @ V.mT).detach().numpy(), a.detach().numpy())
    U, S, V = a.svd(some=False)
    assert (U.shape, V.shape) == ((3, 3), (2, 2))
    U, S, V = torch.svd(a, compute_uv=False)
    assert not U.any() and not V.any() and U.grad_fn is None and S.grad_fn.name() == "LinalgSvdBackward0"
