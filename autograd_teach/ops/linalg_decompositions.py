"""torch.linalg's decompositions: eigh, svd and slogdet, each one node with
several outputs as in PyTorch (LinalgEighBackward0, LinalgSvdBackward0,
LinalgSlogdetBackward0), the determinant (LinalgDetBackward0, whose gradient
at a singular matrix needs the SVD) and the pseudo-inverse
(LinalgPinvBackward0); computed by numpy's LAPACK, batches of matrices in the
leading dims.

    L, Q = torch.linalg.eigh(A)     # L.grad_fn is Q.grad_fn; Q.output_nr == 1

The derivatives are PyTorch's (FunctionsManual.cpp), written once, with
Tensor ops: backward runs them without recording, and create_graph=True
records them, so they can be differentiated again. With E_ij = L_j - L_i
(S_j² - S_i² for svd) and 1 on E's diagonal:

    eigh     gA = Q (diag(gL) + skew(Qᵀ gQ) / 2 / E) Qᵀ
    svd      gA = U ((skew(Uᵀ gU) S + S skew(Vᵀ gV)) / E + diag(gS)) Vᵀ
             (+ the part of gU, gV outside the span of U, V when A is not square)
    slogdet  gA = g_logabsdet · A⁻ᵀ   (the sign is piecewise constant: no gradient)
    det      gA = g · det A · A⁻ᵀ (the adjugate where A is singular: see below)
    pinv     Golub and Pereyra's formula, from A and A⁺ alone

Eigenvectors and singular vectors are unique only up to sign (and a rotation
where values repeat): a loss that depends on that choice has no gradient.
Where eigenvalues (singular values) repeat, E has zeros off its diagonal and a
gradient through the vectors is inf or nan, as in PyTorch.
"""
import numpy as np

from ..compat import dtypes
from ..core import grad_mode, rules
from ..core.node import FREED, OpNode, SavedTensor, next_sequence_nr, quiet, quiet_call
from ..core.ops.join import CatBackward0
from ..core.ops.multi_output import MultiOutputNode, Slots
from ..core.ops.selection import where  # noqa: F401  (the rules call it)
from ..forward_mode import dual
from ..forward_mode.jvp_rules import JVP
from .linalg_inverse import LinAlgError, identity_like, linalg_solve, mT, square


class Decomposition(MultiOutputNode, OpNode):
    """What eigh, svd and slogdet share: one node whose outputs (named in
    `outputs`) all have it as grad_fn, output k with output_nr k. A subclass
    defines forward(array, *params) -> one array per output, and
    gradient(grads, **saved) -> A's gradient, on Tensors, with grads[k] None
    where output k got no gradient (PyTorch's undefined grad)."""
    inputs = ("A",)
    outputs = ()

    @classmethod
    def apply(cls, A, *params):
        node = cls.__new__(cls)
        outs = tuple(A._wrap(np.asarray(a)) for a in quiet_call(node.forward, A._data, *params))
        if A.requires_grad and grad_mode.is_grad_enabled():
            node.record_outputs(A, outs)
        if dual.levels:      # forward-mode AD: the outputs' tangents, by the rule in jvp_rules.py
            propagate_tangents(cls, node, A, outs)
        return outs

    def record_outputs(self, A, outs):
        for k, out in enumerate(outs):
            out._set_grad_fn(self, k)
        self.num_outputs, self.sequence_nr = len(outs), next_sequence_nr()
        self.next_functions = (A._grad_edge(),)
        self.input_metadata = ((A._data.shape, A._data.dtype),)
        named = dict(zip(self.outputs, outs))
        self.saved_values = {name: SavedTensor(A) if name == "A" else SavedTensor(named[name], self)
                             for name in self.saved}

    def backward(self, grads):
        """A's gradient from the outputs' (arrays; None where none came): the Tensor formula, not recorded."""
        with grad_mode.no_grad():
            (g,) = self.call_backward_on_tensors(Slots(None if g is None else self.wrap(np.asarray(g)) for g in grads))
        return None if g is None else g._data

    def call_backward(self, grads):
        return (self.backward(grads),)

    def call_backward_on_tensors(self, grads):
        if self.saved_values is None:
            raise RuntimeError(FREED)
        values = self.live_values()
        if all(g is None for g in grads):
            return (None,)
        return self.to_inputs((self.gradient(list(grads), **values),))


