# torch.linalg eigh, svd, slogdet, pinv (and torch.svd, logdet, pinverse): values, nodes, gradients, errors.
# Eigen- and singular vectors are unique only up to sign, and LAPACK builds differ in the last bits: what is
# printed does not see the signs (reconstructions, gradients of losses that square the vectors), rounded.
import torch
import torch.autograd.forward_ad as fwAD


def show(t):
    return t.detach().round(decimals=4) + 0.0          # + 0.0: no -0. from a sign flip at 1e-17


A = torch.tensor([[2., 1., 0.], [1., 2., 0.], [0., 0., 5.]], dtype=torch.float64, requires_grad=True)
L, Q = torch.linalg.eigh(A)
print(type(torch.linalg.eigh(A)).__name__, show(L), L.grad_fn.name(), L.grad_fn is Q.grad_fn, L.output_nr, Q.output_nr)
print("reconstructs", bool(((Q * L) @ Q.mT - A).abs().max() < 1e-12), "orthonormal", bool((Q.mT @ Q - torch.eye(3)).abs().max() < 1e-12))
print(show(torch.autograd.grad((L ** 2).sum(), A, retain_graph=True)[0]))
print(show(torch.autograd.grad((Q ** 2 * torch.tensor([1., 2., 3.])).sum() + L[0], A)[0]))
print(torch.linalg.eigvalsh(A).grad_fn.name(), show(torch.linalg.eigvalsh(A, UPLO="U")))
g, = torch.autograd.grad((torch.linalg.eigvalsh(A) ** 3).sum(), A, create_graph=True)
print(show(g), show(torch.autograd.grad((g ** 2).sum(), A)[0]))
I = torch.eye(3, dtype=torch.float64, requires_grad=True)           # repeated eigenvalues
L1, Q1 = torch.linalg.eigh(I)
print(torch.autograd.grad(L1.sum(), I, retain_graph=True)[0], torch.autograd.grad(Q1.sum(), I)[0])
T = torch.tensor([[4., 1.], [7., 3.]], dtype=torch.float64, requires_grad=True)   # the upper triangle is not read
print(show(torch.linalg.eigvalsh(T)), show(torch.autograd.grad(torch.linalg.eigvalsh(T)[1], T)[0]))

M = torch.tensor([[3., 1.], [1., 3.], [0., 2.]], dtype=torch.float64, requires_grad=True)
for full in (True, False):
    U, S, Vh = torch.linalg.svd(M, full_matrices=full)
    print(type(torch.linalg.svd(M)).__name__, tuple(U.shape), show(S), tuple(Vh.shape), U.grad_fn.name(),
          S.output_nr, Vh.output_nr, U.grad_fn._saved_full_matrices)
    print("reconstructs", bool(((U[:, :2] * S) @ Vh - M).abs().max() < 1e-12))
    print(show(torch.autograd.grad(((U[:, :2] @ Vh) ** 3).sum() + (S ** 2).sum(), M)[0]))
print(show(torch.linalg.svdvals(M)), show(torch.autograd.grad(torch.linalg.svdvals(M)[0], M)[0]))
W = M.detach().mT.requires_grad_()                           # wide
U, S, Vh = torch.linalg.svd(W, full_matrices=False)
print(show(torch.autograd.grad(((U @ Vh[:, :2]) ** 2).sum() + (Vh ** 2 * torch.tensor([1., 2., 3.])).sum() + S[1], W)[0]))
r = torch.svd(M)
print(type(r).__name__, [tuple(x.shape) for x in r], r.V.grad_fn.name(), bool((r.U * r.S @ r.V.mT - M).abs().max() < 1e-12))
print([tuple(x.shape) for x in torch.svd(M, some=False)], M.svd(compute_uv=False))
g, = torch.autograd.grad((torch.linalg.svdvals(M) ** 3).sum(), M, create_graph=True)
print(show(g), show(torch.autograd.grad(g.sum(), M)[0]))

