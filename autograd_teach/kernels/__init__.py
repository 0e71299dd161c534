"""float32 as PyTorch's CPU kernels compute it: the summation orders, the
fused multiply-adds and the roundings that make a float32 result equal
PyTorch's to the last bit (docs/float32.md). The ops call these, and their
code reads as the math: `kernels.exp(a)` where numpy would say `np.exp(a)`.

    exp sin cos tanh tan log1p expm1 log2 log10 exp2 asin acos atan sinh cosh asinh acosh atanh sigmoid
    atan2 pow erf        elementwise: computed in float64, rounded once
    log                  MKL's float32 log (log_exact: rounded once)
    pow_tensor_scalar(a, 2.5), pow_scalar(2.5, e), add_scaled(a, alpha, b), sub_product(c, a, b),
    one_minus_square(r)  a few expressions with PyTorch's roundings
    sum mean             SumKernel.cpp's cascade order (cascade_sum, cascade_mean)
    norm2, vec_sum_lastdim, loss_sum   the orders of norm, softmax and the losses
    fma                  a * b + c with one rounding, in a's dtype (fma32, fma64)
    fma_float32          float32 a * b + c through float64 (a rare double rounding)
    sleef_exp            SLEEF's expf, as PyTorch's vectorized kernels call it
    mm, addmm_product    matmul's order of products and sums (matmul_order.py);
    mm_backward          MmBackward0's two products, grad @ b.T and a.T @ grad, in mm's order
    fma_as(a, b, c, dtype)  a * b + c rounded once in dtype (LayerNorm's and BatchNorm's kernels)
    rowwise_moments      LayerNorm's mean and variance (moments_order.py)
    batch_norm_moments, batch_norm_grad_sums, batch_norm_update_running   BatchNorm's (batch_norm_order.py)
    softmax, log_softmax (and _backward), softmax_sum: SoftMaxKernel.cpp (softmax_order.py)
    relu, threshold_backward   relu and its gradient, large maps masked by their bits (masks.py)

float64 inputs go straight to numpy everywhere.
"""
from .float32 import (FLOAT32, FLOAT64, acos, acosh, add_scaled, asin, asinh, atan, atan2, atanh, cos, cosh, erf, exp, exp2,  # noqa: F401
                      expm1, expm1_exact, log, log1p, log2, log10, log_exact, norm2, one_minus_square, pow,
                      pow_scalar, sigmoid, sin, sinh, sleef_exp, sub_product, tan, tanh, vec_sum_lastdim)
from .float32 import cascade_mean as mean, cascade_sum as sum, loss_cascade_sum as loss_sum  # noqa: F401,A004
from .float32 import fma as fma_float32, power as pow_tensor_scalar  # noqa: F401
from .fma_exact import fma, fma32, fma64  # noqa: F401
from .matmul_order import addmm_product, dot, matmul, mm, mm_backward  # noqa: F401
from .batch_norm_order import (BATCH_NORM_LANES, batch_norm_grad_sums, batch_norm_moments,  # noqa: F401
                               batch_norm_update_running)
from .moments_order import fma_as, rowwise_moments  # noqa: F401
from .masks import relu, threshold_backward  # noqa: F401
from .softmax_order import log_softmax, log_softmax_backward, softmax, softmax_backward, softmax_sum  # noqa: F401