def propagate_tangents(cls, node, A, outs):
    """Forward mode (forward_mode/dual.py): the rule of JVP[cls name] gives one
    tangent per output, from A's tangent at each level where A has one."""
    for level in dual.in_use():
        tangent = level.tangent(A)
        if tangent is None:
            continue
        values = {"A_p": A, "A_t": tangent, **dict(zip(cls.outputs, outs)),
                  **{name: getattr(node, name) for name in cls.attrs}}
        with dual.suspended(level):
            tangents = rules.evaluate_text(cls, "result", JVP[cls.__name__], values)
        for out, t in zip(outs, tangents):
            level.set(out, t)


# -- checks, with PyTorch's messages ------------------------------------------------------------

def check_matrices(a, name, square=True):
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if square and a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")


def legacy_name(a):
    return dtypes.from_numpy(a.dtype).legacy_name


def check_lapack_dtype(a, kernel):
    """float32 and float64 only: PyTorch's CPU kernels have no half version either."""
    if a.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{legacy_name(a)}'")


def check_no_nan_for_svd(a):
    """PyTorch's SVD refuses NaN, naming the first matrix of a batch that has one
    (an inf gives nan results, in PyTorch as here)."""
    if a.size and np.isnan(a).any():
        nan = np.isnan(a).reshape(-1, *a.shape[-2:]).any(axis=(-2, -1))
        batch = f"(Batch element {int(np.argmax(nan))}): " if a.ndim > 2 else ""
        raise LinAlgError(f"linalg.svd: {batch}The algorithm failed to converge because the input matrix "
                          "contained non-finite values.")


def diagonal_of(values, A):
    """The matrices values · I of A's shape, made as PyTorch makes them (diag_embed of an expand)."""
    return values.unsqueeze(-1).expand(A.shape[:-1]).diag_embed().mT


def ones_on_diagonal(E):
    """E with its diagonal set to 1 (PyTorch: E.diagonal().fill_(1)): 0 / 1 there, never 0 / 0."""
    eye = E._wrap(np.eye(E.shape[-1], dtype=bool))
    return where(eye, E._wrap(np.ones((), dtype=E._data.dtype)), E)


# -- eigh --------------------------------------------------------------------------------------

class LinalgEighBackward0(Decomposition):
    """outs = torch.linalg.eigh(A, UPLO)   (eigenvalues L ascending, eigenvectors Q: A = Q diag(L) Qᵀ)

    PyTorch's rule: A: linalg_eig_backward(grads[0], grads[1], eigenvalues, eigenvectors, /*is_hermitian=*/true)

    Only the triangle UPLO names is read (the other is taken to mirror it);
    A's gradient is symmetric where the loss sees only L, or L and Q.
    """
    outputs = ("eigenvalues", "eigenvectors")
    saved = ("eigenvalues", "eigenvectors")

    def forward(self, a, UPLO):
        check_matrices(a, "linalg.eigh")
        if UPLO not in ("L", "U", "l", "u"):
            raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
        check_lapack_dtype(a, "linalg_eigh_cpu")
        return np.linalg.eigh(a, UPLO=UPLO.upper())

    def gradient(self, grads, eigenvalues, eigenvectors):
        return linalg_eig_backward(grads[0], grads[1], eigenvalues, eigenvectors)


def linalg_eig_backward(gL, gV, L, V):
    """PyTorch's linalg_eig_backward for a symmetric A (is_hermitian=true)."""
    if gV is None:      # eigvalsh: V diag(gL) Vᵀ (Vᵀ first: C++ evaluates matmul's arguments right to left)
        Vh = V.mT
        return (V * gL.unsqueeze(-2)).matmul(Vh)
    VhgV = V.mT.matmul(gV)
    VhgV = 0.5 * (VhgV - VhgV.mT)            # the part a rotation of V can move: skew-symmetric
    ret = VhgV / ones_on_diagonal(L.unsqueeze(-2) - L.unsqueeze(-1))
    if gL is not None:
        ret = where(V._wrap(np.eye(V.shape[-1], dtype=bool)), gL.diag_embed(), ret)
    return V.matmul(ret.matmul(V.mT))


