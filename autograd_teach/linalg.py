"""torch.linalg: the norms (d2l 2.3 and 4.5 measure vectors and weights with them),
det, inv, solve, cholesky (ops/linalg_inverse.py), and eigh, svd, slogdet and
pinv (ops/linalg_decompositions.py).

vector_norm, and matrix_norm's Frobenius norm, are one op,
LinalgVectorNormBackward0, as in PyTorch: a matrix's Frobenius norm is the
2-norm of its entries; linalg.norm picks a vector or a matrix norm from `ord`
and `dim`. The other matrix norms are made of other ops, as in PyTorch: ord 2, -2, 'nuc' of the singular values
(AmaxBackward0, AminBackward0, SumBackward1 over svdvals), 1, -1, inf, -inf
of the column or row sums of |A| (AmaxBackward0 over LinalgVectorNormBackward0)."""
from . import ops as O

INF = float("inf")


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    if x._data.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {x.dtype.legacy_name}")
    if ord == -INF:
        raise NotImplementedError("autograd_teach: linalg.vector_norm(ord=-inf) is not implemented")
    if dtype is not None:
        x = x.to(dtype)
    return O.LinalgVectorNormBackward0.apply(x, ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if ord == "fro":
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if ord not in ("nuc", 2, -2, 1, -1, INF, -INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    d0, d1 = (O.shape.check_dim(d, A.dim()) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if dtype is not None:
        A = A.to(dtype)
    if ord in (1, -1, INF, -INF):       # the largest (smallest) column sum of |A|; inf: of the rows
        if ord in (INF, -INF):
            d0, d1 = d1, d0
        if not keepdim and d0 < d1:
            d1 -= 1
        sums = vector_norm(A, 1, (d0,), keepdim)
        return sums.amax(d1, keepdim) if ord > 0 else sums.amin(d1, keepdim)
    return _singular_value_norm(A, ord, d0, d1, keepdim)


def _singular_value_norm(A, ord, d0, d1, keepdim):
    """ord 2, -2: the largest (smallest) singular value; 'nuc': their sum. The
    two dims go last (a permute, as in PyTorch), and come back with keepdim."""
    order = [d for d in range(A.dim()) if d not in (d0, d1)] + [d0, d1]
    S = svdvals(A.permute(order))
    out = S.sum(-1, keepdim) if ord == "nuc" else S.amax(-1, keepdim) if ord > 0 else S.amin(-1, keepdim)
    if keepdim:
        out = out.unsqueeze(-1).permute([order.index(d) for d in range(A.dim())])
    return out


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm when dim is one dimension (or ord is None and dim is None:
    all entries), a matrix norm when dim is two or A is a matrix with an ord."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if dim is None:
        if A.dim() not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                               f"Got {A.dim()}D.")
        dim = (-2, -1) if isinstance(ord, str) else tuple(range(A.dim()))
    if len(dim) == 1 and not isinstance(ord, str):   # 'fro' and 'nuc' are matrix norms only
        return vector_norm(A, ord, dim, keepdim, dtype=dtype)
    return matrix_norm(A, ord, dim, keepdim, dtype=dtype)


# -- determinant, inverse, solve, Cholesky (ops/linalg_inverse.py) --------------------------------
LinAlgError = O.linalg_inverse.LinAlgError


def det(A):
    return O.LinalgDetBackward0.apply(A)


def inv(A):
    return O.LinalgInvExBackward0.apply(A)


def solve(A, B, *, left=True):
    if not left:
        raise NotImplementedError("autograd_teach: linalg.solve(left=False) is not implemented")
    return O.LinalgSolveExBackward0.apply(A, B)


def cholesky(A, *, upper=False):
    return O.LinalgCholeskyExBackward0.apply(A, upper)


# -- eigh, svd, slogdet, pinv (ops/linalg_decompositions.py) -------------------------------------
eigh, eigvalsh = O.linalg_decompositions.eigh, O.linalg_decompositions.eigvalsh
svd, svdvals = O.linalg_decompositions.svd, O.linalg_decompositions.svdvals
slogdet, pinv = O.linalg_decompositions.slogdet, O.linalg_decompositions.pinv
