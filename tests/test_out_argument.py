"""torch.nan_to_num(x, out=y) and the out= helper (compat/out_argument.py):
PyTorch's checks in PyTorch's order, the resize and its warning, the version
counter, overlaps, grad mode. The golden ops_nan_to_num_out checks the same
against torch 2.13; this file runs unchanged with `import torch` except the
last test, which pins what is refused here on purpose."""
import warnings

import numpy as np
import pytest

import autograd_teach as torch

NAN, INF = float("nan"), float("inf")
DTYPE_ERROR = "nan_to_num: dtype of out: {} should be same as input: {}"
NO_GRAD_ERROR = ("nan_to_num(): functions with out=... arguments don't support automatic differentiation, "
                 "but one of the arguments requires grad.")


def test_the_result_is_written_into_out_and_out_is_returned():
    x = torch.tensor([1.5, NAN, INF, -INF], dtype=torch.float64)
    out = torch.empty(4, dtype=torch.float64)
    got = torch.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0, out=out)
    assert got is out and out.tolist() == [1.5, 1.0, 2.0, -2.0]
    assert out._version == 1 and out.grad_fn is None and not out.requires_grad
    assert torch.equal(torch.nan_to_num(x, out=out), torch.nan_to_num(x)) and out._version == 2


@pytest.mark.parametrize("shape, warns", [((2,), True), ((0,), False), ((2, 2), True), ((5,), True), ((4,), False)])
def test_out_of_another_shape_is_resized_with_a_warning_unless_it_was_empty(shape, warns):
    x = torch.tensor([1.0, NAN, 3.0, 4.0])
    out = torch.zeros(shape)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.nan_to_num(x, out=out)
    assert out.shape == (4,) and out.tolist() == [1.0, 0.0, 3.0, 4.0] and out._version == 1
    messages = [str(w.message) for w in caught if w.category is UserWarning]
    assert len(messages) == warns
    if warns:
        assert messages[0].startswith(f"An output with one or more elements was resized since it had shape "
                                      f"[{', '.join(map(str, shape))}], which does not match the required output "
                                      "shape [4]. This behavior is deprecated")


def test_out_must_have_the_inputs_dtype_checked_before_the_resize():
    x = torch.tensor([1.0, NAN])
    for dtype, name in ((torch.float64, "Double"), (torch.float16, "Half"), (torch.int64, "Long")):
        out = torch.zeros(5, dtype=dtype)
        with pytest.raises(RuntimeError) as e:
            torch.nan_to_num(x, out=out)
        assert str(e.value) == DTYPE_ERROR.format(name, "Float")
        assert out.shape == (5,) and out._version == 0
    out = torch.zeros(2, dtype=torch.int64)
    assert torch.nan_to_num(torch.tensor([3, 4]), out=out).tolist() == [3, 4]


def test_with_grad_mode_on_nothing_may_require_grad_under_no_grad_anything_may():
    x = torch.tensor([1.0, NAN], requires_grad=True)
    for args in ((x, torch.empty(2)), (x.detach(), torch.empty(2, requires_grad=True)),
                 (x, torch.empty(2, dtype=torch.float64))):      # before the dtype check
        with pytest.raises(RuntimeError) as e:
            torch.nan_to_num(args[0], out=args[1])
        assert str(e.value) == NO_GRAD_ERROR
    leaf = torch.tensor([5.0, 6.0], requires_grad=True)
    with torch.no_grad():
        torch.nan_to_num(x, out=leaf)
    assert leaf.tolist() == [1.0, 0.0] and leaf.is_leaf and leaf.requires_grad and leaf._version == 1


def test_a_write_under_no_grad_moves_the_version_saved_tensors_see_it():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    h = w * 2
    s = h.sin()
    with torch.no_grad():
        torch.nan_to_num(torch.tensor([NAN, 3.0]), out=h)
    assert h.grad_fn.name() == "MulBackward0" and h._version == 1
    (h * h).sum().backward()
    assert w.grad.tolist() == [0.0, 12.0]       # d(h*h)/dh = 2h, through h = 2w
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        s.sum().backward()


def test_overlaps_are_refused_as_pytorch_refuses_them():
    y = torch.tensor([NAN, 1.0, INF, 2.0])
    for src, out in ((y[:3], y[1:]), (y[:2], y)):       # partial overlap, even when out would be resized
        with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
            torch.nan_to_num(src, out=out)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        torch.nan_to_num(y, out=torch.zeros(1).expand(2))       # before the resize
    assert torch.nan_to_num(y, out=y) is y and y.tolist()[0] == 0.0     # the same memory, the same layout


def test_out_may_be_a_view_of_the_same_shape():
    z = torch.zeros(4, 2)
    torch.nan_to_num(torch.tensor([1.0, NAN, INF, 2.0]), out=z[:, 1])
    assert z[:, 0].tolist() == [0.0] * 4 and z[:, 1].tolist()[:2] == [1.0, 0.0] and z._version == 1


def test_the_argument_parsers_errors():
    x = torch.tensor([1.0])
    with pytest.raises(TypeError, match=r"^nan_to_num\(\): argument 'out' must be Tensor, not list$"):
        torch.nan_to_num(x, out=[1.0])
    with pytest.raises(TypeError, match=r"^nan_to_num\(\): argument 'nan' must be float, not str$"):
        torch.nan_to_num(x, nan="a", out=[1.0])
    assert torch.nan_to_num(torch.tensor([NAN]), out=None).tolist() == [0.0]


def test_a_view_of_another_shape_is_refused_here_where_pytorch_resizes_it_in_its_base():
    z = torch.zeros(4, 2)
    with pytest.raises(RuntimeError, match="out= cannot resize a view"):
        torch.nan_to_num(torch.tensor([1.0, 2.0, 3.0, 4.0]), out=z[:1, 0])
    assert z.tolist() == [[0.0, 0.0]] * 4 and z._version == 0
