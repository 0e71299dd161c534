"""autograd_teach's float32 results are PyTorch's, bit for bit, nearly always.

tests/golden/float32.json holds PyTorch 2.13's outputs and gradients for every
case of tests/golden/float32_cases.py (scripts/record_float32_goldens.py).
Here the same cases run on autograd_teach and:

- per op, the number of bit-identical elements must not fall below what was
  achieved (FLOORS; docs/float32.md has the table, made by
  benchmarks/float32_bits.py);
- every array must print as PyTorch prints it, except the few listed in
  PRINTS_DIFFERENTLY, where PyTorch's result comes from MKL (its own sqrt and
  cos), which numpy cannot replay.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.kernels import float32 as F

GOLDEN = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("float32_cases", GOLDEN / "float32_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

_DATA = json.loads((GOLDEN / "float32.json").read_text())
GRIDS = {k: C.decode(v) for k, v in _DATA["grids"].items()}
CASES = list(zip(C.cases(), _DATA["cases"]))

# op: (identical output elements, identical gradient elements), as achieved
# (the totals are in docs/float32.md). Raise a floor when you raise the share.
FLOORS = {
    "exp": (251, 253), "sin": (243, 244), "cos": (242, 246), "tanh": (256, 256), "sigmoid": (244, 244),
    "relu": (256, 256), "abs": (256, 256), "neg": (256, 256), "square": (256, 256), "pow3": (256, 256),
    "pow-2": (256, 255), "reciprocal": (256, 256), "2/x": (256, 256), "2-x": (256, 256), "2**x": (254, 254),
    "x*0.1": (256, 256), "x/3": (256, 256), "x+0.1": (256, 256), "clamp": (256, 256), "exp().log()": (253, 255),
    "log": (245, 256), "sqrt": (217, 224), "pow0.5": (217, 256), "pow1.5": (252, 223), "add": (256, 512),
    "sub": (256, 512), "mul": (256, 512), "div": (256, 512), "add alpha": (256, 512), "sub alpha": (256, 512),
    "pow": (190, 375), "sum": (21, 996), "mean": (21, 996), "norm": (21, 996), "dot": (5, 1992),
    "mse_loss": (21, 1992), "bce_with_logits": (21, 991), "sum(dim=1)": (132, 1106), "sum(dim=0)": (143, 1106),
    "mean(dim=1)": (132, 1106), "mean(dim=0)": (143, 1106), "mv": (99, 1249), "mm": (396, 1535),
    "softmax(dim=1)": (1106, 1106), "softmax(dim=0)": (1034, 1035), "log_softmax(dim=1)": (1104, 1106),
    "log_softmax(dim=0)": (1100, 1091), "cross_entropy": (12, 1456),
}

# (op, input shapes, which array): printed differently from PyTorch at the
# default precision, each for a reason numpy cannot reach (see the module doc).
PRINTS_DIFFERENTLY = {
    ("cos", ((256,),), "out"),                    # MKL's cos: one element a last bit apart, 0.4361 vs 0.4362
    ("pow1.5", ((256,),), "grad 0"),              # the gradient uses MKL's sqrt
}


def _case_key(case):
    name, _, specs = case
    return name, tuple(tuple(shape) for _, shape, _ in specs)


@pytest.fixture(scope="module")
def results():
    """Every case run once: [(case, golden record, our output, our grads)]."""
    out = []
    with np.errstate(all="ignore"):   # the grids hold inf and nan on purpose
        for case, want in CASES:
            got, grads = C.run_case(torch, case, GRIDS)
            out.append((case, want, got, grads))
    return out


def _arrays(want, got, grads):
    """(label, ours, PyTorch's) for the output and each gradient PyTorch gave."""
    yield "out", got, C.decode(want["out"], want["shape"])
    for i, (g, w) in enumerate(zip(grads, want["grads"])):
        if w is not None:
            assert g is not None, f"PyTorch gives input {i} a gradient"
            yield f"grad {i}", g, C.decode(w, g.shape)


def test_golden_matches_the_cases():
    assert [c[0] for c, _ in CASES] == [w["name"] for _, w in CASES], "float32.json is stale: make goldens"
    assert set(FLOORS) == {c[0] for c, _ in CASES}


@pytest.mark.parametrize("op", list(FLOORS))
def test_share_of_identical_bits_does_not_fall(op, results):
    fwd = bwd = 0
    for case, want, got, grads in results:
        if case[0] != op:
            continue
        for label, ours, theirs in _arrays(want, got, grads):
            same = int(C.same_bits(ours, theirs).sum())
            if label == "out":
                fwd += same
            else:
                bwd += same
    assert fwd >= FLOORS[op][0] and bwd >= FLOORS[op][1], (
        f"{op}: {fwd} output and {bwd} gradient elements identical to PyTorch's, floor {FLOORS[op]}")


def test_every_array_prints_as_pytorch_prints_it(results):
    differ = set()
    for case, want, got, grads in results:
        for label, ours, theirs in _arrays(want, got, grads):
            if repr(torch.from_numpy(ours)) != repr(torch.from_numpy(theirs)):
                differ.add(_case_key(case) + (label,))
    # exactly the known ones: a new one is a regression, a fixed one belongs out of the list
    assert differ == PRINTS_DIFFERENTLY


def test_exp_then_log_prints_integers_as_pytorch_does():
    # the example of the issue: PyTorch prints tensor([1., 2., 4.])
    x = torch.tensor([1.0, 2.0, 4.0])
    assert repr(x.exp().log()) == "tensor([1., 2., 4.])"
    assert x.exp().log().tolist() == [1.0, 2.0, 4.0]


# -- the helpers, on their own -------------------------------------------------------

def _sequential(xs):
    acc = np.float32(0)
    for v in xs:
        acc = np.float32(acc + v)
    return acc


@pytest.mark.parametrize("n", [1, 3, 7, 8, 9, 15, 31, 32, 33, 100])
def test_cascade_sum_short_rows_follow_pytorchs_order(n):
    # below 4 vectors of 8 lanes: lane j sums x[j], x[j+8], ... in turn; the
    # tail after the last full vector comes first, then the lanes in order
    x = (np.random.default_rng(n).standard_normal(n) * 10).astype(np.float32)
    v = n // 8 * 8
    if n < 8:
        m = n // 4   # scalar path: 4 accumulators, leftovers into the first
        parts = [_sequential(x[k:4 * m:4]) for k in range(4)]
        parts[0] = _sequential([parts[0], *x[4 * m:]])
        want = _sequential(parts)
    else:
        lanes = [_sequential(x[j:v:8]) for j in range(8)] if v < 32 else None
        want = _sequential([*x[v:], *lanes]) if lanes is not None else None
    got = F.cascade_sum(x)
    if want is not None:
        assert got.view(np.uint32) == np.float32(want).view(np.uint32)
    assert abs(float(got) - float(x.astype(np.float64).sum())) <= 1e-5 * float(np.abs(x).sum())


def test_cascade_sum_shapes_and_dtypes():
    rng = np.random.default_rng(0)
    for shape in [(5,), (3, 4), (2, 3, 20), (70, 9), (9, 70), (1, 1)]:
        x = rng.standard_normal(shape).astype(np.float32)
        for axis in [None, *range(len(shape))]:
            for keepdims in (False, True):
                got = F.cascade_sum(x, axis, keepdims)
                want = x.astype(np.float64).sum(axis=axis, keepdims=keepdims)
                assert got.shape == want.shape and got.dtype == np.float32
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # several axes, ints, empty, 0-d and the huge keep numpy's sum
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    assert F.cascade_sum(x, (0, 2)).shape == (4,)
    assert F.cascade_sum(np.arange(5), None) == 10
    assert F.cascade_sum(np.zeros((0, 3), np.float32), 0).tolist() == [0, 0, 0]
    assert F.cascade_sum(np.float32(2.5)) == 2.5
    assert F.cascade_sum(np.ones(F.GRAIN, np.float32)) == F.GRAIN


def test_negative_zero_sums_to_zero_as_in_pytorch():
    # PyTorch adds into a zero-filled output: the sum of [-0.] is 0., not -0.
    assert repr(torch.tensor([-0.0]).sum()) == "tensor(0.)"
    assert repr(torch.tensor([[-0.0, -0.0]]).sum(dim=1)) == "tensor([0.])"


def test_float64_is_left_to_numpy_and_float64_math():
    x = np.array([0.5, 1.5, 3.0])
    assert F.via_float64(np.exp, x).dtype == np.float64
    assert np.array_equal(F.via_float64(np.exp, x), np.exp(x))
    assert F.power(np.array([2.0, 3.0]), 3).tolist() == [8.0, 27.0]
    assert F.power(np.array([2, 3]), 2).dtype.kind == "i"     # integer powers stay integers
    assert F.add_scaled(np.array([1, 2]), 2, np.array([3, 4])).tolist() == [7, 10]


def test_special_cased_exponents_as_pytorch_computes_them():
    x = np.array([0.1, 1.7, 3.3, 7.9], np.float32)
    assert np.array_equal(F.power(x, 3), x * x * x)
    assert np.array_equal(F.power(x, -2), 1 / (x * x))
    assert np.array_equal(F.power(x, 0.5), np.sqrt(x))
    assert np.array_equal(F.power(x, -0.5), 1 / np.sqrt(x))
    assert np.array_equal(F.power(x, 1.5), (x.astype(np.float64) ** 1.5).astype(np.float32))


def test_fused_multiply_add_rounds_once():
    # 1 - r*r with r = 1 - 2**-23: r*r rounds to 1 - 2**-22 in float32, so a
    # rounded product gives 2**-22; the exact 2**-22 - 2**-46 is a float32
    r = np.array([1 - 2 ** -23], np.float32)
    assert F.one_minus_square(r)[0] == np.float32(2 ** -22 - 2 ** -46)
    assert (1 - r * r)[0] == np.float32(2 ** -22)


def test_sleef_exp_is_within_one_ulp_and_handles_the_ends():
    # PyTorch's log_softmax kernel uses SLEEF's expf (nn_mlp_sgd_adam's golden depends on its bits)
    x = np.linspace(-80, 80, 100001, dtype=np.float32)
    ours = F.sleef_exp(x)
    exact = np.exp(x.astype(np.float64))
    ulp = np.spacing(exact.astype(np.float32)).astype(np.float64)
    assert ours.dtype == np.float32 and np.all(np.abs(ours - exact) <= ulp)
    assert not np.array_equal(ours, exact.astype(np.float32))   # not the correctly rounded exp
    ends = F.sleef_exp(np.array([-200.0, 0.0, 100.0, np.inf, -np.inf, np.nan], np.float32))
    assert ends[:5].tolist() == [0.0, 1.0, np.inf, np.inf, 0.0] and np.isnan(ends[5])
    x64 = np.array([0.5, -1.0])
    assert np.array_equal(F.sleef_exp(x64), np.exp(x64))


def _aten_nll_sum(terms, keep):
    """ATen's nll_loss_out_frame loop, line for line (the reference for F.loss_cascade_sum)."""
    n, levels = len(terms), [np.float32(0)] * 8
    power = max(4, int(np.ceil(np.log2(n))) // 8) if n > 1 else 4
    mask = (1 << power) - 1
    for b in range(n):
        if not keep[b]:
            continue
        levels[0] = levels[0] + terms[b]
        for j in range(7):
            if b & (mask << (j * power)):
                break
            levels[j + 1], levels[j] = levels[j + 1] + levels[j], np.float32(0)
    total = np.float32(0)
    for level in levels:
        total = total + level
    return total


def _aten_map_reduce_all(e):
    """vec::map_reduce_all over one row with 16 float32 lanes, line for line."""
    lanes, n = 16, len(e)
    if n < lanes:
        acc = e[0]
        for i in range(1, n):
            acc = acc + e[i]
        return acc
    acc = e[:lanes].copy()
    d = lanes
    while d < n - n % lanes:
        acc = acc + e[d:d + lanes]
        d += lanes
    if n - d > 0:
        acc[:n - d] = acc[:n - d] + e[d:]
    for shift in (8, 4, 2, 1):        # the shuffles: lane i + lane i ^ shift
        acc = acc + acc[np.arange(lanes) ^ shift]
    return acc[0]


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 31, 33, 100, 255, 256, 257, 1000])
def test_the_loss_sum_and_the_softmax_sum_follow_atens_loops(n):
    rng = np.random.default_rng(n)
    terms = (rng.standard_normal(n) * 1e3 ** rng.integers(-2, 3, n)).astype(np.float32)
    for keep in (np.ones(n, bool), rng.random(n) < 0.7):
        got, want = F.loss_cascade_sum(terms, keep), _aten_nll_sum(terms, keep)
        assert got.dtype == np.float32 and got.tobytes() == np.float32(want).tobytes()
    if n:
        rows = np.stack([terms, terms[::-1], np.roll(terms, 3)])
        want = np.array([_aten_map_reduce_all(r) for r in rows], np.float32)
        assert F.vec_sum_lastdim(rows).tobytes() == want.tobytes()
