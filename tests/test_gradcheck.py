"""Every differentiable op against finite differences.

`autograd_teach.autograd.gradcheck` compares the Jacobian that backward gives
(one one-hot output gradient at a time) with central differences in float64.
Inputs stay away from kinks (abs and relu at 0, clamp bounds, ties in max/min),
where the derivative is not defined and finite differences straddle it.

The last tests prove that gradcheck itself can fail: with a deliberately wrong
backward it must raise GradcheckError, or return False when asked not to raise.
"""
import warnings

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.core import node
from autograd_teach import ops
from autograd_teach.autograd import GradcheckError, gradcheck

F = torch.nn.functional


def rnd(*shape, low=-2.0, high=2.0, seed=0, away=0.2):
    """float64 leaf, uniform in [low, high], every value at least `away` from
    0 and from its neighbours (so no kink at 0 and no ties for max/min)."""
    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    n = int(np.prod(shape))
    for _ in range(100):
        v = rng.uniform(low, high, n)
        s = np.sort(v)
        if (np.abs(v) >= away).all() and (n < 2 or np.diff(s).min() > 1e-3):
            break
    else:   # many values: drawing until all qualify would never end; pick them from a spaced grid
        grid = np.linspace(low, high, 4 * n + 64)
        grid = grid[np.abs(grid) >= away]
        if len(grid) < n or (high - low) / (4 * n + 63) <= 1e-3:
            raise ValueError(f"rnd: {n} values at least 1e-3 apart do not fit in [{low}, {high}]")
        v = rng.permutation(rng.choice(grid, n, replace=False))
    return torch.tensor(v.reshape(shape), dtype=torch.float64, requires_grad=True)


def pos(*shape, seed=0):
    return rnd(*shape, low=0.5, high=2.0, seed=seed, away=0.0)


def check(fn, *inputs, **kw):
    assert gradcheck(fn, inputs, **kw)


def inplace(method, *args):
    """f(x) = x * 1, then the in-place method on that non-leaf."""
    def f(x, *tensors):
        y = x * 1.0
        getattr(y, method)(*(tensors or args))
        return y
    return f


def setitem(index):
    def f(x, v):
        y = x.clone()
        y[index] = v
        return y
    return f


MASK = torch.tensor([[True, False, True, False], [False, True, True, False], [True, True, False, False]])

