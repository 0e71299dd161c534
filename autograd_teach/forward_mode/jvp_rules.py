"""The forward-mode rule of every op: how a tangent goes through it.

PyTorch keeps these as the `result:` lines of derivatives.yaml, beside the
backward rules; here they are one table, by node name, read by dual.py.
A formula reads the op's inputs as `<name>_p` (the primal) and `<name>_t`
(its tangent, zeros where it has none), `result` (the output's primal) and
the node's attributes (`dim`, `alpha`, ...), as PyTorch's formulas do:

    mul:   out = self * other      result: other_t * self_p + self_t * other_p

Most ops need no formula of their own. Three words stand for the usual cases
(PyTorch has the first two):

    auto_linear        the op is linear in its tensor inputs (sum, view, cat,
                       x * 2, ...): the tangent goes through the op itself,
                       out_t = op(self_t, ...)
    auto_element_wise  the output's element i depends on element i of each
                       input only (exp, sigmoid, mul, where, ...): the
                       Jacobian is diagonal, so the backward rule in the op's
                       docstring, given the tangent as `grad`, is the jvp
    auto_reduction     each output element depends on one slice of the input
                       (max, norm, var, logsumexp, ...): the backward rule
                       given ones is d out / d self, elementwise; times the
                       tangent, summed over the reduced dims
    auto_loss          a loss of (self, target): d loss / d input elementwise
                       times the tangents, then the loss's reduction

An op missing here raises PyTorch's NotImplementedError when a tangent
reaches it. The functions at the end are PyTorch's jvp helpers
(FunctionsManual.cpp), which the formulas may call, computed in the same
order, so that float32 tangents have PyTorch's bits.
"""

from . import jvp_nn

LINEAR = "auto_linear"
ELEMENT_WISE = "auto_element_wise"
REDUCTION = "auto_reduction"
LOSS = "auto_loss"

