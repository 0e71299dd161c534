"""nan_to_num and nan_to_num_: gradients checked numerically, the points it
replaces (gradient 0 there), every dtype, in place, and PyTorch's argument
errors. Every expectation was checked against torch 2.13 (this file runs
unchanged with `import torch`)."""
import math

import numpy as np
import pytest

import autograd_teach as torch
import autograd_teach.autograd.forward_ad as fwAD

NAN, INF = float("nan"), float("inf")


def f64(*values, requires_grad=True):
    return torch.tensor(values, dtype=torch.float64, requires_grad=requires_grad)


def same(t, expected):
    """Equal element by element, NaN equal to NaN and the sign of 0 compared."""
    return str(t.tolist()) == str(expected)


def test_gradients_where_finite_match_finite_differences():
    x = torch.tensor(np.random.default_rng(0).standard_normal((3, 4)), dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.nan_to_num(), (x,))
    assert torch.autograd.gradcheck(lambda t: torch.nan_to_num(t * 3, nan=1.0, posinf=2.0, neginf=-2.0), (x,))
    assert torch.autograd.gradgradcheck(lambda t: (t * t).nan_to_num(), (x,))
    assert torch.autograd.gradcheck(lambda t: (t * 1).nan_to_num_(), (x,))


def test_the_gradient_is_zero_where_the_input_was_not_finite():
    x = f64(1.5, NAN, INF, -INF, -0.0)
    y = x.nan_to_num()
    assert y.grad_fn.name() == "NanToNumBackward0" and y.grad_fn._saved_self is x
    y.backward(f64(1.0, 2.0, 3.0, -4.0, 5.0, requires_grad=False))
    assert same(x.grad, [1.0, 0.0, 0.0, -0.0, 5.0])       # grad * isfinite(self): -4 * 0 is -0


def test_a_nan_gradient_survives_at_a_replaced_point():
    # PyTorch multiplies by isfinite(self) rather than choosing: NaN * 0 is NaN
    x = torch.tensor([1.0, NAN, INF, -INF], requires_grad=True)
    x.nan_to_num().backward(torch.tensor([NAN, NAN, -2.0, INF]))
    assert same(x.grad, [NAN, NAN, -0.0, NAN])


@pytest.mark.parametrize("dtype,largest", [(torch.float16, 65504.0), (torch.float32, 3.4028234663852886e38),
                                           (torch.float64, 1.7976931348623157e308)])
def test_defaults_are_zero_and_the_dtypes_extremes(dtype, largest):
    x = torch.tensor([NAN, INF, -INF, 2.5, -0.0], dtype=dtype)
    y = torch.nan_to_num(x)
    assert y.dtype is dtype and same(y, [0.0, largest, -largest, 2.5, -0.0])


def test_replacements_are_cast_to_the_dtype_as_pytorch_casts_them():
    half = torch.tensor([NAN, INF, -INF], dtype=torch.float16)
    assert same(half.nan_to_num(nan=1e-8, posinf=65519.0, neginf=-1e300), [0.0, 65504.0, -INF])
    assert same(half.nan_to_num(posinf=2049.0000001), [0.0, 2048.0, -65504.0])     # rounded via float32
    assert same(torch.tensor([INF, NAN]).nan_to_num(posinf=1e39, nan=0.1), [INF, 0.10000000149011612])
    assert same(torch.tensor([INF, NAN]).nan_to_num(posinf=NAN, nan=INF), [NAN, INF])
    assert same(f64(NAN, INF, -INF, requires_grad=False).nan_to_num(2, True, -1), [2.0, 1.0, -1.0])


def test_integer_and_bool_tensors_come_back_as_a_copy():
    for t in (torch.tensor([1, 0, 2]), torch.tensor([1, 0, 2], dtype=torch.uint8), torch.tensor([True, False])):
        y = torch.nan_to_num(t, nan=5.7, posinf=1e10)
        assert y is not t and y.dtype is t.dtype and y.tolist() == t.tolist()
        y[0] = 0
        assert t[0].item() == 1
    i = torch.tensor([1, 2])
    assert i.nan_to_num_(nan=1.5) is i and i._version == 1 and i.tolist() == [1, 2]


