"""numpy scalars on either side of every binary operator give a Tensor, the
same one the equal Python number gives (PyTorch's Tensor sets
__array_priority__ = 1000, so numpy defers to it; we do the same). The
golden misuse_numpy_interop checks the same programs against torch 2.13."""
import operator
import re

import numpy as np
import pytest

import autograd_teach as torch

OPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
       operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
SCALARS = [(np.float64(2.5), 2.5), (np.float32(2.5), 2.5), (np.float16(0.5), 0.5), (np.int64(3), 3),
           (np.int32(3), 3), (np.uint8(3), 3), (np.sqrt(2.0), float(np.sqrt(2.0))), (np.bool_(True), 1.0)]


@pytest.mark.parametrize("op", OPS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("scalar, number", SCALARS, ids=lambda v: repr(v))
@pytest.mark.parametrize("left", [True, False], ids=["numpy-left", "numpy-right"])
def test_a_numpy_scalar_acts_as_the_python_number(op, scalar, number, left):
    x = torch.tensor([0.5, 1.0, 4.0], requires_grad=True)
    got = op(scalar, x) if left else op(x, scalar)
    want = op(number, x) if left else op(x, number)
    assert type(got) is torch.Tensor
    assert got.dtype == want.dtype
    assert np.array_equal(got.detach().numpy(), want.detach().numpy())
    assert type(got.grad_fn) is type(want.grad_fn)


def test_the_gradient_flows_through_numpy_scalars_on_the_left():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (np.sqrt(4.0) * x + np.float32(3) * x * x).sum().backward()
    assert x.grad.tolist() == [8.0, 14.0]


@pytest.mark.parametrize("op", [operator.sub, operator.mul, operator.pow, operator.matmul],
                         ids=lambda f: f.__name__)
def test_a_numpy_array_on_the_left_is_refused_as_in_pytorch(op):
    with pytest.raises(TypeError, match="^unsupported operand type"):
        op(np.array([1.0, 2.0]), torch.ones(2))


def test_numpy_functions_of_a_tensor_give_a_tensor():
    t = torch.tensor([1.0, 4.0])
    assert type(np.sqrt(t)) is torch.Tensor and np.sqrt(t).tolist() == [1.0, 2.0]
    assert np.greater(t, 2).dtype == torch.uint8            # bools as uint8, as PyTorch's __array_wrap__
    assert type(t @ np.array([1.0, 1.0])) is torch.Tensor
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor that requires grad"):
        np.sqrt(torch.ones(2, requires_grad=True))


ARITHMETIC = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
              operator.pow, operator.and_, operator.or_, operator.matmul]


@pytest.mark.parametrize("op", ARITHMETIC, ids=lambda f: f.__name__)
@pytest.mark.parametrize("array", [np.array([1.0, 2.0]), np.array(2.0)], ids=["1-d", "0-d"])
def test_an_array_operand_of_a_tensor_that_requires_grad_is_pytorchs_numpy_error(op, array):
    # PyTorch's operator refuses the array, numpy takes over and asks the tensor
    # for its values: no AddBackward0, numpy()'s RuntimeError instead
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor that requires grad\. "
                                           r"Use tensor\.detach\(\)\.numpy\(\) instead\.$"):
        op(x, array)


def test_under_no_grad_a_tensor_that_requires_grad_hands_out_its_array():
    # PyTorch refuses numpy() only while grad mode is on: under no_grad (and
    # inference_mode) the array comes out, so x + array is numpy's sum
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    for mode in (torch.no_grad, torch.inference_mode):
        with mode():
            assert x.numpy() is x.detach().numpy() and (x + np.array([1.0, 1.0])).tolist() == [2.0, 3.0]
            assert (x + np.array([1.0, 1.0])).dtype == torch.float64 and np.sqrt(x).tolist()[0] == 1.0
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor"):
        x.numpy()


@pytest.mark.parametrize("other", [[1, 2], "a", None, (1, 2), {1: 2}, object()], ids=repr)
def test_equality_with_what_is_no_tensor_nor_number_is_pythons_identity(other):
    # PyTorch's == refuses them (NotImplemented): Python's fallback compares
    # identities, False (!= True), where the method eq() is a TypeError
    x = torch.tensor([1.0, 2.0])
    assert (x == other) is False and (other == x) is False and (x != other) is True
    with pytest.raises(TypeError):
        x.eq(other)
    assert (x == np.float32(1)).tolist() == [True, False] and (x == np.array([1.0, 2.0])).tolist() == [True, True]