JVP = {
    # arithmetic
    "AddBackward0": LINEAR, "SubBackward0": LINEAR, "NegBackward0": LINEAR,
    "MulBackward1": LINEAR, "DivBackward1": LINEAR,      # x * 2, x / 2
    "AddBackward1": "self_t", "SubBackward1": "self_t",  # x + 2, x - 2
    "RsubBackward1": "maybe_multiply(-self_t, alpha)",   # 2 - x
    "MulBackward0": "other_t * self_p + self_t * other_p",
    "DivBackward0": "(self_t - other_t * result) / other_p",
    "ReciprocalBackward0": "-self_t * result * result",
    "PowBackward0": ELEMENT_WISE, "PowBackward1": ELEMENT_WISE, "PowBackward2": ELEMENT_WISE,
    "Atan2Backward0": ELEMENT_WISE, "XlogyBackward0": ELEMENT_WISE,
    "LgammaBackward0": ELEMENT_WISE, "DigammaBackward0": ELEMENT_WISE, "PolygammaBackward0": ELEMENT_WISE,
    "NanToNumBackward0": ELEMENT_WISE,
    "LerpBackward0": ELEMENT_WISE, "LerpBackward1": ELEMENT_WISE,
    "AddcmulBackward0": ELEMENT_WISE, "AddcdivBackward0": ELEMENT_WISE,
    # pointwise functions
    "ExpBackward0": "self_t * result",
    "LogBackward0": "self_t / self_p",
    "SinBackward0": "self_t * self_p.cos()",
    "CosBackward0": "-self_t * self_p.sin()",
    **dict.fromkeys([
        "AbsBackward0", "SqrtBackward0", "SigmoidBackward0", "TanhBackward0", "ReluBackward0",
        "SgnBackward0", "SignBackward0", "CeilBackward0", "FloorBackward0", "RoundBackward0", "TruncBackward0",
        "FracBackward0", "RsqrtBackward0", "ErfBackward0", "ErfinvBackward0", "AsinBackward0", "AcosBackward0", "AtanBackward0",
        "TanBackward0", "SinhBackward0", "CoshBackward0", "Expm1Backward0", "Exp2Backward0", "Log2Backward0",
        "Log10Backward0", "Log1PBackward0", "LeakyReluBackward0", "LeakyReluBackward1", "GeluBackward0",
        "EluBackward0", "EluBackward1", "SoftplusBackward0", "HardtanhBackward0", "HardsigmoidBackward0",
        "SiluBackward0", "ClampBackward0", "ClampBackward1", "ClampMinBackward0", "ClampMaxBackward0", "ClampMinBackward1",
        "ClampMaxBackward1", "FmodBackward0", "FmodBackward1", "RemainderBackward0", "RemainderBackward1",
        "MaximumBackward0", "MinimumBackward0", "WhereBackward0",
        "MaskedFillBackward0", "ZeroBackward0", "FillBackward2", "FillBackward3", "UniformBackward0",
        "NormalBackward0", "NormalBackward1", "NormalBackward2", "NormalBackward3",
        # the backward's own ops, for forward over reverse (torch.func.hessian)
        "SigmoidBackwardBackward0", "TanhBackwardBackward0", "ThresholdBackwardBackward0",
        "GeluBackwardBackward0", "SoftplusBackwardBackward0", "HardtanhBackwardBackward0",
        "MseLossBackwardBackward0", "HuberLossBackwardBackward0", "SmoothL1LossBackwardBackward0"],
        ELEMENT_WISE),
    # shapes, views, indexing, joins: all linear
    **dict.fromkeys([
        "AliasBackward0", "Identity", "ViewBackward0", "ReshapeAliasBackward0", "UnsafeViewBackward0", "ExpandBackward0",
        "TransposeBackward0", "PermuteBackward0", "TBackward0", "SqueezeBackward0", "SqueezeBackward1",
        "SqueezeBackward4", "UnsqueezeBackward0", "SelectBackward0", "SliceBackward0", "IndexBackward0",
        "CloneBackward0", "ToCopyBackward0", "AsStridedBackward0", "DiagonalBackward0", "DiagonalBackward0_copy",
        "DiagEmbedBackward0", "TraceBackward0", "CatBackward0", "StackBackward0", "UnbindBackward0",
        "SplitBackward0", "SplitWithSizesBackward0", "UnsafeSplitBackward0", "FlipBackward0", "RollBackward0",
        "RepeatBackward0", "TrilBackward0", "TriuBackward0", "IndexSelectBackward0", "MaskedSelectBackward0",
        "GatherBackward0", "TakeBackward0", "ScatterBackward0", "ScatterAddBackward0", "IndexAddBackward0",
        "PutBackward0", "EmbeddingBackward0", "CumsumBackward0", "SumBackward0", "SumBackward1",
        "MeanBackward0", "MeanBackward1", "NllLossBackward0", "AvgPool2DBackward0",
        "AdaptiveAvgPool2DBackward0", "SelectBackwardBackward0", "SliceBackwardBackward0",
        "DiagonalBackwardBackward0", "EmbeddingDenseBackwardBackward0", "NllLossBackwardBackward0"], LINEAR),
    "FmaxBackward0": "other_t + (self_p >= other_p).logical_or(other_p.isnan()) * (self_t - other_t)",
    "FminBackward0": "other_t + (self_p <= other_p).logical_or(other_p.isnan()) * (self_t - other_t)",
    "ScatterBackward1": "self_t.scatter(dim, index, 0)",        # scatter of a number
    "CopyBackwards": "src_t",                                   # self.copy_(src)
    "IndexPutBackward0": "index_put(self_t, indices, values_t)",
    "CopySlices": LINEAR,                                       # x[i] = v: x with v's tangent in region i
    # reductions that select or combine a slice
    **dict.fromkeys([
        "MaxBackward0", "MinBackward0", "MaxBackward1", "MinBackward1", "AmaxBackward0", "AminBackward0",
        "KthvalueBackward0", "MedianBackward0", "MedianBackward1", "NansumBackward0", "VarBackward0", "StdBackward0", "ProdBackward0", "ProdBackward1"],
        REDUCTION),
    "LogsumexpBackward0": "logsumexp_jvp(self_p, self_t, dim, keepdim)",
    "LinalgVectorNormBackward0": "norm_jvp(self_p, self_t, ord, result, dim, keepdim)",
    "SortBackward0": "self_t.gather(dim, indices)",
    "LinalgDetBackward0": "linalg_det_jvp(A_p, A_t, result)",
    "LinalgInvExBackward0": "-result.matmul(A_t).matmul(result)",
    "LinalgSolveExBackward0": "linalg_solve(A_p, B_t - (A_t.matmul(result.unsqueeze(-1)).squeeze(-1) if vector "
                              "else A_t.matmul(result)))",
    "LinalgCholeskyExBackward0": "cholesky_jvp(A_t, result.mT if upper else result).mT if upper "
                                 "else cholesky_jvp(A_t, result)",
    # several outputs: the rule gives one tangent per output (ops/linalg_decompositions.py)
    "LinalgEighBackward0": "linalg_eig_jvp(A_t, eigenvalues, eigenvectors)",
    "LinalgSvdBackward0": "linalg_svd_jvp(A_t, U, S, Vh, full_matrices)",
    "LinalgSlogdetBackward0": "slogdet_jvp(A_p, A_t, sign)",
    "LinalgPinvBackward0": "pinv_jvp(self_p, result, self_t)",
    "RoundBackward1": ELEMENT_WISE, "BernoulliBackward0": ELEMENT_WISE, "BernoulliBackward1": ELEMENT_WISE,
    "DivBackward2": "(self_t - other_t * result) / other_p if rounding_mode is None else zeros_like(result)",
    "DivBackward3": "self_t / other if rounding_mode is None else zeros_like(result)",
    "LogcumsumexpBackward0": "(self_t * (self_p - self_p.amax(dim, True)).exp()).cumsum(dim)"
                             " / (self_p - self_p.amax(dim, True)).exp().cumsum(dim)",
    "TopkBackward0": "self_t.gather(dim, indices)",
    # products: linear in each input while the other is fixed
    "DotBackward0": "self_t.dot(tensor_p) + self_p.dot(tensor_t)",
    "MvBackward0": "self_t.mv(vec_p) + self_p.mv(vec_t)",
    "MmBackward0": "self_t.mm(mat2_p) + self_p.mm(mat2_t)",
    "BmmBackward0": "self_t.bmm(mat2_p) + self_p.bmm(mat2_t)",
    "AddmmBackward0": "maybe_multiply(self_t, beta) + maybe_multiply(mat1_t.mm(mat2_p), alpha)"
                      " + maybe_multiply(mat1_p.mm(mat2_t), alpha)",
    # softmax and its kin
    "SoftmaxBackward0": "result * (self_t - (self_t * result).sum(dim, True))",
    "LogSoftmaxBackward0": "self_t - (self_t * result.exp()).sum(dim, True)",
    "SoftmaxBackwardDataBackward0":
        "output_t * (grad_output_p - (grad_output_p * output_p).sum(dim, True))"
        " + output_p * (grad_output_t - (grad_output_t * output_p + grad_output_p * output_t).sum(dim, True))",
    "LogSoftmaxBackwardDataBackward0":
        "grad_output_t - output_p.exp() * (output_t * grad_output_p.sum(dim, True) + grad_output_t.sum(dim, True))",
    # losses
    **dict.fromkeys(["MseLossBackward0", "BinaryCrossEntropyBackward0", "BinaryCrossEntropyWithLogitsBackward0",
                     "HuberLossBackward0", "SmoothL1LossBackward0"], LOSS),
    "BinaryCrossEntropyBackwardBackward0":
        "bce_backward_jvp(grad_output_p, grad_output_t, self_p, self_t, target_p, target_t, reduction)",
    # running products, and the ops of a network (helpers in jvp_nn.py)
    "CumprodBackward0": "cumprod_jvp(self_t, self_p, result, dim)",
    "ConvolutionBackward0": "convolution_jvp(ConvolutionBackward0, input_p, input_t, weight_p, weight_t, bias_t, "
                            "stride, padding, dilation, transposed, output_padding, groups)",
    "MaxPool2DWithIndicesBackward0": "self_t.flatten(-2).gather(-1, result1.flatten(-2)).view_as(result1)",
    "ConstantPadNdBackward0": "ConstantPadNdBackward0.apply(self_t, pad, 0)",      # the border is a constant
    "NativeBatchNormBackward0": "batch_norm_jvp(input_p, input_t, weight_p, weight_t, bias_t, running_mean, "
                                "running_var, result1, result2, training, eps)",
    "NativeLayerNormBackward0": "layer_norm_jvp(input_p, input_t, weight_p, weight_t, bias_t, result1, result2, "
                                "normalized_shape)",
    "EluBackwardBackward0": ELEMENT_WISE, "IndexPutImplBackward0": LINEAR,
    "MaskedFillBackward1": "self_t.masked_fill(mask, value_t)",
    "AsinhBackward0": ELEMENT_WISE, "AcoshBackward0": ELEMENT_WISE, "AtanhBackward0": ELEMENT_WISE,
    # adaptive max pooling, GroupNorm, upsampling (nn/functional_layers.py)
    "AdaptiveMaxPool2DBackward0": "self_t.flatten(-2).gather(-1, result1.flatten(-2)).view_as(result)",
    "NativeGroupNormBackward0": "group_norm_jvp(input_p, input_t, weight_p, weight_t, bias_t, result1, result2)",
    **dict.fromkeys(["UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0", "UpsampleLinear1DBackward0",
                     "UpsampleBilinear2DBackward0", "NllLoss2DBackward0",
                     "NllLoss2DBackwardBackward0"], LINEAR),
}