D = torch.tensor([[1., 2., 0.], [3., 1., 1.], [0., 1., 2.]], dtype=torch.float64, requires_grad=True)  # det < 0
s = torch.linalg.slogdet(D)
print(type(s).__name__, s.sign, show(s.logabsdet), s.sign.grad_fn.name(), torch.autograd.grad(s.logabsdet, D)[0])
print(torch.slogdet(D).sign, D.slogdet().logabsdet.grad_fn.name(), torch.logdet(D), torch.logdet(D).grad_fn.name())
print(torch.autograd.grad(torch.logdet(D), D)[0], torch.autograd.grad(torch.logdet(D @ D.mT), D)[0])
g, = torch.autograd.grad(torch.linalg.slogdet(D).logabsdet, D, create_graph=True)
print(g.grad_fn.name(), show(torch.autograd.grad(g[0, 1], D)[0]))
print(torch.autograd.grad(torch.linalg.slogdet(D).sign, D, allow_unused=True))

P = torch.linalg.pinv(M)
print(show(P), P.grad_fn.name(), bool((M @ P @ M - M).abs().max() < 1e-12), show(torch.autograd.grad((P ** 2).sum(), M)[0]))
print(show(torch.linalg.pinv(W)), show(torch.pinverse(M)), show(M.pinverse()))
H = torch.tensor([[2., 1.], [1., 3.]], dtype=torch.float64, requires_grad=True)
print(show(torch.linalg.pinv(H, hermitian=True)), show(torch.autograd.grad(torch.linalg.pinv(H, hermitian=True).sum(), H)[0]))
R = torch.tensor([[1., 2.], [2., 4.]], dtype=torch.float64)     # rank 1: pinv is Aᵀ / 25
print(show(torch.linalg.pinv(R)), show(torch.linalg.pinv(H, rtol=0.5)), show(torch.linalg.pinv(H, atol=2.5)),
      show(torch.linalg.pinv(H, 0.5)))

S3 = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]], dtype=torch.float64, requires_grad=True)   # singular, exactly
print(torch.linalg.slogdet(S3), torch.logdet(S3))
print(torch.autograd.grad(torch.linalg.slogdet(S3).logabsdet, S3)[0].isfinite().all())   # no derivative there: inf, nan
Z = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
for dtype in (torch.float32, torch.float64):
    Zd = Z.detach().to(dtype).requires_grad_()
    print(torch.autograd.grad(torch.linalg.det(Zd), Zd)[0] + 0.0)        # PyTorch: 0 (its LU solve of a zero right side)
    g, = torch.autograd.grad(torch.linalg.det(Zd), Zd, create_graph=True)  # with create_graph: the adjugate
    print(show(g), show(torch.autograd.grad(g.sum(), Zd)[0]))
    print(torch.autograd.grad(torch.linalg.det(S3.detach().to(dtype).requires_grad_()).sum() * 0 + torch.linalg.det(Zd), Zd)[0] + 0.0)

A32 = A.detach().float().requires_grad_()
L, Q = torch.linalg.eigh(A32)
print(L.dtype, Q.dtype, show(L), show(torch.autograd.grad((Q ** 2 * torch.tensor([1., 2., 3.])).sum(), A32)[0]).round(decimals=3))
U, S, Vh = torch.linalg.svd(M.detach().float())
print(U.dtype, S.dtype, show(S).round(decimals=3), torch.linalg.slogdet(D.detach().float()).logabsdet.dtype, torch.linalg.pinv(M.detach().float()).dtype)

B = torch.stack([A.detach(), 2 * A.detach()]).requires_grad_()        # a batch
L, Q = torch.linalg.eigh(B)
print(tuple(L.shape), show(L), show(torch.autograd.grad((Q ** 2 * torch.tensor([1., 2., 3.])).sum(), B)[0]))
print(tuple(torch.linalg.svd(B)[0].shape), show(torch.linalg.slogdet(B).logabsdet), tuple(torch.linalg.pinv(B[:, :2]).shape))

for shape in [(0, 0), (2, 0, 0), (0, 3, 3), (3, 0), (0, 3), (1, 1)]:
    E = torch.zeros(shape, requires_grad=True)
    outs = []
    for f in (torch.linalg.eigh, torch.linalg.svd, torch.linalg.slogdet, torch.linalg.pinv, torch.linalg.svdvals):
        try:
            r = f(E)
        except RuntimeError as e:
            outs.append(f"{type(e).__name__}: {e}")
            continue
        r = tuple(r) if isinstance(r, tuple) else (r,)
        loss = sum(x.sum() for x in r if x.isfinite().all())
        outs.append(([tuple(x.shape) for x in r], torch.autograd.grad(loss, E, allow_unused=True)[0]))
    print(shape, outs)
