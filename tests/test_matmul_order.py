"""kernels/matmul_order.mm adds the K products in PyTorch's order, whatever the
layout of its inputs and whatever BLAS kernel numpy runs on: left to right,
each rounded, for small outputs; fused multiply-adds as MKL's gemm from 4 x 12
on."""
import numpy as np
import pytest

from autograd_teach.kernels.matmul_order import mm


def sequential(a, b):
    vec = b.ndim == 1
    b2 = b[:, None] if vec else b
    acc = np.zeros((a.shape[0], b2.shape[1]), np.float32)
    for i in range(a.shape[1]):
        acc = (acc + a[:, i:i + 1] * b2[i:i + 1, :]).astype(np.float32)
    return acc[:, 0] if vec else acc


@pytest.mark.parametrize("k", range(2, 17))
def test_small_k_is_summed_left_to_right_in_any_layout(k):
    rng = np.random.default_rng(k)
    for m, n in ((2, 2), (10, 1), (1, 10), (7, 3), (40, None)):
        for transpose_a in (False, True):
            a = rng.standard_normal((m, k)).astype(np.float32)
            if transpose_a:
                a = np.ascontiguousarray(a.T).T
            b = rng.standard_normal((k,) if n is None else (k, n)).astype(np.float32)
            assert np.array_equal(mm(a, b), sequential(a, b)), (m, k, n, transpose_a)


def fused_reference(a, b):
    """Each element's fused multiply-adds, k = 0, 1, ..., in exact rational
    arithmetic, rounded once per step to float32 (ties to even)."""
    from fractions import Fraction
    out = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            acc = np.float32(0)
            for k in range(a.shape[1]):
                exact = Fraction(float(a[i, k])) * Fraction(float(b[k, j])) + Fraction(float(acc))
                acc = round_to_float32(exact)
            out[i, j] = acc
    return out


def round_to_float32(exact):
    from fractions import Fraction
    guess = np.float32(float(exact))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess, np.nextafter(guess, np.float32(np.inf))]
    return min(candidates, key=lambda c: (abs(Fraction(float(c)) - exact), int(c.view(np.int32)) & 1))


@pytest.mark.parametrize("m, k, n", [(4, 5, 12), (8, 17, 12), (12, 24, 13), (5, 20, 12)])
def test_outputs_of_4_x_12_and_more_are_fused_multiply_adds_as_mkl(m, k, n):
    rng = np.random.default_rng(k)
    a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    assert np.array_equal(mm(a, b), fused_reference(a, b))
    assert not np.array_equal(sequential(a, b), mm(a, b))          # (where the order shows)


def test_a_fused_step_rounds_once_where_float64_would_round_twice():
    """1 + 2**-23 + 2**-24 * (1 - 2**-23) lies just below the float32 midpoint
    1 + 3 * 2**-24: one rounding gives 1 + 2**-23 (torch 2.13 does), while
    rounding to float64 first lands on the midpoint and ties to 1 + 2**-22."""
    a = np.full((4, 2), 1 + 2 ** -23, np.float32)
    b = np.tile(np.array([[1.], [2 ** -24 * (1 - 2 ** -23)]], np.float32), (1, 12))
    assert (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)[0, 0] == np.float32(1 + 2 ** -22)
    assert (mm(a, b) == np.float32(1 + 2 ** -23)).all()
    tiny = np.full((4, 3), 1e-30, np.float32), np.full((3, 12), 3e-15, np.float32)   # subnormal float32 sums
    assert np.array_equal(mm(*tiny), fused_reference(*tiny))


def test_mkl_adds_k_in_blocks_of_192():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 400)).astype(np.float32), rng.standard_normal((400, 12)).astype(np.float32)
    blocks = mm(a[:, :192], b[:192]) + mm(a[:, 192:384], b[192:384]) + mm(a[:, 384:], b[384:])
    assert np.array_equal(mm(a, b), blocks)


def test_the_order_does_not_depend_on_numpy_s_blas():
    """The same bits with OPENBLAS_CORETYPE unset and Haswell (whose kernel
    adds in another order than SkylakeX's): the replay never calls BLAS."""
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((8, 40)).astype(np.float32), rng.standard_normal((40, 12)).astype(np.float32)
    assert np.array_equal(mm(a, b), fused_reference(a, b))
    batched = rng.standard_normal((2, 4, 40)).astype(np.float32)
    assert np.array_equal(mm(batched, b), np.stack([fused_reference(x, b) for x in batched]))


def test_large_products_and_float64_use_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 5000)).astype(np.float32), rng.standard_normal((5000, 2)).astype(np.float32)
    assert np.array_equal(mm(a, b[:, 0]), a @ b[:, 0])       # matrix @ vector, K > MAX_STEPS: numpy's product
    assert np.array_equal(mm(a, b), sequential(a, b))        # a small output of 2 columns: in order at any K
    a, b = rng.standard_normal((2, 600)).astype(np.float32), rng.standard_normal((600, 2)).astype(np.float32)
    assert np.array_equal(mm(a, b), sequential(a, b))        # a small output, any K up to MAX_STEPS
    a64, b64 = a[:, :4].astype(np.float64), b[:4].astype(np.float64)
    assert np.array_equal(mm(a64, b64), a64 @ b64)
    assert mm(np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)).shape == (2, 3)


@pytest.mark.parametrize("k", (17, 64, 300))
def test_small_outputs_are_summed_left_to_right(k):
    rng = np.random.default_rng(k)
    for m, n in ((3, 16), (16, 4), (64, 2), (1, 1)):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        assert np.array_equal(mm(a, b), sequential(a, b)), (m, k, n)