# -- PyTorch's jvp helpers -----------------------------------------------------------------

def sum_over(x, dim, keepdim):
    """x summed over the dims a reduction removed (dim None or (): all of them)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        dims = list(range(x.dim()))
    else:
        dims = [dim] if isinstance(dim, int) else list(dim)
    return x.sum(dims, keepdim) if dims else x


def logsumexp_jvp(self_p, self_t, dim, keepdim):
    """Σ softmax(self) · self_t over dim, with the exp-normalize trick."""
    exp = (self_p - self_p.amax(dim, True)).exp() if self_p.numel() else self_p.exp()
    return sum_over(exp * self_t, dim, keepdim) / sum_over(exp, dim, keepdim)


def norm_jvp(self_p, self_t, ord, norm, dim, keepdim):
    """d ||x||_p = Σ |x|^(p-1) sgn(x) t / ||x||^(p-1), one case per ord as
    PyTorch's; 0 where the norm is 0, and (p < 1) where x is 0."""
    if ord == 0:
        return self_p.new_zeros(norm.shape)
    if ord == 1:
        return sum_over(self_p.sgn() * self_t, dim, keepdim)
    if ord == 2:
        return sum_over(self_p * self_t, dim, keepdim).div(norm).masked_fill(norm == 0, 0)
    if ord in (float("inf"), -float("inf")):    # the maxima share the tangent; a NaN is a maximum too
        full = norm if keepdim else _unsqueeze_all(norm, dim, self_p.dim())
        hit = ((self_p.abs() == full).logical_or(self_p.isnan().logical_and(full.isnan()))).to(norm.dtype)
        count = sum_over(hit, dim, True) if self_p.dim() else hit
        return sum_over(self_p.sgn() * self_t * hit / count, dim, keepdim)
    if ord < 1:
        scale = self_p.abs().pow(ord - 1).masked_fill(self_p == 0, 0)
        return sum_over(scale * (self_p.sgn() * self_t), dim, keepdim) * norm.pow(1 - ord)
    if ord < 2:
        scale = self_p.abs().pow(ord - 1)
        return (sum_over(scale * (self_p.sgn() * self_t), dim, keepdim) / norm.pow(ord - 1)).masked_fill(norm == 0, 0)
    scale = self_p.abs().pow(ord - 2)
    return (sum_over(scale * (self_p * self_t), dim, keepdim) / norm.pow(ord - 1)).masked_fill(norm == 0, 0)