one = torch.tensor([[-2.]], dtype=torch.float64, requires_grad=True)
print(torch.linalg.eigh(one), torch.linalg.svd(one), torch.linalg.slogdet(one), torch.linalg.pinv(one))
print(torch.autograd.grad(torch.linalg.svd(one).U.sum() + torch.linalg.eigh(one).eigenvectors.sum(), one)[0])

with fwAD.dual_level():                                  # forward mode: a symmetric tangent for eigh
    t = torch.tensor([[1., 2., 0.], [2., 0., 1.], [0., 1., 3.]], dtype=torch.float64)
    L, Q = torch.linalg.eigh(fwAD.make_dual(A.detach(), t))
    print(show(fwAD.unpack_dual(L).tangent), show(fwAD.unpack_dual(Q ** 2).tangent))
    U, S, Vh = torch.linalg.svd(fwAD.make_dual(M.detach(), t[:, :2]), full_matrices=False)
    print(show(fwAD.unpack_dual(S).tangent), show(fwAD.unpack_dual(U @ Vh).tangent))
    s = torch.linalg.slogdet(fwAD.make_dual(D.detach(), t))
    print(fwAD.unpack_dual(s.sign).tangent, show(fwAD.unpack_dual(s.logabsdet).tangent))
    print(show(fwAD.unpack_dual(torch.linalg.pinv(fwAD.make_dual(M.detach(), t[:, :2]))).tangent))

N = torch.tensor([[1., -2., 3.], [4., 5., -6.]], dtype=torch.float64, requires_grad=True)   # the matrix norms
for o in (2, -2, "nuc", 1, -1, float("inf"), -float("inf")):
    r = torch.linalg.matrix_norm(N, ord=o)
    print(o, show(r), r.grad_fn.name(), r.grad_fn.next_functions[0][0].name(), show(torch.autograd.grad(r, N)[0]),
          show(torch.linalg.norm(N, o)), show(torch.linalg.matrix_norm(N, ord=o, dim=(1, 0))))
N3 = torch.arange(24.).reshape(2, 3, 4).double().sin().requires_grad_()
for o in (2, "nuc", 1, -float("inf")):
    r = torch.linalg.matrix_norm(N3, ord=o, dim=(2, 0), keepdim=True)
    print(o, tuple(r.shape), r.grad_fn.name(), show(r.flatten()), show(torch.autograd.grad(r.sum(), N3)[0][0]),
          tuple(torch.linalg.matrix_norm(N3, ord=o, dim=(0, 2)).shape))

bad = [lambda: torch.linalg.eigh(torch.ones(2, 3)), lambda: torch.linalg.eigh(torch.ones(3)),
       lambda: torch.linalg.eigh(torch.ones(3, 3, dtype=torch.int64)), lambda: torch.linalg.eigh(torch.eye(2), UPLO="X"),
       lambda: torch.linalg.eigvalsh(torch.ones(2, 2, dtype=torch.float16)),
       lambda: torch.linalg.svd(torch.ones(3, dtype=torch.float64)), lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.int64)),
       lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.float16)), lambda: torch.svd(torch.ones(3)),
       lambda: torch.linalg.svd(torch.tensor([[float("nan"), 0.], [0., 1.]])),
       lambda: torch.linalg.svdvals(torch.tensor([[[1., 0.], [0., 1.]], [[float("nan"), 0.], [0., 1.]]])),
       lambda: torch.linalg.svd(torch.eye(2), driver="gesvd"),
       lambda: torch.linalg.slogdet(torch.ones(2, 3)), lambda: torch.linalg.slogdet(torch.ones(2, 2, dtype=torch.int64)),
       lambda: torch.linalg.slogdet(torch.ones(2, 2, dtype=torch.float16)), lambda: torch.logdet(torch.ones(3)),
       lambda: torch.logdet(torch.ones(2, 3)), lambda: torch.linalg.pinv(torch.ones(3)),
       lambda: torch.linalg.pinv(torch.ones(2, 2, dtype=torch.int64)), lambda: torch.pinverse(torch.ones(2, 2, dtype=torch.float16)),
       lambda: torch.linalg.det(torch.ones(3)), lambda: torch.linalg.matrix_norm(torch.ones(2, 2), ord=3),
       lambda: torch.linalg.matrix_norm(torch.ones(2, 2), ord=2, dim=(1, 1))]
for f in bad:
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, isinstance(e, torch.linalg.LinAlgError), e)
