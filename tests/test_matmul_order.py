"""ops/matmul_order.mm adds the K products left to right, each rounded, in
float32 (PyTorch's order for small outputs), whatever the layout of its inputs."""
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


def test_large_outputs_large_k_and_float64_use_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 600)).astype(np.float32), rng.standard_normal((600, 2)).astype(np.float32)
    assert np.array_equal(mm(a, b), a @ b)                   # K > 512: numpy's product
    a, b = rng.standard_normal((4, 40)).astype(np.float32), rng.standard_normal((40, 12)).astype(np.float32)
    assert np.array_equal(mm(a, b), a @ b)                   # 4 x 12 and more: PyTorch's BLAS, as numpy's
    assert not np.array_equal(sequential(a, b), a @ b)       # (where the order shows)
    a64, b64 = a[:, :4].astype(np.float64), b[:4].astype(np.float64)
    assert np.array_equal(mm(a64, b64), a64 @ b64)
    assert mm(np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)).shape == (2, 3)


@pytest.mark.parametrize("k", (17, 64, 512))
def test_small_outputs_are_summed_left_to_right_up_to_k_512(k):
    rng = np.random.default_rng(k)
    for m, n in ((3, 16), (16, 4), (64, 2), (1, 1)):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        assert np.array_equal(mm(a, b), sequential(a, b)), (m, k, n)
