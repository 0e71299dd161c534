"""Tiny matrix products (K up to 3, small outputs: the per-op chain's 2x2
`y @ w`) and their backward give PyTorch 2.13's bits, in float32, float64 and
ints, for row-major, transposed and strided operands, with -0.0, inf, nan,
denormals and cancelling products (tests/golden/small_mm.json, recorded by
scripts/record_small_mm_goldens.py; NaNs match any NaN, see same_bits)."""
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import kernels
from autograd_teach.kernels import matmul_order

GOLDEN = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("small_mm_cases", GOLDEN / "small_mm_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

_DATA = json.loads((GOLDEN / "small_mm.json").read_text())
CASES = list(zip(C.cases(), _DATA["cases"]))


def expected(record):
    """{name: PyTorch's array} of a golden record."""
    out = {}
    for name, enc in record["results"].items():
        out[name] = out[enc["same_as"]] if "same_as" in enc else C.decode(enc)
    return out


def operands(case, record):
    """x, w, g as numpy arrays in the case's layouts (views of their leaves' data, as the tensors are)."""
    arrays = [C.decode(e) for e in record["inputs"]]
    return [C.view(C.leaf_data(a, lay), lay) for a, lay in zip(arrays, case[2])]


# The product each result comes from, (m, K, n), from the case's x @ w shape
PRODUCTS = {"out": lambda m, k, n: (m, k, n),
            "x.grad": lambda m, k, n: (m, n, k), "g @ w.t()": lambda m, k, n: (m, n, k),
            "w.grad": lambda m, k, n: (k, m, n), "x.t() @ g": lambda m, k, n: (k, m, n)}


def claimed_exact(dtype, name, shape):
    """Where kernels/matmul_order.py replays PyTorch's small-K loop: float32 with
    K up to 3, float64 with K up to 2, an output under 4 x 12 (or K = 1); ints
    everywhere. Elsewhere (longer K, BLAS's float64) the bits are close, not claimed."""
    m, k, n = PRODUCTS[name](*shape)
    if dtype.startswith("int"):
        return True
    return k <= (3 if dtype == "float32" else 2) and (m < 4 or n < 12 or k <= 1)


def agrees(dtype, name, shape, got, want):
    if claimed_exact(dtype, name, shape):
        return C.same_bits(got, want)
    tol = 1e-5 if dtype == "float32" else 1e-12    # (atol: a cancelling sum is near 0, its error is not)
    finite = np.abs(want[np.isfinite(want)])
    atol = tol * (finite.max() if finite.size else 0)
    return got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=atol, equal_nan=True)


def test_golden_matches_the_cases():
    assert [[c[0], list(c[1]), c[2], c[3]] for c, _ in CASES] == [r["case"] for _, r in CASES], \
        "small_mm.json is stale: python scripts/record_small_mm_goldens.py"


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32"])
def test_forward_and_backward_are_pytorch_s_bits(dtype):
    """The whole path: Tensor.__matmul__, MmBackward0's forward and backward, the engine."""
    bad = []
    with np.errstate(all="ignore"):
        for case, record in CASES:
            if case[0] != dtype:
                continue
            got = C.run_case(torch, case, [C.decode(e) for e in record["inputs"]])
            want = expected(record)
            assert set(got) == set(want)
            bad += [(case, name) for name in want if not agrees(dtype, name, case[1], got[name], want[name])]
    assert not bad, f"{len(bad)} results differ from PyTorch's, e.g. {bad[:5]}"


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32"])
def test_the_kernels_alone_are_pytorch_s_bits_and_row_major(dtype):
    """kernels.mm and mm_backward (grad @ w.T, x.T @ grad) on the layouts the backward hands them."""
    bad = []
    with np.errstate(all="ignore"):
        for case, record in CASES:
            if case[0] != dtype:
                continue
            x, w, g = operands(case, record)
            want = expected(record)
            products = (kernels.mm(x, w), *kernels.mm_backward(g, x, w))
            for name, got in zip(("out", "g @ w.t()", "x.t() @ g"), products):
                row_major = got.flags.c_contiguous or not claimed_exact(dtype, name, case[1])
                if not (agrees(dtype, name, case[1], got, want[name]) and row_major):
                    bad.append((case, name))
    assert not bad, f"{len(bad)} products differ from PyTorch's, e.g. {bad[:5]}"


def test_the_exact_cases_are_most_of_the_golden():
    exact = sum(claimed_exact(c[0], name, c[1]) for c, r in CASES for name in r["results"])
    assert exact > 0.7 * sum(len(r["results"]) for _, r in CASES)