def linalg_eig_jvp(dA, L, V):
    """(dL, dV) for a symmetric A: dP = Vᵀ dA V, dL = diag(dP), dV = V (dP / E, 0 on the diagonal)."""
    dP = V.mT.matmul(dA).matmul(V)
    dL = dP.diagonal(0, -2, -1)
    dX = dP / (L.unsqueeze(-2) - L.unsqueeze(-1))
    dX = where(V._wrap(np.eye(V.shape[-1], dtype=bool)), V._wrap(np.zeros((), dtype=V._data.dtype)), dX)
    return dL, V.matmul(dX)


# -- svd ---------------------------------------------------------------------------------------

class LinalgSvdBackward0(Decomposition):
    """outs = torch.linalg.svd(A, full_matrices)   (U, S descending, Vh: A = U diag(S) Vh)

    PyTorch's rule: A: svd_backward(full_matrices && grad_U.defined() ? grad_U.narrow(-1, 0, S.size(-1)) : grad_U,
    grad_S, full_matrices && grad_Vh.defined() ? grad_Vh.narrow(-2, 0, S.size(-1)) : grad_Vh,
    full_matrices ? U.narrow(-1, 0, S.size(-1)) : U, S, full_matrices ? Vh.narrow(-2, 0, S.size(-1)) : Vh)

    With full_matrices, the columns of U (rows of Vh) beyond the k = min(m, n)
    singular values are any orthonormal completion: they get no gradient.
    """
    outputs = ("U", "S", "Vh")
    saved = ("S", "U", "Vh")
    attrs = ("full_matrices", "S_sym_argsize_minus_1")

    def forward(self, a, full_matrices):
        check_matrices(a, "linalg.svd", square=False)
        if a.dtype.kind != "f":
            raise RuntimeError("linalg.svd: Expected a floating point or complex tensor as input. "
                               f"Got {legacy_name(a)}")
        check_lapack_dtype(a, "linalg_svd_cpu")
        check_no_nan_for_svd(a)
        self.full_matrices, self.S_sym_argsize_minus_1 = bool(full_matrices), min(a.shape[-2:])
        return np.linalg.svd(a, full_matrices=full_matrices)

    def gradient(self, grads, S, U, Vh, full_matrices, S_sym_argsize_minus_1):
        gU, gS, gVh = grads
        if full_matrices:
            k = S_sym_argsize_minus_1
            gU = None if gU is None else gU.narrow(-1, 0, k)
            gVh = None if gVh is None else gVh.narrow(-2, 0, k)
            U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        return svd_backward(gU, gS, gVh, U, S, Vh)