def test_an_array_divided_by_a_tensor_that_requires_grad_is_the_same_error():
    # x.__rtruediv__ is x.reciprocal() * array in PyTorch: numpy's product again
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor"):
        np.array([1.0, 2.0]) / torch.ones(2, requires_grad=True)
    assert (np.array([1.0, 2.0]) / torch.tensor([4.0, 8.0])).tolist() == [0.25, 0.25]


@pytest.mark.parametrize("tensor, array, dtype", [
    (torch.tensor([1.5, -2.0]), np.array([2.0, 4.0]), torch.float64),            # numpy: float32 + float64
    (torch.tensor([1.5, -2.0]), np.array(2.0), torch.float64),                   # a 0-d array is no Python number
    (torch.tensor([1.5, -2.0]), np.array([2, 3]), torch.float64),                # numpy: float32 + int64
    (torch.tensor([1.5, -2.0]), np.array([2.0, 4.0], dtype=np.float32), torch.float32),
    (torch.tensor([1.5, -2.0]), np.array([True, False]), torch.float32),
    (torch.tensor([3, -2]), np.array([2.0, 4.0]), torch.float64),
    (torch.tensor([3, -2], dtype=torch.int32), np.array([2, 3], dtype=np.uint8), torch.int32),
    (torch.tensor(2.5), np.array([2.0, 4.0], dtype=np.float32), torch.float32),
    (torch.tensor([1.5, -2.0], dtype=torch.float16), np.array([2, 3], dtype=np.int64), torch.float64)])
def test_without_grad_the_result_is_numpys_wrapped_as_a_tensor(tensor, array, dtype):
    got = tensor + array
    assert type(got) is torch.Tensor and got.dtype is dtype and got.grad_fn is None
    assert np.array_equal(got.numpy(), np.add(tensor.numpy(), array))
    assert (tensor * array).dtype is dtype and (tensor - array).dtype is dtype


def test_integer_division_and_bool_results_follow_numpy():
    i = torch.tensor([3, -2])
    assert (i / np.array([2, 4])).dtype is torch.float64                    # PyTorch alone would give float32
    b = torch.tensor([True, False])
    assert (b & np.array([True, True])).dtype is torch.uint8                # PyTorch's __array_wrap__: bool as uint8
    with pytest.raises(TypeError, match="^numpy boolean subtract"):
        b - np.array([True, False])


def test_comparisons_with_an_array_are_as_in_pytorch():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    same = x == np.array([1.0, 3.0])        # the one operator that reads the array as a tensor
    assert same.dtype is torch.bool and same.tolist() == [True, False] and same.grad_fn is None
    assert (x != np.array([1.0, 3.0])) is True     # refused both ways: Python's identity fallback
    for op, sign in ((operator.lt, "<"), (operator.ge, ">=")):
        with pytest.raises(TypeError, match=f"^'{sign}' not supported between instances of 'Tensor' and "
                                            "'numpy.ndarray'$"):
            op(x, np.array([1.0, 3.0]))


@pytest.mark.parametrize("other", [[1, 2], (1, 2), None, "a"], ids=lambda v: type(v).__name__)
def test_an_operand_that_is_no_number_is_pythons_type_error(other):
    x = torch.ones(2)
    for op, sign in ((operator.add, "+"), (operator.sub, "-"), (operator.truediv, "/"), (operator.and_, "&")):
        with pytest.raises(TypeError, match=re.escape(f"unsupported operand type(s) for {sign}: 'Tensor' and "
                                                      f"'{type(other).__name__}'")):
            op(x, other)


def test_the_usual_operands_keep_their_nodes():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    for y, name in ((x + 2, "AddBackward0"), (2 + x, "AddBackward0"), (x * x, "MulBackward0"),
                    (x - 1, "SubBackward0"), (2 - x, "RsubBackward1"), (2 / x, "MulBackward0"),
                    (x ** 2, "PowBackward0"), (2 ** x, "PowBackward2"), (x / np.float32(2), "DivBackward0"),
                    (x % 2, "RemainderBackward0"), (np.float64(3) * x, "MulBackward0"), (x < 1.5, None)):
        assert (y.grad_fn and y.grad_fn.name()) == name
    with pytest.raises(RuntimeError, match="^Subtraction, the `-` operator, with a bool tensor"):
        x - True
