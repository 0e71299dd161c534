"""numpy scalars on either side of every binary operator give a Tensor, the
same one the equal Python number gives (PyTorch's Tensor sets
__array_priority__ = 1000, so numpy defers to it; we do the same). The
golden misuse_numpy_interop checks the same programs against torch 2.13."""
import operator

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