def svd_backward(gU, gS, gVh, U, S, Vh):
    """PyTorch's svd_backward, for real A."""
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:      # svdvals: U diag(gS) Vh
        return U.matmul(gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)).matmul(Vh)
    UhgU = None if gU is None else U.mT.matmul(gU) - gU.mT.matmul(U)      # skew(Uᵀ gU)
    VhgV = None if gVh is None else Vh.matmul(gVh.mT) - gVh.matmul(Vh.mT)  # skew(Vᵀ gV)
    S2 = S * S
    E = ones_on_diagonal(S2.unsqueeze(-2) - S2.unsqueeze(-1))
    if gU is not None and gVh is not None:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gU is not None:
        gA = (UhgU / E) * S.unsqueeze(-2)
    else:
        gA = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        gA = gA + gS.diag_embed()
    if m > n and gU is not None:        # + (I - U Uᵀ) gU S⁻¹ Vᵀ
        gA = U.matmul(gA)
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U.matmul(U.mT.matmul(gUSinv))
        return gA.matmul(Vh)
    if m < n and gVh is not None:       # + U S⁻¹ gVᵀ (I - V Vᵀ)
        gA = gA.matmul(Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - SinvgVh.matmul(Vh.mT).matmul(Vh)
        return U.matmul(gA)
    return U.matmul(gA.matmul(Vh)) if m >= n else U.matmul(gA).matmul(Vh)


def linalg_svd_jvp(dA, U_, S, Vh_, full_matrices):
    """PyTorch's linalg_svd_jvp, for real A: (dU, dS, dVh)."""
    m, n, k = dA.shape[-2], dA.shape[-1], S.shape[-1]
    U = U_.narrow(-1, 0, k) if full_matrices else U_
    Vh = Vh_.narrow(-2, 0, k) if full_matrices else Vh_
    V = Vh.mT
    dP = U.mT.matmul(dA.matmul(V)) if m < n else U.mT.matmul(dA).matmul(V)
    dS = dP.diagonal(0, -2, -1)
    dP = dP - dS.diag_embed()
    S2 = S * S
    E = ones_on_diagonal(S2.unsqueeze(-2) - S2.unsqueeze(-1))
    sym = lambda X: X + X.mT  # noqa: E731
    dU = U.matmul(sym(dP * S.unsqueeze(-2)) / E)
    if m > n:
        dAVSinv = dA.matmul(V / S.unsqueeze(-2))
        dU = dU + dAVSinv - U.matmul(U.mT.matmul(dAVSinv))
        if full_matrices:
            dU = cat_zeros(dU, -1, m - n)
    dVh = (sym(dP * (-S).unsqueeze(-1)) / E).matmul(Vh)
    if m < n:
        UHdASinv = (U.mT / S.unsqueeze(-1)).matmul(dA)
        dVh = dVh + UHdASinv - UHdASinv.matmul(V).matmul(Vh)
        if full_matrices:
            dVh = cat_zeros(dVh, -2, n - m)
    return dU, dS, dVh


def cat_zeros(x, dim, count):
    """x followed by `count` zeros along dim (the tangents of the columns full_matrices adds)."""
    shape = list(x.shape)
    shape[dim] = count
    return cat([x, x._wrap(np.zeros(shape, dtype=x._data.dtype))], dim)


# -- det -----------------------------------------------------------------------------------------
# d det(A) = det(A) tr(A⁻¹ dA), so grad_A = grad · det(A) · A⁻ᵀ, for A invertible.
# A singular A: det's gradient is still defined (the adjugate). PyTorch's
# backward solves with A's LU, a zero pivot nudged to eps: where det A is
# exactly 0 the right side is 0, and so is the gradient (this package does the
# same). With create_graph=True, PyTorch switches to the adjugate (from the SVD)
# where |det A| < 100 eps, which can be differentiated again; so does the rule here.

def adjugate_transposed(a):
    """d det(A) / dA = adj(A)ᵀ, also for a singular A: from A = U S Vᵀ,
    adj(A) = det(U) det(V) V diag(∏_{j≠i} s_j) Uᵀ."""
    u, s, vh = np.linalg.svd(a)
    n = s.shape[-1]
    others = np.stack([np.prod(np.delete(s, i, axis=-1), axis=-1) for i in range(n)], axis=-1)
    sign = np.linalg.det(u) * np.linalg.det(vh)
    adj = sign[..., None, None] * (mT(vh) * others[..., None, :]) @ mT(u)
    return mT(adj)


class LinalgDetBackward0(OpNode):
    """out = torch.linalg.det(A)

    A: linalg_det_backward(grad, result, A)
    """
    inputs = ("A",)
    saved = ("A", "result")

    def forward(self, a):
        square(a, "linalg.det")
        return np.linalg.det(a)

    @quiet
    def backward(self, grad, a, result):
        """grad · det(A) · A⁻ᵀ by a solve, as PyTorch; 0 where det A is 0 (see above)."""
        scaled = (np.asarray(grad) * result)[..., None, None] * np.eye(a.shape[-1], dtype=a.dtype)
        zero = np.asarray(result == 0)
        try:
            if not zero.any():
                return np.linalg.solve(mT(a), scaled)
            out = np.zeros_like(a)
            out[~zero] = np.linalg.solve(mT(a[~zero]), scaled[~zero])
            return out
        except np.linalg.LinAlgError:     # singular in the solve's own LU, though det was not 0: the adjugate
            return np.asarray(grad)[..., None, None] * adjugate_transposed(a)


def linalg_det_backward(grad, det, A):
    """PyTorch's, on Tensors (create_graph=True): a solve, or where |det A| < 100 eps
    the adjugate computed from the SVD, differentiable there too."""
    small = np.asarray(np.abs(det._data) < 100 * np.finfo(A._data.dtype).eps)
    d = diagonal_of(grad * det, A)
    if A.numel() == 0 or not small.any():
        return linalg_solve(A.mT, d)
    if small.all():
        return _adjugate_backward(A, grad)
    n = A.shape[-1]
    flat, As, ds, gs = small.reshape(-1), A.reshape(-1, n, n), d.reshape(-1, n, n), grad.reshape(-1)
    s, ns = np.flatnonzero(flat), np.flatnonzero(~flat)
    s, ns = A._wrap(s), A._wrap(ns)      # PyTorch's masked_fmap: each formula on its own matrices
    parts = cat([_adjugate_backward(As[s], gs[s]), linalg_solve(As[ns].mT, ds[ns])])
    return parts[A._wrap(np.argsort(np.concatenate([s._data, ns._data])))].reshape(A.shape)


def _adjugate_backward(A, grad):
    """grad · adj(A)ᵀ = U diag(grad · det(U) det(Vh) · ∏_{j≠i} S_j) Vh, from A = U diag(S) Vh."""
    U, S, Vh = LinalgSvdBackward0.apply(A, True)
    det_Vh = LinalgDetBackward0.apply(Vh)          # before det(U), as C++ evaluates det(U) * det(Vh)
    alpha = LinalgDetBackward0.apply(U) * det_Vh * grad
    D = prod_safe_zeros_backward(alpha.unsqueeze(-1), S, S.dim() - 1)
    return (U * D.unsqueeze(-2)).matmul(Vh)


def prod_safe_zeros_backward(grad, inp, dim):
    """grad times the product of the other entries along dim, without dividing (zeros allowed)."""
    if inp.numel() == 0:
        return grad.expand(inp.shape)
    shape = list(inp.shape)
    shape[dim] = 1
    ones = inp._wrap(np.ones(shape, dtype=inp._data.dtype))
    before = cat([ones, inp.narrow(dim, 0, inp.shape[dim] - 1)], dim).cumprod(dim)
    after = cat([ones, inp.narrow(dim, 1, inp.shape[dim] - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return grad * (before * after)


def cat(tensors, dim=0):
    return CatBackward0.apply(tensors, dim % tensors[0].dim())


def linalg_det_jvp(A_p, A_t, result):
    """det(A) · tr(A⁻¹ dA). Where det A is 0, PyTorch's LU with a nudged pivot
    gives det · (something finite) = 0: any invertible stand-in for A does too."""
    singular = result == 0
    if singular._data.any():
        A_p = where(singular.unsqueeze(-1).unsqueeze(-1), identity_like(A_p), A_p)
    return result * (A_p.inverse().mT * A_t).sum([-2, -1])


# -- slogdet -----------------------------------------------------------------------------------

class LinalgSlogdetBackward0(Decomposition):
    """outs = torch.linalg.slogdet(A)   (sign and log|det A|: det A = sign · exp(logabsdet))

    PyTorch's rule: A: slogdet_backward(grad_sign, grad_logabsdet, A, sign, LU, pivots)

    d log|det A| = tr(A⁻¹ dA), so A's gradient is g · A⁻ᵀ, found by a solve.
    The sign of a real A is piecewise constant: its gradient is zero, and a
    gradient that reaches only the sign gives A none. A singular A has no
    derivative: its gradient is inf or nan (PyTorch's too), and with
    create_graph=True the solve refuses it, as PyTorch's does.
    """
    outputs = ("sign", "logabsdet")
    saved = ("A", "sign")

    def forward(self, a):
        check_slogdet_input(a, "linalg.slogdet")
        sign, logabsdet = np.linalg.slogdet(a)
        sign = np.where(np.isnan(logabsdet), 0, sign).astype(a.dtype)     # PyTorch: sgn(nan) is 0
        for k in np.ndindex(sign.shape):
            if logabsdet[k] == -np.inf:
                sign[k] = zero_with_pytorchs_sign(a[k])
        return sign, np.asarray(logabsdet, dtype=a.dtype)

    def gradient(self, grads, A, sign):
        g = grads[1]
        if g is None:
            return None
        d = diagonal_of(g, A)
        if grad_mode.is_grad_enabled():
            return linalg_solve(A.mT, d)
        return A._wrap(solve_or_divide(A._data, d._data))


def zero_with_pytorchs_sign(m):
    """The sign of a singular matrix, as PyTorch computes it: the product of
    the signs of LU(Aᵀ)'s pivots (one of them 0) and of its row swaps; a
    product that holds a 0 is 0, with the sign bit of the others: -0. or 0."""
    u, flips = np.array(m.T, dtype=np.float64), 0
    for k in range(len(u)):
        p = k + int(np.argmax(np.abs(u[k:, k])))    # partial pivoting, the first of equal ones (LAPACK's)
        if p != k:
            u[[k, p]] = u[[p, k]]
            flips += 1
        flips += bool(u[k, k] < 0)
        if u[k, k] != 0:
            u[k + 1:] -= np.outer(u[k + 1:, k] / u[k, k], u[k])
    return -0.0 if flips % 2 else 0.0


@quiet
def solve_or_divide(a, d):
    """Aᵀ X = d, or for a singular A adj(A)ᵀ d / det A: inf and nan, as PyTorch's LU solve gives."""
    try:
        return np.linalg.solve(mT(a), d)
    except np.linalg.LinAlgError:
        return adjugate_transposed(a) @ d / np.linalg.det(a)[..., None, None]


def check_slogdet_input(a, name):
    check_matrices(a, name)
    if a.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {legacy_name(a)}")
    if a.dtype == np.float16:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def slogdet_jvp(A_p, A_t, sign):
    """(0, tr(A⁻¹ dA)): the sign does not move."""
    return sign.new_zeros(sign.shape), linalg_solve(A_p, A_t).diagonal(0, -2, -1).sum(-1)


# -- pinv --------------------------------------------------------------------------------------

class LinalgPinvBackward0(OpNode):
    """out = torch.linalg.pinv(self, atol=atol, rtol=rtol, hermitian=hermitian)

    self: pinv_backward(grad, result, self)

    A⁺ = V diag(1/S) Uᵀ over the singular values above max(atol, rtol · S_max)
    (the others count as 0). The formula (Golub and Pereyra) holds where the
    rank does not change nearby.
    """
    inputs = ("self",)
    saved = ("result", "self")

    def forward(self, a, atol, rtol, hermitian):
        if a.ndim < 2 or a.dtype not in (np.float32, np.float64):
            shape = ", ".join(map(str, a.shape))
            raise RuntimeError(f"linalg.pinv({legacy_name(a)}{{[{shape}]}}): expected a tensor with 2 or more "
                               "dimensions of float, double, cfloat or cdouble types")
        if rtol is None:       # PyTorch: rtol defaults to eps · max(m, n), or 0 when a positive atol is given
            rtol = 0.0 if atol is not None and atol > 0 else float(np.finfo(a.dtype).eps) * max(a.shape[-2:])
        atol = 0.0 if atol is None else atol
        if hermitian:
            s, u = np.linalg.eigh(a)
            big = np.abs(s).max(-1, keepdims=True, initial=0)
            keep, v = np.abs(s) > np.maximum(atol, rtol * big).astype(a.dtype), u
        else:
            check_no_nan_for_svd(a)
            u, s, vh = np.linalg.svd(a, full_matrices=False)
            keep, v = s > np.maximum(atol, rtol * s[..., :1]).astype(a.dtype), mT(vh)
        s_inv = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(a.dtype)
        return (v * s_inv[..., None, :]) @ mT(u)

    def backward(self, grad, result, a):
        with grad_mode.no_grad():
            return pinv_backward(self.wrap(grad), self.wrap(result), self.wrap(a))._data


def pinv_backward(grad, pinvA, A):
    """PyTorch's pinv_backward, for real A."""
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = pinvA.mT, grad.mT
    if m <= n:
        K = gradh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        return (-(pinvA.matmul(K)).mT + KpinvAh - (A.matmul(pinvA)).matmul(KpinvAh)
                + (pinvAh.matmul(pinvA)).matmul(gradh - K.matmul(A)))
    K = pinvA.matmul(gradh)
    pinvAhK = pinvAh.matmul(K)
    return (-(K.matmul(pinvA)).mT + (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh) + pinvAhK
            - pinvAhK.matmul(pinvA).matmul(A))


def pinv_jvp(A, pinvA, dA):
    """PyTorch's pinv_jvp, for real A."""
    m, n = A.shape[-2], A.shape[-1]
    dAh, pinvAh = dA.mT, pinvA.mT
    if m <= n:
        K = pinvAh.matmul(dAh)
        return (pinvA.matmul(K - K.mT - K.matmul(A.matmul(pinvA)))
                + (dAh - pinvA.matmul(A.matmul(dAh))).matmul(pinvAh.matmul(pinvA)))
    K = pinvA.matmul(dA)
    Kh = K.mT
    return ((Kh - K - pinvA.matmul(A).matmul(Kh)).matmul(pinvA)
            + (pinvA.matmul(pinvAh)).matmul(dAh - (dAh.matmul(A)).matmul(pinvA)))


# -- the torch.linalg functions, torch.svd and its kin -----------------------------------------

def return_type(name, fields):
    """torch.return_types.<name>: a tuple whose entries have names, printed as PyTorch prints it."""
    def __repr__(self):
        return f"torch.return_types.{name}(\n" + ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")"
    body = {"__slots__": (), "__repr__": __repr__, "__module__": "torch.return_types", "n_fields": len(fields),
            "__new__": lambda cls, values: tuple.__new__(cls, values)}
    body.update({f: property(lambda self, k=k: self[k]) for k, f in enumerate(fields)})
    return type(name, (tuple,), body)


EighResult = return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
SvdResult = return_type("linalg_svd", ("U", "S", "Vh"))
LegacySvdResult = return_type("svd", ("U", "S", "V"))
SlogdetResult = return_type("linalg_slogdet", ("sign", "logabsdet"))
LegacySlogdetResult = return_type("slogdet", ("sign", "logabsdet"))


def eigh(A, UPLO="L"):
    return EighResult(LinalgEighBackward0.apply(A, UPLO))


def eigvalsh(A, UPLO="L"):
    """The eigenvalues, output 0 of an eigh node (PyTorch computes the vectors too when A requires grad)."""
    return LinalgEighBackward0.apply(A, UPLO)[0]


def svd(A, full_matrices=True, *, driver=None):
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    return SvdResult(LinalgSvdBackward0.apply(A, full_matrices))


def svdvals(A, *, driver=None):
    return svd(A, full_matrices=False, driver=driver)[1]


def legacy_svd(input, some=True, compute_uv=True):
    """torch.svd: V, not Vh (a transpose of Vh: TransposeBackward0); without
    compute_uv, U and V are zeros of the full sizes."""
    if input.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input.dim()} "
                           "dimensions instead")
    if compute_uv:
        U, S, Vh = LinalgSvdBackward0.apply(input, not some)
        return LegacySvdResult((U, S, Vh.transpose(-2, -1)))
    S = svdvals(input)
    *batch, m, n = input.shape
    U, Vh = (input._wrap(np.zeros((*batch, *size), dtype=input._data.dtype)) for size in ((m, m), (n, n)))
    return LegacySvdResult((U, S, Vh.transpose(-2, -1)))


def slogdet(A):
    return SlogdetResult(LinalgSlogdetBackward0.apply(A))


def legacy_slogdet(A):
    """torch.slogdet and Tensor.slogdet: linalg.slogdet under another name."""
    return LegacySlogdetResult(LinalgSlogdetBackward0.apply(A))


def logdet(A):
    """log det A: nan where det A < 0 (a WhereBackward0 over slogdet's logabsdet, as in PyTorch)."""
    check_slogdet_input(A._data, "logdet")
    sign, logabsdet = LinalgSlogdetBackward0.apply(A)
    return where(sign == -1, float("nan"), logabsdet)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """linalg.pinv(A, *, atol, rtol, hermitian); pinv(A, rcond) is rtol=rcond, atol=0 (NumPy's name)."""
    if rcond is not None:
        if atol is not None or rtol is not None:
            raise TypeError("linalg_pinv() received an invalid combination of arguments - got rcond with atol "
                            "or rtol")
        atol, rtol = 0.0, rcond
    return LinalgPinvBackward0.apply(A, _number(atol), _number(rtol), hermitian)


def pinverse(input, rcond=1e-15):
    return pinv(input, rcond)


def _number(tol):
    """A tolerance given as a 0-d tensor is its value."""
    return float(tol.item()) if hasattr(tol, "item") else tol


TENSOR_METHODS = {"svd": legacy_svd, "slogdet": legacy_slogdet, "logdet": logdet, "pinverse": pinverse}