def test_the_golden_tells_the_orders_apart():
    """The recorded bits are not those of a fused multiply-add order (BLAS's
    kernels, whose bits change with the CPU), nor of an unfused sum that
    keeps -0.0 where PyTorch starts from +0: these tests can fail."""
    fused = signed_zero = 0
    with np.errstate(all="ignore"):
        for case, record in CASES:
            if case[0] != "float32" or case[1][1] < 2:
                continue
            x, w, _ = operands(case, record)
            want = expected(record)["out"]
            fused += not C.same_bits(matmul_order.fused_sum(x, w), want)
            naive = x[:, 0:1] * w[0:1]
            for i in range(1, x.shape[1]):
                naive = naive + x[:, i:i + 1] * w[i:i + 1]
            signed_zero += not C.same_bits(naive, want)
    assert fused > 50 and signed_zero > 5, (fused, signed_zero)


def test_k_of_1_keeps_minus_zero_only_where_pytorch_does():
    """K = 1: PyTorch's product is an outer product (-0.0 stays) unless the
    output is one row or one column, where it adds to +0."""
    minus = np.full((3, 1), -0.0, np.float32)
    ones = np.ones((1, 4), np.float32)
    assert np.signbit(kernels.mm(minus, ones)).all()
    assert not np.signbit(kernels.mm(minus[:1], ones)).any()
    assert not np.signbit(kernels.mm(minus, ones[:, :1])).any()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("m, k, n", [(2, 2, 2), (3, 3, 3), (2, 5, 3), (4, 2, 12), (1, 2, 2)])
def test_mm_backward_skips_what_is_not_needed_and_is_mm_on_the_transposes(dtype, m, k, n):
    """x @ w with a constant x saves no w (w is needed only for x's gradient): None in, None out."""
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    x, w, g = (rng.integers(-9, 9, size=s).astype(dtype) * (0.37 if dtype != np.int64 else 1)
               for s in ((m, k), (k, n), (m, n)))
    both = kernels.mm_backward(g, x, w)
    assert C.same_bits(both[0], kernels.mm(g, w.T)) and C.same_bits(both[1], kernels.mm(x.T, g))
    only_w = kernels.mm_backward(g, x, None)
    assert only_w[0] is None and C.same_bits(only_w[1], both[1])
    only_x = kernels.mm_backward(g, None, w)
    assert only_x[1] is None and C.same_bits(only_x[0], both[0])


def test_a_constant_operand_gets_no_gradient_and_the_other_the_same():
    for x_grad, w_grad in ((True, False), (False, True)):
        x = torch.tensor([[0.3, 0.5], [0.1, -0.7]], requires_grad=x_grad)
        w = torch.tensor([[0.9, 0.2], [-0.4, 0.6]], requires_grad=w_grad)
        (x @ w @ w).sum().backward()
        assert (x.grad is None) != x_grad and (w.grad is None) != w_grad
    x, w = torch.tensor([[0.3, 0.5], [0.1, -0.7]], requires_grad=True), torch.tensor([[0.9, 0.2], [-0.4, 0.6]])
    (x @ w).sum().backward()
    assert C.same_bits(x.grad.numpy(), kernels.mm(np.ones((2, 2), np.float32), w.numpy().T))


def test_the_tiny_product_raises_no_floating_point_warning(monkeypatch):
    """ops/fast_paths.py calls the tiny product's einsum without silencing numpy
    only if this numpy's einsum was seen to set no floating-point flag on overflow,
    inf * 0 and NaN (a @ b warns of each; numpy 2.4's einsum checks none): either
    way nothing warns, and the bits are kernels.mm's."""
    from autograd_teach.ops import fast_paths
    x = np.array([[3e38, np.inf], [1e-45, np.nan]], np.float32)
    w = np.array([[3e38, 0.0], [np.inf, -np.inf]], np.float32)
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError):
            np.matmul(x[:, :1], w[:1])
        try:
            matmul_order.c_einsum("ik,kj->ij", x, w, order="C")
            silent = True
        except FloatingPointError:
            silent = False
    assert matmul_order.EINSUM_IS_SILENT == silent
    for called_straight in (silent, False):    # the probe's answer, and the quiet switch whatever it was
        monkeypatch.setattr(fast_paths, "EINSUM_IS_SILENT", called_straight)
        with np.errstate(all="raise"):
            out = torch.tensor(x) @ torch.tensor(w, requires_grad=True)
        assert C.same_bits(out.detach().numpy(), kernels.mm(x, w)) and out.grad_fn.name() == "MmBackward0"