def _unsqueeze_all(x, dim, ndim):
    dims = range(ndim) if dim is None or (isinstance(dim, (tuple, list)) and not dim) else (
        [dim] if isinstance(dim, int) else dim)
    for d in sorted(d % ndim for d in dims):
        x = x.unsqueeze(d)
    return x


def cholesky_jvp(A_t, L):
    """dL = L Φ(L⁻¹ dA L⁻ᵀ), Φ: the lower triangle with the diagonal halved."""
    inv = L.inverse()
    phi = inv.matmul(A_t).matmul(inv.mT).tril()
    return L.matmul(phi - 0.5 * phi.diagonal(0, -2, -1).diag_embed())


def bce_backward_jvp(grad_output_p, grad_output_t, self_p, self_t, target_p, target_t, reduction):
    """PyTorch's result line for binary_cross_entropy_backward: its three
    double-backward terms (eps added, as FunctionsManual.cpp's) times the tangents."""
    eps = 1e-12
    denom = (self_p + eps) * (1 - self_p + eps)
    d_self = (self_p * self_p - 2 * self_p * target_p + target_p) / (denom * denom)
    d_target = -1 / ((1 - self_p) * self_p).clamp_min(eps)
    out = grad_output_p * (d_self * self_t + d_target * target_t) + grad_output_t * (self_p - target_p) / denom
    return out / self_p.numel() if reduction == "mean" else out


def group_norm_jvp(input_p, input_t, weight_p, weight_t, bias_t, result1, result2):
    """xhat's tangent, rstd * (t - mean(t) - xhat * mean(xhat * t)) over each
    (sample, group) row, times weight, plus xhat times weight's tangent, plus bias's."""
    n, group = result1.shape
    rows = input_p.reshape(n, group, input_p.numel() // max(n * group, 1))
    mean, rstd = result1.unsqueeze(-1), result2.unsqueeze(-1)
    xhat = (rows - mean) * rstd
    t = input_t.reshape(rows.shape)
    xhat_t = (rstd * (t - t.mean(-1, True) - xhat * (xhat * t).mean(-1, True))).reshape(input_p.shape)
    xhat = xhat.reshape(input_p.shape)
    channel = (-1,) + (1,) * (input_p.dim() - 2)
    per_channel = [p.reshape(channel) if hasattr(p, "reshape") else p for p in (weight_p, weight_t, bias_t)]
    return xhat_t * per_channel[0] + xhat * per_channel[1] + per_channel[2]


HELPERS = {"sum_over": sum_over, "logsumexp_jvp": logsumexp_jvp, "norm_jvp": norm_jvp,
           "cholesky_jvp": cholesky_jvp, "bce_backward_jvp": bce_backward_jvp, "group_norm_jvp": group_norm_jvp,
           **jvp_nn.HELPERS}
