"""x += y and friends, as PyTorch's: in place for a tensor or a number;
NotImplemented for an array, so that Python falls back to numpy's x + array
and rebinds x, leaving the tensor as it was. Also &, |, ^, <<, >> (integer
kernels only) and remainder's sign of zero. The goldens
inplace_augmented_numpy_operands and ops_bitwise_operators check the same
against torch 2.13."""
import operator

import numpy as np
import pytest

import autograd_teach as torch

AUGMENTED = [(operator.iadd, operator.add), (operator.isub, operator.sub), (operator.imul, operator.mul),
             (operator.itruediv, operator.truediv), (operator.ifloordiv, operator.floordiv),
             (operator.imod, operator.mod), (operator.ipow, operator.pow)]
ARRAYS = [np.array([2.0, 4.0]), np.array([2, 3]), np.array(2.0), np.array([True, False]), np.zeros((0, 2)),
          np.array([2.0, 4.0], dtype=np.float32)]


@pytest.mark.parametrize("iop, op", AUGMENTED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("array", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64], ids=str)
def test_an_array_rebinds_to_numpys_result_and_leaves_the_tensor_alone(iop, op, array, dtype):
    t = torch.tensor([3, 5], dtype=dtype)
    before = t.clone()
    with np.errstate(all="ignore"):
        got = iop(t, array)
        want = op(t, array)      # the operator's fallback: numpy's, by numpy's promotion
    assert got is not t and type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.numpy(), want.numpy(), equal_nan=True)
    assert torch.equal(t, before) and t._version == 0


@pytest.mark.parametrize("name", ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                                  "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"])
def test_each_in_place_operator_declines_an_array_a_list_and_none(name):
    t = torch.tensor([3, 5])
    for other in (np.array([1, 2]), np.array(1), [1, 2], None, "a"):
        assert getattr(t, name)(other) is NotImplemented
    assert t._version == 0


@pytest.mark.parametrize("iop, symbol", [(operator.iadd, "+="), (operator.ipow, "**="), (operator.iand, "&=")])
def test_a_list_is_pythons_type_error(iop, symbol):
    with pytest.raises(TypeError) as e:
        iop(torch.tensor([1, 2]), [1, 2])
    assert str(e.value) == f"unsupported operand type(s) for {symbol}: 'Tensor' and 'list'"


@pytest.mark.parametrize("iop, op", AUGMENTED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("number", [3, np.int64(3), np.float64(2.0), np.float32(0.5)], ids=repr)
def test_a_number_writes_in_place(iop, op, number):
    t = torch.tensor([1.5, -2.0])
    want = op(t.clone(), number)
    got = iop(t, number)
    assert got is t and t._version == 1
    assert np.array_equal(t.numpy(), want.numpy(), equal_nan=True)


def test_a_number_that_cannot_be_cast_is_refused_before_writing():
    t = torch.tensor([3, 4])
    for number in (np.bool_(True), 1.5, np.float64(2.0)):       # numpy's bool is a float to PyTorch
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            t += number
    assert t.tolist() == [3, 4] and t._version == 0


def test_an_array_needs_numpy_which_a_tensor_requiring_grad_refuses():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    for t in (x, y):
        with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
            t += np.array([1.0, 1.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x **= 2


def test_pow_floordiv_mod_write_in_place_with_pytorchs_nodes():
    w = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
    h = w * 2
    kept = h
    h **= 2
    assert h is kept and h.grad_fn.name() == "PowBackward0" and h._version == 1
    h %= 5
    assert h is kept and h.grad_fn.name() == "RemainderBackward0"
    h.sum().backward()
    assert w.grad.tolist() == [12.0, -16.0, 24.0]        # d(2w)^2/dw = 8w; % 5 passes the gradient
    z = w * 1
    z //= 2
    assert z.tolist() == [0.0, -1.0, 1.0] and type(z.grad_fn).__name__ == "NotImplemented"


def test_bitwise_in_place_and_its_dtype_checks():
    m = torch.tensor([True, False])
    kept = m
    m &= torch.tensor([True, True])
    m |= torch.tensor([False, True])
    m ^= True
    assert m is kept and m.tolist() == [False, False] and m._version == 3
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Bool"):
        m |= np.bool_(False)
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        m &= 1
    f = torch.tensor([1.5])
    for iop, kernel in ((operator.iand, "bitwise_and_cpu"), (operator.ixor, "bitwise_xor_cpu"),
                        (operator.ilshift, "lshift_cpu")):
        with pytest.raises(NotImplementedError, match=f"\"{kernel}\" not implemented for 'Float'"):
            iop(f, 1)


def test_bitwise_operators_follow_pytorchs_kernels():
    i8 = torch.tensor([3, 4], dtype=torch.int8)
    assert (i8 & 300).tolist() == [0, 4] and (i8 & 300).dtype == torch.int8       # 300 read as int8: 44
    assert (i8 ^ torch.tensor([1, 2])).dtype == torch.int64
    assert (torch.tensor([True, False]) ^ torch.tensor([1, 2])).tolist() == [0, 2]
    t = torch.tensor([-7, 5])
    assert (t << 1).tolist() == [-14, 10] and (t << 64).tolist() == [0, 0] and (t << -1).tolist() == [0, 0]
    assert (t >> 1).tolist() == [-4, 2] and (t >> 64).tolist() == [-1, 0] and (t >> -1).tolist() == [-1, 0]
    assert (torch.tensor([200], dtype=torch.uint8) >> 8).tolist() == [0]
    assert (2 << torch.tensor([3, 4], dtype=torch.int8)).dtype == torch.int8
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Bool'"):
        torch.tensor([True]) << True
    with pytest.raises(RuntimeError, match="The size of tensor a \\(2\\) must match the size of tensor b \\(3\\)"):
        torch.tensor([1.0, 2.0]) & torch.tensor([1, 2, 3])       # shapes first, then the float refusal


def test_an_in_place_result_of_the_same_kind_is_written_as_pytorch_casts_it():
    u = torch.tensor([200, 3], dtype=torch.uint8)
    u.add_(torch.tensor([-1, 300]))          # int64 into uint8: both integers, wraps around
    assert u.tolist() == [199, 47] and u.dtype == torch.uint8
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Byte"):
        u.add_(torch.tensor([0.5, 0.5]))


def test_remainder_keeps_the_sign_of_a_zero_as_fmod():
    x = torch.tensor([-2.0, 2.0, -4.0, 1.5, -1.5])
    got = (x % 2).numpy()
    assert got.tolist() == [0.0, 0.0, 0.0, 1.5, 0.5]
    assert np.signbit(got).tolist() == [True, False, True, False, False]
    assert np.signbit((x.double() % torch.tensor(-2.0, dtype=torch.float64)).numpy()).tolist() == \
        [True, False, True, True, True]
    assert np.signbit((2 % torch.tensor([-2.0, 1.0])).numpy()).tolist() == [False, False]
