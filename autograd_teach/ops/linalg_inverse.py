"""torch.linalg's inverse, solve and Cholesky factor, each one node as in
PyTorch (LinalgInvExBackward0, LinalgSolveExBackward0,
LinalgCholeskyExBackward0), computed by numpy's LAPACK; batches of matrices
in the leading dims. (The determinant is in linalg_decompositions.py, beside
slogdet and the SVD its gradient needs where A is singular.)

The derivatives, for A invertible (Giles, "Collected matrix derivative results"):
    d A⁻¹     = -A⁻¹ dA A⁻¹            so  grad_A = -A⁻ᵀ grad A⁻ᵀ
    X = A⁻¹B: grad_B = A⁻ᵀ grad,  grad_A = -grad_B Xᵀ
"""
import numpy as np

from ..core.node import OpNode, quiet


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError (PyTorch's class is _LinAlgError, a RuntimeError)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"


def square(a, name):
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")
    if a.dtype.kind != "f":
        kind = {"i": "Long", "b": "Bool", "u": "Byte"}.get(a.dtype.kind, str(a.dtype))
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {kind}")


def mT(a):
    return np.swapaxes(a, -1, -2)


class LinalgInvExBackward0(OpNode):
    """out = torch.linalg.inv(A)

    A: -result.mT.matmul(grad).matmul(result.mT)
    """
    inputs = ("A",)
    saved = ("result",)

    def forward(self, a):
        square(a, "linalg.inv")
        try:
            return np.linalg.inv(a)
        except np.linalg.LinAlgError:
            raise LinAlgError(f"linalg.inv: The diagonal element {_zero_pivot(a)} is zero, the inversion could not "
                              "be completed because the input matrix is singular.") from None

    def backward(self, grad, result):
        return -mT(result) @ grad @ mT(result)


def _zero_pivot(a):
    """Which diagonal element of U (1-based) LU's elimination finds zero, as LAPACK reports it."""
    u = np.array(a.reshape(-1, *a.shape[-2:])[0], dtype=np.float64)
    n = u.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            return k + 1
        u[[k, p]] = u[[p, k]]
        u[k + 1:] -= np.outer(u[k + 1:, k] / u[k, k], u[k])
    return n


def solve_for(a, b, vector):
    return np.linalg.solve(a, b[..., None])[..., 0] if vector else np.linalg.solve(a, b)


class LinalgSolveExBackward0(OpNode):
    """out = torch.linalg.solve(A, B)   (X with A X = B; B a vector or matrices)

    A: solve_backward_A(grad, A, result)
    B: linalg_solve(A.mT, grad)
    """
    inputs = ("A", "B")
    saved = ("A", "result")
    attrs = ("vector",)

    def forward(self, a, b):
        square(a, "torch.linalg.solve" if a.ndim > 1 else "linalg.solve")
        self.vector = b.ndim == a.ndim - 1
        try:
            return solve_for(a, b, self.vector)
        except np.linalg.LinAlgError:
            raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None

    def backward(self, grad, a, result):
        grad_b = solve_for(mT(a), grad, self.vector)
        if self.vector:
            return -grad_b[..., :, None] * result[..., None, :], grad_b
        return -grad_b @ mT(result), grad_b


def linalg_solve(a, b):
    """torch.linalg.solve, for the rules (a Tensor function, recorded)."""
    return LinalgSolveExBackward0.apply(a, b)


def identity_like(A):
    """The identity matrix of A's size and dtype, a constant (for the rules)."""
    return A._wrap(np.eye(A.shape[-1], dtype=A._data.dtype))


def solve_backward_A(grad, A, result):
    grad_b = linalg_solve(A.mT, grad)
    if result.dim() == A.dim() - 1:
        return -grad_b.unsqueeze(-1) * result.unsqueeze(-2)
    return -grad_b.matmul(result.mT)


class LinalgCholeskyExBackward0(OpNode):
    """out = torch.linalg.cholesky(A, upper=upper)   (L lower triangular, L Lᵀ = A; upper: Lᵀ)

    A: cholesky_backward(grad, result, upper)

    With Φ(M) the lower triangle of M with its diagonal halved,
    grad_A = L⁻ᵀ Φ(Lᵀ grad_L) L⁻¹, symmetrized (PyTorch's cholesky_backward).
    """
    inputs = ("A",)
    saved = ("result",)
    attrs = ("upper",)

    def forward(self, a, upper=False):
        square(a, "linalg.cholesky")
        self.upper = upper
        try:
            L = np.linalg.cholesky(a)
            return np.ascontiguousarray(mT(L)) if upper else L
        except np.linalg.LinAlgError:
            raise LinAlgError("linalg.cholesky: The factorization could not be completed because the input is not "
                              f"positive-definite (the leading minor of order {_bad_minor(a)} is not "
                              "positive-definite).") from None

    def backward(self, grad, result):
        if self.upper:
            grad, result = mT(grad), mT(result)
        phi = np.tril(mT(result) @ grad)
        diag = np.einsum("...ii->...i", phi)
        diag *= 0.5
        inv_lt = np.linalg.inv(mT(result))
        g = inv_lt @ phi @ mT(inv_lt)
        return 0.5 * (g + mT(g))


def _bad_minor(a):
    m = a.reshape(-1, *a.shape[-2:])[0]
    for k in range(1, m.shape[-1] + 1):
        try:
            np.linalg.cholesky(m[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return m.shape[-1]


def cholesky_backward(grad, L, upper):
    """On Tensors, for create_graph: the same steps with recorded ops."""
    if upper:
        grad, L = grad.mT, L.mT
    phi = L.mT.matmul(grad).tril()
    phi = phi - 0.5 * phi.diagonal(0, -2, -1).diag_embed()
    inv_lt = L.mT.inverse()
    g = inv_lt.matmul(phi).matmul(inv_lt.mT)
    return 0.5 * (g + g.mT)