# (id, function, input factory). Each is one test id.
CASES = [
    # arithmetic
    ("add", lambda a, b: a + b, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("add_alpha", lambda a, b: torch.add(a, b, alpha=2.5), lambda: (rnd(3), rnd(3, seed=1))),
    ("add_scalar", lambda a: a + 2, lambda: (rnd(3),)),
    ("radd_scalar", lambda a: 2 + a, lambda: (rnd(3),)),
    ("sub", lambda a, b: a - b, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("sub_alpha", lambda a, b: a.sub(b, alpha=-1.5), lambda: (rnd(3), rnd(3, seed=1))),
    ("sub_scalar", lambda a: a - 2, lambda: (rnd(3),)),
    ("rsub", lambda a: 2 - a, lambda: (rnd(3),)),
    ("mul", lambda a, b: a * b, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("mul_self", lambda a: a * a, lambda: (rnd(3),)),
    ("mul_scalar", lambda a: a * 3.5, lambda: (rnd(3),)),
    ("div", lambda a, b: a / b, lambda: (rnd(3, 4), pos(3, 4, seed=1))),
    ("div_scalar", lambda a: a / 4, lambda: (rnd(3),)),
    ("reciprocal", lambda a: a.reciprocal(), lambda: (rnd(3),)),
    ("rdiv_number", lambda a: 2 / a, lambda: (rnd(3),)),
    ("neg", lambda a: -a, lambda: (rnd(3),)),
    ("pow_int", lambda a: a ** 3, lambda: (rnd(3),)),
    ("pow_float", lambda a: a ** 2.5, lambda: (pos(3),)),
    ("pow_negative", lambda a: a.pow(-2), lambda: (rnd(3),)),
    ("pow_zero", lambda a: a ** 0, lambda: (rnd(3),)),
    ("square", lambda a: a.square(), lambda: (rnd(3),)),
    ("pow_tensor", lambda a, b: a ** b, lambda: (pos(3, 4), rnd(3, 4, seed=1))),
    ("pow_number_base", lambda b: 2 ** b, lambda: (rnd(3),)),
    ("pow_number_base_fn", lambda b: torch.pow(3.0, b), lambda: (rnd(3),)),
    # pointwise
    ("exp", torch.exp, lambda: (rnd(3, 2),)),
    ("log", torch.log, lambda: (pos(3, 2),)),
    ("sqrt", torch.sqrt, lambda: (pos(3, 2),)),
    ("abs", torch.abs, lambda: (rnd(3, 2),)),
    ("sin", torch.sin, lambda: (rnd(3, 2),)),
    ("cos", torch.cos, lambda: (rnd(3, 2),)),
    ("tanh", torch.tanh, lambda: (rnd(3, 2),)),
    ("sigmoid", torch.sigmoid, lambda: (rnd(3, 2),)),
    ("sigmoid_large", torch.sigmoid, lambda: (rnd(4, low=-30, high=30),)),
    ("relu", torch.relu, lambda: (rnd(3, 2),)),
    # reductions, rearranging and sorting (core/ops/reduction.py, ops/rearrange.py, ops/sorting.py)
    ("amax", lambda a: a.amax(1), lambda: (rnd(3, 4),)),
    ("amax_all", lambda a: a.amax(), lambda: (rnd(3, 4),)),
    ("amin_keepdim", lambda a: a.amin((0, 1), keepdim=True), lambda: (rnd(3, 4),)),
    ("logsumexp", lambda a: a.logsumexp(1), lambda: (rnd(3, 4),)),
    ("logsumexp_keepdim", lambda a: torch.logsumexp(a, (0, 1), keepdim=True), lambda: (rnd(3, 4),)),
    ("nansum", lambda a: a.nansum(0), lambda: (rnd(3, 4),)),
    ("flip", lambda a: a.flip(0, 1), lambda: (rnd(3, 4),)),
    ("roll", lambda a: a.roll(2), lambda: (rnd(3, 4),)),
    ("roll_dims", lambda a: a.roll((1, -1), (0, 1)), lambda: (rnd(3, 4),)),
    ("repeat", lambda a: a.repeat(2, 1, 3), lambda: (rnd(3, 4),)),
    ("tile", lambda a: a.tile(2), lambda: (rnd(3, 4),)),
    ("tril", lambda a: a.tril(), lambda: (rnd(3, 4),)),
    ("triu", lambda a: a.triu(1), lambda: (rnd(3, 4),)),
    ("index_select", lambda a: a.index_select(1, torch.tensor([0, 2, 0])), lambda: (rnd(3, 4),)),
    ("sort", lambda a: a.sort(1).values, lambda: (rnd(3, 4),)),
    ("sort_descending", lambda a: a.sort(0, descending=True).values, lambda: (rnd(3, 4),)),
    ("topk", lambda a: a.topk(2).values, lambda: (rnd(3, 4),)),
    ("atan2", torch.atan2, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("atan2_broadcast", torch.atan2, lambda: (rnd(3, 1), rnd(4, seed=1))),
    ("diagonal", lambda a: a.diagonal(1), lambda: (rnd(3, 4),)),
    ("diagonal_dims", lambda a: a.diagonal(-1, 2, 0), lambda: (rnd(3, 2, 4),)),
    ("diag_of_matrix", lambda a: a.diag(), lambda: (rnd(3, 4),)),
    ("diag_of_vector", lambda a: a.diag(-1), lambda: (rnd(3),)),
    ("diag_embed", lambda a: torch.diag_embed(a, 1), lambda: (rnd(2, 3),)),
    ("trace", lambda a: a.trace(), lambda: (rnd(3, 4),)),
    ("median", lambda a: a.median(), lambda: (rnd(3, 3),)),
    ("median_dim", lambda a: a.median(1).values, lambda: (rnd(3, 4),)),
    ("kthvalue", lambda a: a.kthvalue(2, 0, keepdim=True).values, lambda: (rnd(3, 4),)),
    ("masked_select", lambda a: a.masked_select(MASK), lambda: (rnd(3, 4),)),
    ("masked_select_broadcast", lambda a: a.masked_select(MASK), lambda: (rnd(4),)),
    ("index_add", lambda a, s: a.index_add(0, torch.tensor([2, 0, 2]), s, alpha=1.5),
     lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("cumprod", lambda a: a.cumprod(1), lambda: (rnd(3, 4),)),
    ("cumprod_with_zero", lambda a: (a * torch.tensor([1.0, 0.0, 1.0, 1.0], dtype=torch.float64)).cumprod(1),
     lambda: (rnd(3, 4),)),
    ("cumprod_zeros_first_and_twice", lambda a: (a * torch.tensor([[0.0, 1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 0.0],
                                                                 [1.0, 1.0, 1.0, 1.0]], dtype=torch.float64)).cumprod(1),
     lambda: (rnd(3, 4),)),
    # more pointwise (ops/pointwise.py)
    ("log1p", torch.log1p, lambda: (pos(3, 2),)),
    ("expm1", torch.expm1, lambda: (rnd(3, 2),)),
    ("rsqrt", torch.rsqrt, lambda: (pos(3, 2),)),
    ("sign", torch.sign, lambda: (rnd(3, 2),)),
    ("tan", torch.tan, lambda: (rnd(3, 2, low=-1.2, high=1.2),)),
    ("log2", torch.log2, lambda: (pos(3, 2),)),
    ("log10", torch.log10, lambda: (pos(3, 2),)),
    ("exp2", torch.exp2, lambda: (rnd(3, 2),)),
    ("asin", torch.asin, lambda: (rnd(3, 2, low=-0.9, high=0.9, away=0.0),)),
    ("acos", torch.acos, lambda: (rnd(3, 2, low=-0.9, high=0.9, away=0.0),)),
    ("atan", torch.atan, lambda: (rnd(3, 2),)),
    ("sinh", torch.sinh, lambda: (rnd(3, 2),)),
    ("cosh", torch.cosh, lambda: (rnd(3, 2),)),
    ("erf", torch.erf, lambda: (rnd(3, 2),)),
    ("floor", torch.floor, lambda: (rnd(3, 2),)),
    ("ceil", torch.ceil, lambda: (rnd(3, 2),)),
    ("round", torch.round, lambda: (rnd(3, 2),)),
    ("trunc", torch.trunc, lambda: (rnd(3, 2),)),
    ("frac", torch.frac, lambda: (rnd(3, 2),)),
    ("relu_functional", F.relu, lambda: (rnd(5),)),
    ("clamp_min", lambda a: a.clamp(min=-0.5), lambda: (rnd(3, 3),)),
    ("clamp_max", lambda a: a.clamp(max=0.7), lambda: (rnd(3, 3),)),
    ("clamp_both", lambda a: torch.clamp(a, -0.5, 0.7), lambda: (rnd(3, 3),)),
    # products
    ("dot", torch.dot, lambda: (rnd(4), rnd(4, seed=1))),
    ("mv", torch.mv, lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("mm", torch.mm, lambda: (rnd(3, 4), rnd(4, 2, seed=1))),
    ("matmul_1d_1d", torch.matmul, lambda: (rnd(4), rnd(4, seed=1))),
    ("matmul_2d_1d", torch.matmul, lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("matmul_1d_2d", torch.matmul, lambda: (rnd(4), rnd(4, 3, seed=1))),
    ("matmul_2d_2d", torch.matmul, lambda: (rnd(2, 4), rnd(4, 3, seed=1))),
    ("matmul_3d_3d", torch.matmul, lambda: (rnd(2, 3, 4), rnd(2, 4, 2, seed=1))),
    ("matmul_3d_2d", torch.matmul, lambda: (rnd(2, 3, 4), rnd(4, 2, seed=1))),
    ("matmul_2d_3d", torch.matmul, lambda: (rnd(3, 4), rnd(2, 4, 2, seed=1))),
    ("matmul_3d_1d", torch.matmul, lambda: (rnd(2, 3, 4), rnd(4, seed=1))),
    ("matmul_1d_3d", torch.matmul, lambda: (rnd(4), rnd(2, 4, 3, seed=1))),
    ("matmul_batch_broadcast", torch.matmul, lambda: (rnd(2, 1, 3, 4), rnd(3, 4, 2, seed=1))),
    ("matmul_operator", lambda a, b: a @ b, lambda: (rnd(2, 3), rnd(3, 2, seed=1))),
    # reductions
    ("sum", torch.sum, lambda: (rnd(3, 4),)),
    ("sum_dim", lambda a: a.sum(1), lambda: (rnd(3, 4),)),
    ("sum_negative_dim", lambda a: a.sum(dim=-3), lambda: (rnd(2, 3, 2),)),
    ("sum_tuple_dim", lambda a: a.sum((0, 2)), lambda: (rnd(2, 3, 2),)),
    ("sum_keepdim", lambda a: a.sum(1, keepdim=True), lambda: (rnd(3, 4),)),
    ("sum_tuple_keepdim", lambda a: a.sum((0, 2), keepdim=True), lambda: (rnd(2, 3, 2),)),
    ("sum_0d", torch.sum, lambda: (rnd(),)),
    ("mean", torch.mean, lambda: (rnd(3, 4),)),
    ("mean_dim", lambda a: a.mean(0), lambda: (rnd(3, 4),)),
    ("mean_tuple_dim", lambda a: a.mean((1, 2)), lambda: (rnd(2, 3, 2),)),
    ("mean_keepdim", lambda a: a.mean(-1, keepdim=True), lambda: (rnd(3, 4),)),
    ("mean_tuple_keepdim", lambda a: a.mean((0, 2), keepdim=True), lambda: (rnd(2, 3, 2),)),
    ("max", torch.max, lambda: (rnd(3, 4),)),
    ("max_dim", lambda a: a.max(1).values, lambda: (rnd(3, 4),)),
    ("max_dim0", lambda a: a.max(dim=0)[0], lambda: (rnd(3, 4),)),
    ("max_keepdim", lambda a: a.max(1, keepdim=True).values, lambda: (rnd(3, 4),)),
    ("min", torch.min, lambda: (rnd(3, 4),)),
    ("min_dim", lambda a: a.min(0).values, lambda: (rnd(3, 4),)),
    ("min_keepdim", lambda a: a.min(-1, keepdim=True).values, lambda: (rnd(3, 4),)),
    ("norm", torch.norm, lambda: (rnd(3, 4),)),
    ("norm_p1", lambda a: a.norm(p=1), lambda: (rnd(3, 4),)),
    ("norm_inf", lambda a: a.norm(p=float("inf")), lambda: (rnd(3, 4),)),
    ("norm_p3", lambda a: a.norm(p=3), lambda: (rnd(3, 4),)),
    ("norm_dim", lambda a: a.norm(dim=1), lambda: (rnd(3, 4),)),
    ("norm_dim_keepdim", lambda a: a.norm(dim=0, keepdim=True), lambda: (rnd(3, 4),)),
    ("norm_p1_dim", lambda a: a.norm(p=1, dim=1), lambda: (rnd(3, 4),)),
    ("norm_inf_dim", lambda a: a.norm(p=float("inf"), dim=0), lambda: (rnd(3, 4),)),
    # shapes
    ("view", lambda a: a.view(4, 3), lambda: (rnd(3, 4),)),
    ("view_infer", lambda a: a.view(-1), lambda: (rnd(3, 4),)),
    ("reshape", lambda a: a.reshape(2, 6), lambda: (rnd(3, 4),)),
    ("reshape_noncontiguous", lambda a: a.t().reshape(12), lambda: (rnd(3, 4),)),
    ("view_as", lambda a: a.view_as(torch.zeros(6, 2)), lambda: (rnd(3, 4),)),
    ("flatten", torch.flatten, lambda: (rnd(2, 3, 2),)),
    ("t", torch.t, lambda: (rnd(3, 4),)),
    ("T", lambda a: a.T, lambda: (rnd(2, 3, 4),)),
    ("transpose", lambda a: a.transpose(0, 2), lambda: (rnd(2, 3, 4),)),
    ("permute", lambda a: a.permute(2, 0, 1), lambda: (rnd(2, 3, 4),)),
    ("unsqueeze", lambda a: a.unsqueeze(1), lambda: (rnd(3, 4),)),
    ("unsqueeze_negative", lambda a: a.unsqueeze(-1), lambda: (rnd(3, 4),)),
    ("squeeze", torch.squeeze, lambda: (rnd(1, 3, 1, 2),)),
    ("squeeze_dim", lambda a: a.squeeze(2), lambda: (rnd(1, 3, 1, 2),)),
    ("squeeze_dim_not_one", lambda a: a.squeeze(1), lambda: (rnd(1, 3, 1, 2),)),
    ("expand", lambda a: a.expand(2, 3, 4), lambda: (rnd(3, 1),)),
    ("expand_minus_one", lambda a: a.expand(-1, 4), lambda: (rnd(3, 1),)),
    ("expand_as", lambda a: a.expand_as(torch.zeros(2, 4)), lambda: (rnd(4),)),
    ("index_int", lambda a: a[1], lambda: (rnd(3, 4),)),
    ("index_negative", lambda a: a[-1, -2], lambda: (rnd(3, 4),)),
    ("index_slice", lambda a: a[1:], lambda: (rnd(3, 4),)),
    ("index_step_slice", lambda a: a[::2, 1::2], lambda: (rnd(5, 4),)),
    ("index_negative_slice", lambda a: a[:, -3:-1], lambda: (rnd(3, 4),)),
    ("index_none", lambda a: a[None, :, None], lambda: (rnd(3, 4),)),
    ("index_ellipsis", lambda a: a[..., 0], lambda: (rnd(2, 3, 4),)),
    ("index_full_slice", lambda a: a[:], lambda: (rnd(3, 4),)),
    ("index_list", lambda a: a[[0, 2]], lambda: (rnd(3, 4),)),
    ("index_list_repeated", lambda a: a[[0, 2, 0, 0]], lambda: (rnd(3, 4),)),
    ("index_tensor", lambda a: a[torch.tensor([2, 0])], lambda: (rnd(3, 4),)),
    ("index_two_lists", lambda a: a[[0, 1, 2], [3, 0, 3]], lambda: (rnd(3, 4),)),
    ("index_slice_list", lambda a: a[1:, [0, 3]], lambda: (rnd(3, 4),)),
    ("index_bool_mask", lambda a: a[MASK], lambda: (rnd(3, 4),)),
    ("index_bool_mask_rows", lambda a: a[torch.tensor([True, False, True])], lambda: (rnd(3, 4),)),
    ("index_by_comparison", lambda a: a[a > 0], lambda: (rnd(3, 4),)),
    ("clone", torch.clone, lambda: (rnd(3, 4),)),
    ("to_float32_and_back", lambda a: a.to(torch.float32).to(torch.float64) * 3,
     lambda: (rnd(3),), dict(eps=1e-3, atol=1e-4)),
    ("float_double", lambda a: a.float().double(), lambda: (rnd(3),), dict(eps=1e-3, atol=1e-4)),
    # losses
    ("mse_loss", F.mse_loss, lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("mse_loss_sum", lambda a, b: F.mse_loss(a, b, reduction="sum"), lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("mse_loss_none", lambda a, b: F.mse_loss(a, b, reduction="none"), lambda: (rnd(3, 4), rnd(3, 4, seed=1))),
    ("bce_with_logits", F.binary_cross_entropy_with_logits, lambda: (rnd(3, 4), rnd(3, 4, seed=1).sigmoid().detach().requires_grad_())),
    ("bce_with_logits_sum", lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction="sum"),
     lambda: (rnd(3, 4), rnd(3, 4, seed=1).sigmoid().detach().requires_grad_())),
    ("bce_with_logits_none", lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction="none"),
     lambda: (rnd(2, 3) * 30, rnd(2, 3, seed=1).sigmoid().detach().requires_grad_())),
    ("MSELoss_module", lambda a, b: torch.nn.MSELoss()(a, b), lambda: (rnd(5), rnd(5, seed=1))),
    # x[index] = value inside a graph (CopySlices)
    ("setitem_int", setitem(1), lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("setitem_slice", setitem((slice(None), slice(1, 3))), lambda: (rnd(3, 4), rnd(3, 2, seed=1))),
    ("setitem_broadcast_value", setitem(0), lambda: (rnd(3, 4), rnd(1, seed=1))),
    ("setitem_list", setitem([0, 2]), lambda: (rnd(3, 4), rnd(2, 4, seed=1))),
    ("setitem_mask", setitem(MASK), lambda: (rnd(3, 4), rnd(6, seed=1))),
    ("setitem_step", setitem((slice(None, None, 2),)), lambda: (rnd(5, 2), rnd(3, 2, seed=1))),
    ("setitem_number", lambda a: setitem(1)(a, 5.0), lambda: (rnd(3, 4),)),
    ("setitem_into_nonleaf_twice", lambda a, v: _setitem_twice(a, v), lambda: (rnd(3, 4), rnd(4, seed=1))),
    # in-place ops on a non-leaf inside a graph
    ("inplace_add_", inplace("add_", 2.0), lambda: (rnd(3),)),
    ("inplace_add_tensor", inplace("add_"), lambda: (rnd(3, 4), rnd(4, seed=1))),
    ("inplace_add_alpha", lambda a, b: (a * 1.0).add_(b, alpha=3), lambda: (rnd(3), rnd(3, seed=1))),
    ("inplace_sub_tensor", inplace("sub_"), lambda: (rnd(3), rnd(3, seed=1))),
    ("inplace_mul_", inplace("mul_", 3.0), lambda: (rnd(3),)),
    ("inplace_mul_tensor", inplace("mul_"), lambda: (rnd(3, 4), rnd(3, 1, seed=1))),
    ("inplace_div_tensor", inplace("div_"), lambda: (rnd(3), pos(3, seed=1))),
    ("inplace_pow_", inplace("pow_", 3), lambda: (rnd(3),)),
    ("inplace_clamp_", inplace("clamp_", -0.5, 0.5), lambda: (rnd(5),)),
    ("inplace_zero_", lambda a: (a * 2).zero_() + a, lambda: (rnd(3),)),
    ("inplace_fill_", lambda a: (a * 2).fill_(3.0) * a, lambda: (rnd(3),)),
    ("inplace_fill_tensor", lambda a, v: (a * 2).fill_(v * 3) * a, lambda: (rnd(3), rnd(seed=1))),
    ("setitem_whole_number", setitem(Ellipsis), lambda: (rnd(2, 3), rnd(seed=1))),
    ("setitem_whole_row", setitem(slice(None)), lambda: (rnd(2, 3), rnd(1, 3, seed=1))),
    ("setitem_whole_same", setitem(()), lambda: (rnd(2, 3), rnd(2, 3, seed=1))),
    ("setitem_whole_0d", setitem(Ellipsis), lambda: (rnd(), rnd(1, seed=1))),
    ("inplace_copy_", lambda a, b: (a * 2).copy_(b) * a, lambda: (rnd(3), rnd(3, seed=1))),
    ("inplace_iadd", lambda a, b: _iadd(a, b), lambda: (rnd(3), rnd(3, seed=1))),
    ("inplace_chain", lambda a: (a * 1.0).mul_(a).add_(a).exp(), lambda: (rnd(3, low=-1, high=1),)),
    # compositions the tutorials use
    ("linear_layer", lambda x, w, b: torch.relu(x @ w.t() + b), lambda: (rnd(4, 3), rnd(2, 3, seed=1), rnd(2, seed=2))),
    ("logistic", lambda x, w: torch.sigmoid(x @ w).log().mean(), lambda: (rnd(5, 3), rnd(3, seed=1))),
    ("reused_input", lambda a: (a * a.exp()).sum() + a.sin().mean(), lambda: (rnd(4),)),
]


def _setitem_twice(a, v):
    y = a * 2
    y[0] = v
    y[2, 1:3] = v[:2] * v[2:]
    return y


def _iadd(a, b):
    y = a * 1.0
    y += b
    y *= b
    return y


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_gradcheck(case):
    name, fn, make = case[:3]
    kw = case[3] if len(case) > 3 else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # mse_loss size warnings in broadcast cases
        check(fn, *make(), **kw)


# -- broadcasting, for every binary op ----------------------------------------
BINARY = {
    "add": lambda a, b: a + b,
    "add_alpha": lambda a, b: a.add(b, alpha=-2),
    "sub": lambda a, b: a - b,
    "sub_alpha": lambda a, b: a.sub(b, alpha=0.5),
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a ** b,
    "mse_loss_none": lambda a, b: F.mse_loss(a, b, reduction="none"),
    "mse_loss_mean": lambda a, b: F.mse_loss(a, b),
}
SHAPES = [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((4,), (2, 3, 4)), ((), (3,)), ((3, 1, 2), (3, 2)),
          ((1,), (2, 2)), ((2, 1, 1), (1, 3, 1))]


@pytest.mark.parametrize("shapes", SHAPES, ids=[f"{a}x{b}".replace(" ", "") for a, b in SHAPES])
@pytest.mark.parametrize("op", BINARY, ids=list(BINARY))
def test_gradcheck_broadcast(op, shapes):
    sa, sb = shapes
    a = pos(*sa) if op == "pow" else rnd(*sa)
    b = pos(*sb, seed=1) if op == "div" else rnd(*sb, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(BINARY[op], a, b)
        out = BINARY[op](a, b)
    if op != "mse_loss_mean":
        assert out.shape == np.broadcast_shapes(sa, sb)


# -- gradcheck accepts several outputs and inputs that do not require grad ----
def test_gradcheck_two_outputs_and_a_constant_input():
    x, c = rnd(3), torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    assert gradcheck(lambda a, k: (a * k, (a * a).sum()), (x, c))


def test_gradcheck_warns_on_float32_and_runs_as_pytorch_does():
    """float32's rounding fails the default tolerances, so the check fails,
    after a warning that says why (PyTorch's behaviour since it stopped refusing)."""
    with pytest.warns(UserWarning, match="^Input #0 requires gradient and is not a double precision"):
        with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect to input 0"):
            gradcheck(torch.exp, (torch.ones(2, requires_grad=True),))
    with pytest.warns(UserWarning, match="not a double precision"):
        assert gradcheck(torch.exp, (torch.ones(2, requires_grad=True),), eps=1e-3, atol=1e-2)
    with pytest.raises(ValueError, match="^gradcheck expects at least one input tensor to require gradient"):
        gradcheck(torch.exp, (torch.ones(2, dtype=torch.float64),))


# -- the gradient dtype follows the input dtype -----------------------------------
def test_cast_backward_returns_the_input_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)      # float32
    (x.double() * 3).sum().backward()
    assert x.grad.dtype is torch.float32
    assert x.grad.tolist() == [3.0, 3.0]


def test_max_with_ties_shares_the_gradient_evenly():
    # PyTorch (since 1.7): max()/min() of all elements split the gradient over ties.
    x = torch.tensor([1.0, 3.0, 3.0, 0.0], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5, 0.0]
    y = torch.tensor([1.0, 0.0, 0.0], requires_grad=True)
    y.min().backward()
    assert y.grad.tolist() == [0.0, 0.5, 0.5]


def test_kinks_use_pytorchs_subgradient():
    # At 0, PyTorch's abs' derivative is sign(0) = 0, relu's is 0, and clamp
    # passes the gradient at the bounds themselves.
    x = torch.tensor([0.0, 0.0, -1.0, 1.0], requires_grad=True)
    x.abs().sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, -1.0, 1.0]
    x.grad = None
    x.relu().sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0]
    x.grad = None
    x.clamp(-1.0, 1.0).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0, 1.0]


# -- gradcheck can fail -------------------------------------------------------------
@pytest.fixture
def broken_mul(monkeypatch):
    """MulBackward0 with a wrong derivative: d(a*b)/da = b + 1."""
    def wrong(self, grad, a, b):
        return grad * (b + 1), grad * a
    monkeypatch.setattr(ops.MulBackward0, "backward", wrong)


def test_gradcheck_fails_on_a_wrong_backward(broken_mul):
    x, y = rnd(3), rnd(3, seed=1)
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        gradcheck(torch.mul, (x, y))


def test_gradcheck_returns_false_on_a_wrong_backward(broken_mul):
    assert gradcheck(torch.mul, (rnd(3), rnd(3, seed=1)), raise_exception=False) is False


def test_gradcheck_fails_on_a_wrong_unbroadcast(monkeypatch):
    """A gradient that is not summed over the broadcast dim is caught too."""

    def keep_first(grad, shape):
        extra = grad.ndim - len(shape)
        g = grad[(0,) * extra] if extra else grad
        idx = tuple(slice(0, 1) if s == 1 else slice(None) for s in shape)
        return g[idx].reshape(shape)
    monkeypatch.setattr(node, "unbroadcast", keep_first)
    assert gradcheck(torch.add, (rnd(3, 1), rnd(1, 4, seed=1)), raise_exception=False) is False


def test_gradcheck_fails_for_a_wrong_sign(monkeypatch):
    monkeypatch.setattr(ops.SinBackward0, "backward", lambda self, grad, a: -grad * np.cos(a))
    assert not gradcheck(torch.sin, (rnd(4),), raise_exception=False)
    monkeypatch.undo()
    assert gradcheck(torch.sin, (rnd(4),))


# -- where finite differences cannot look: ties, zeros, saturation ---------------------
# Gradients recorded from torch 2.13.0 (float32, out.sum().backward()).
EDGES = [
    ("max_dim_ties_first", lambda z: z.max(1).values, [[1.0, 3.0, 3.0]], [[0.0, 1.0, 0.0]]),
    ("min_dim_ties_first", lambda z: z.min(0).values, [[0.0, 1.0], [0.0, 1.0]], [[1.0, 1.0], [0.0, 0.0]]),
    ("norm_inf_ties", lambda z: z.norm(p=float("inf")), [[-3.0, 3.0, 1.0]], [[-0.5, 0.5, 0.0]]),
    ("norm_at_zero", lambda z: z.norm(), [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
    ("norm_dim_at_zero", lambda z: z.norm(dim=1), [[0.0, 0.0], [3.0, 4.0]],
     [[0.0, 0.0], [0.6000000238418579, 0.800000011920929]]),
    ("norm_p1_at_zero", lambda z: z.norm(p=1), [0.0, -2.0, 2.0], [0.0, -1.0, 1.0]),
    ("sqrt_at_zero", lambda z: z.sqrt(), [0.0, 4.0], [float("inf"), 0.25]),
    ("pow_half_at_zero", lambda z: z ** 0.5, [0.0, 4.0], [float("inf"), 0.25]),
    ("pow_self_at_zero", lambda z: z ** z, [0.0, 2.0], [0.0, 6.772588729858398]),
    ("pow_zero_exponent", lambda z: z ** 0, [0.0, 2.0], [0.0, 0.0]),
    ("log_at_zero", lambda z: z.log(), [0.0, 2.0], [float("inf"), 0.5]),
    ("div_by_zero", lambda z: 1 / z, [0.0, 2.0], [float("-inf"), -0.25]),
    ("mse_equal", lambda z: F.mse_loss(z, torch.tensor([1.0, 2.0])), [1.0, 2.0], [0.0, 0.0]),
    ("sigmoid_saturated", lambda z: z.sigmoid(), [-100.0, 100.0], [0.0, 0.0]),
    ("tanh_saturated", lambda z: z.tanh(), [-30.0, 30.0], [0.0, 0.0]),
    ("index_repeated", lambda z: z[[0, 0, 1]], [1.0, 2.0, 3.0], [2.0, 1.0, 0.0]),
]


@pytest.mark.parametrize("fn, value, expected", [e[1:] for e in EDGES], ids=[e[0] for e in EDGES])
def test_gradient_at_edges_matches_pytorch(fn, value, expected):
    z = torch.tensor(value, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # inf and nan come out silently, as in PyTorch
        fn(z).sum().backward()
    assert z.grad.tolist() == expected