def test_empty_and_zero_dim():
    assert repr(torch.nan_to_num(torch.empty(0, 3))) == "tensor([], size=(0, 3))"
    s = torch.tensor(NAN, requires_grad=True)
    y = s.nan_to_num(nan=4.0)
    assert y.shape == () and y.item() == 4.0
    y.backward()
    assert s.grad.item() == 0.0
    e = torch.empty(0, dtype=torch.float64, requires_grad=True)
    e.nan_to_num().sum().backward()
    assert e.grad.shape == (0,)


def test_in_place_on_a_leaf_that_requires_grad_is_refused():
    a = torch.tensor([NAN, 1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in an in-place"):
        a.nan_to_num_()
    with torch.no_grad():
        assert a.nan_to_num_() is a
    assert same(a.detach(), [0.0, 1.0]) and a.grad_fn is None and a.requires_grad


def test_in_place_inside_a_graph_and_through_a_view():
    a = torch.tensor([NAN, 1.0, -INF], requires_grad=True)
    b = a * 1
    assert b.nan_to_num_(nan=7.0) is b
    assert same(b.detach(), [7.0, 1.0, -3.4028234663852886e38]) and b._version == 1
    assert b.grad_fn.name() == "NanToNumBackward0"
    b.sum().backward()
    assert same(a.grad, [0.0, 1.0, 0.0])         # the rule reads self as it was before the write
    v = torch.tensor([NAN, 2.0], requires_grad=True).clone()
    v[:1].nan_to_num_()
    assert v.grad_fn.name() == "torch::autograd::CopySlices" and same(v.detach(), [0.0, 2.0])


def test_no_grad_records_nothing():
    x = torch.tensor([NAN, 1.0], requires_grad=True)
    with torch.no_grad():
        y = x.nan_to_num()
    assert y.grad_fn is None and not y.requires_grad


def test_forward_mode_and_double_backward():
    x, v = f64(NAN, 2.0, INF), f64(1.0, 3.0, 5.0, requires_grad=False)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(fwAD.make_dual(x.detach(), v).nan_to_num()).tangent
    assert same(tangent, [0.0, 3.0, 0.0])
    g, = torch.autograd.grad((x.nan_to_num() ** 2).sum(), x, create_graph=True)
    assert same(g.detach(), [0.0, 4.0, NAN])      # at inf: 2 * 1.8e308 overflows, and inf * 0 is NaN, as in PyTorch
    assert g.grad_fn.name() == "MulBackward0"
    gg, = torch.autograd.grad(g[1], x)
    assert same(gg, [0.0, 2.0, 0.0])


def test_argument_errors_are_pytorchs():
    x = torch.tensor([NAN, INF])
    cases = [(lambda: x.nan_to_num(nan="a"), "nan_to_num(): argument 'nan' must be float, not str"),
             (lambda: x.nan_to_num(posinf=torch.tensor([1.0, 2.0])),
              "nan_to_num(): argument 'posinf' must be float, not Tensor"),
             (lambda: x.nan_to_num(nan=torch.tensor(1.0, requires_grad=True)),
              "nan_to_num(): argument 'nan' must be float, not Tensor"),
             (lambda: x.nan_to_num(neginf=np.array(1.0)), "nan_to_num(): argument 'neginf' must be float, "
                                                         "not numpy.ndarray"),
             (lambda: x.nan_to_num(nan=1j), "nan_to_num(): argument 'nan' must be float, not complex"),
             (lambda: x.clone().nan_to_num_(neginf="a"), "nan_to_num_(): argument 'neginf' must be float, not str"),
             (lambda: torch.nan_to_num([1.0]), "nan_to_num(): argument 'input' (position 1) must be Tensor, not list"),
             (lambda: torch.nan_to_num_(None), "nan_to_num_(): argument 'input' (position 1) must be Tensor, "
                                                "not NoneType")]
    for call, message in cases:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == message
    with pytest.raises(OverflowError, match="int too large to convert to float"):
        x.nan_to_num(nan=10 ** 400)
    # numbers of every kind, and a 0-d tensor that does not require grad
    assert same(x.nan_to_num(nan=np.int64(5), posinf=np.float32(2.5)), [5.0, 2.5])
    assert same(x.nan_to_num(nan=torch.tensor(5), posinf=True), [5.0, 1.0])
    assert same(x.nan_to_num(None, None), [0.0, 3.4028234663852886e38])
    assert math.isinf(x.nan_to_num(posinf=INF)[1].item())
