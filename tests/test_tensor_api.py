"""The Tensor API around autograd: creation, dtypes, shapes, conversions,
comparisons, promotion.

Every expected value was checked against torch 2.13.0 (the file runs
unchanged with `import torch`); the promotion table below is a literal
recorded from it. This file never imports torch.
"""
import warnings

import numpy as np
import pytest

import autograd_teach as torch


def dt(t):
    return str(t.dtype).replace("torch.", "")


# -- dtypes -------------------------------------------------------------------------
def test_dtype_objects_and_aliases():
    assert torch.float is torch.float32 and torch.double is torch.float64 and torch.half is torch.float16
    assert torch.long is torch.int64 and torch.int is torch.int32 and torch.short is torch.int16
    assert repr(torch.float32) == "torch.float32" and str(torch.int64) == "torch.int64"
    assert torch.get_default_dtype() is torch.float32
    assert torch.float32.is_floating_point and not torch.int64.is_floating_point
    assert torch.ones(1).dtype is torch.float32


def test_type_strings():
    assert torch.ones(2, 3).type() == "torch.FloatTensor"
    assert torch.tensor([1]).type() == "torch.LongTensor"
    assert torch.tensor([1.0], dtype=torch.float64).type() == "torch.DoubleTensor"
    assert torch.tensor([True]).type() == "torch.BoolTensor"


@pytest.mark.parametrize("data, dtype", [
    ([1.0, 2.0], "float32"),          # Python floats: the default dtype, not float64
    ([1, 2.5], "float32"),
    ([1, 2], "int64"),
    ([[1, 2]], "int64"),
    (3, "int64"),
    (3.0, "float32"),
    ([True, False], "bool"),
    ([], "float32"),
    (np.array([1, 2], dtype=np.int32), "int32"),      # numpy arrays keep their dtype
    (np.array([1.0, 2.0]), "float64"),
    (np.array([1.0], dtype=np.float32), "float32"),
    (np.float64(2.0), "float64"),
])
def test_tensor_infers_pytorchs_dtype(data, dtype):
    assert dt(torch.tensor(data)) == dtype


def test_tensor_dtype_argument():
    assert dt(torch.tensor([1, 2], dtype=torch.float64)) == "float64"
    assert dt(torch.tensor([1.7, -1.7], dtype=torch.int64)) == "int64"
    assert torch.tensor([1.7, -1.7], dtype=torch.int64).tolist() == [1, -1]
    assert dt(torch.tensor([1, 2], dtype=float)) == "float64"


def test_tensor_copies_numpy_but_from_numpy_shares():
    a = np.array([1.0, 2.0])
    t, s = torch.tensor(a), torch.from_numpy(a)
    a[0] = 100.0
    assert t.tolist() == [1.0, 2.0]
    assert s.tolist() == [100.0, 2.0] and dt(s) == "float64"
    s.add_(1)
    assert a.tolist() == [101.0, 3.0]
    assert dt(torch.from_numpy(np.zeros(2, dtype=np.int32))) == "int32"


def test_numpy_shares_memory_both_ways():
    t = torch.zeros(3)
    n = t.numpy()
    n[1] = 5.0
    assert t.tolist() == [0.0, 5.0, 0.0]
    t.add_(1)
    assert n.tolist() == [1.0, 6.0, 1.0]
    assert n.dtype == np.float32


def test_casts():
    x = torch.tensor([1.5, -1.5, 0.0])
    assert dt(x.double()) == "float64" and dt(x.float()) == "float32"
    assert x.long().tolist() == [1, -1, 0] and dt(x.long()) == "int64"
    assert dt(x.int()) == "int32"
    assert x.bool().tolist() == [True, True, False]
    assert dt(x.to(torch.float64)) == "float64" and dt(x.to(dtype=torch.float64)) == "float64"
    assert x.to(torch.float32) is x and x.float() is x       # no-op casts return self
    assert dt(torch.tensor([1, 2]).float()) == "float32"


def test_half_is_a_float16_copy_like_the_other_casts():
    x = torch.tensor([1.5, -2.25, 70000.0, float("nan"), float("-inf"), 1e-8], requires_grad=True)
    h = x.half()
    assert h.dtype is torch.float16 and h.grad_fn.name() == "ToCopyBackward0" and h.requires_grad
    assert str(h.tolist()) == "[1.5, -2.25, inf, nan, -inf, 0.0]"       # 70000 overflows, 1e-8 underflows
    assert h.half() is h and h.to(torch.half) is h
    (h * torch.arange(6.0).half()).sum().backward()    # the gradient comes back in the input's dtype
    assert x.grad.dtype is torch.float32 and x.grad.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert repr(torch.tensor(2.5, dtype=torch.float64).half()) == "tensor(2.5000, dtype=torch.float16)"
    assert repr(torch.empty(0, 2).half()) == "tensor([], size=(0, 2), dtype=torch.float16)"
    assert torch.tensor([True, False]).half().tolist() == [1.0, 0.0]
    i = torch.tensor([1, 70000]).half()
    assert i.dtype is torch.float16 and i.tolist() == [1.0, float("inf")] and not i.requires_grad
    with torch.no_grad():
        assert x.half().grad_fn is None and not x.half().requires_grad
    assert x.half().type() == "torch.HalfTensor"


def test_short_char_and_byte_cast_to_integers_and_cut_the_graph():
    x = torch.tensor([1.7, -2.2, 300.0], requires_grad=True)
    assert x.short().tolist() == [1, -2, 300] and x.short().dtype is torch.int16
    assert x.char().tolist() == [1, -2, 44] and x.char().dtype is torch.int8       # wraps, as PyTorch's cast
    assert x.byte().tolist() == [1, 254, 44] and x.byte().dtype is torch.uint8
    assert not any(t.requires_grad for t in (x.short(), x.char(), x.byte()))
    b = torch.tensor([1, 2], dtype=torch.uint8)
    assert b.byte() is b and b.short().byte().dtype is torch.uint8


# -- creation ------------------------------------------------------------------------
def test_arange():
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4] and dt(torch.arange(5)) == "int64"
    assert torch.arange(1, 4).tolist() == [1, 2, 3]
    assert dt(torch.arange(1.0, 4)) == "float32"
    assert torch.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert dt(torch.arange(0, 1, 0.25)) == "float32"
    assert torch.arange(0, 5, 2, dtype=torch.float64).tolist() == [0.0, 2.0, 4.0]
    assert dt(torch.arange(0, 5, 2, dtype=torch.float64)) == "float64"
    assert torch.arange(5, 0, -2).tolist() == [5, 3, 1]
    assert torch.arange(3, 3).shape == (0,)


def test_linspace_and_eye():
    assert torch.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert dt(torch.linspace(-1, 1, steps=3)) == "float32"
    assert torch.eye(2, 3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert torch.eye(3).shape == (3, 3) and dt(torch.eye(3)) == "float32"
    assert dt(torch.eye(2, dtype=torch.int64)) == "int64"


@pytest.mark.parametrize("value, dtype", [(3, "int64"), (1.5, "float32"), (True, "bool")])
def test_full_infers_dtype_from_the_value(value, dtype):
    t = torch.full((2, 3), value)
    assert t.shape == (2, 3) and dt(t) == dtype and t.tolist() == [[value] * 3] * 2


def test_zeros_ones_empty_shapes():
    for t in (torch.zeros(2, 3), torch.zeros((2, 3)), torch.zeros([2, 3]), torch.zeros(torch.Size([2, 3])),
              torch.ones(2, 3), torch.empty(2, 3)):
        assert t.shape == (2, 3) and dt(t) == "float32"
    assert torch.zeros(2, 3).tolist() == [[0.0] * 3] * 2 and torch.ones(2).tolist() == [1.0, 1.0]
    assert dt(torch.zeros(2, dtype=torch.int32)) == "int32"
    assert torch.zeros(()).shape == () and torch.zeros(0).shape == (0,)


def test_like_functions_keep_shape_and_dtype():
    a = torch.tensor([[1, 2, 3]])
    for t in (torch.zeros_like(a), torch.ones_like(a), torch.full_like(a, 7), torch.empty_like(a)):
        assert t.shape == (1, 3) and dt(t) == "int64"
    assert torch.full_like(a, 7).tolist() == [[7, 7, 7]]
    assert torch.zeros_like(a).tolist() == [[0, 0, 0]]
    assert dt(torch.ones_like(a, dtype=torch.float64)) == "float64"
    assert not torch.zeros_like(torch.ones(2, requires_grad=True)).requires_grad
    assert torch.zeros_like(a, dtype=torch.float32, requires_grad=True).requires_grad


def test_random_creation_dtypes_and_shapes():
    assert torch.rand(2, 3).shape == (2, 3) and dt(torch.rand(2, 3)) == "float32"
    assert dt(torch.randn(2)) == "float32" and dt(torch.rand(2, dtype=torch.float64)) == "float64"
    r = torch.randint(0, 5, (100,))
    assert dt(r) == "int64" and 0 <= r.min().item() and r.max().item() < 5
    u = torch.rand(1000)
    assert 0 <= u.min().item() and u.max().item() < 1


def test_requires_grad_at_creation():
    for t in (torch.tensor([1.0], requires_grad=True), torch.zeros(2, requires_grad=True),
              torch.ones(2, requires_grad=True), torch.randn(2, requires_grad=True),
              torch.full((2,), 1.0, requires_grad=True), torch.arange(0.0, 3.0, requires_grad=True),
              torch.linspace(0, 1, 3, requires_grad=True), torch.eye(2, requires_grad=True)):
        assert t.requires_grad and t.is_leaf and t.grad is None and t.grad_fn is None
    assert not torch.ones(2).requires_grad


# -- shape, size, conversions -----------------------------------------------------------
def test_shape_size_dim_len_numel():
    x = torch.ones(4, 2, 3)
    assert x.shape == (4, 2, 3) and x.size() == (4, 2, 3) and isinstance(x.shape, torch.Size)
    assert x.size(0) == 4 and x.size(-1) == 3 and x.shape[1] == 2
    assert x.dim() == 3 and x.ndim == 3 and len(x) == 4 and x.numel() == 24 and torch.numel(x) == 24
    s = torch.tensor(1.0)
    assert s.dim() == 0 and s.shape == () and s.numel() == 1


def test_torch_size():
    s = torch.Size([2, 3])
    assert repr(s) == "torch.Size([2, 3])" and str(s) == "torch.Size([2, 3])"
    assert repr(torch.Size([])) == "torch.Size([])"
    assert repr(torch.ones(2, 3).shape[1:]) == "torch.Size([3])"
    assert s == (2, 3) and isinstance(s, tuple) and s.numel() == 6
    assert repr(torch.ones(5).shape) == "torch.Size([5])"
    a, b = s
    assert (a, b) == (2, 3)


def test_item():
    assert torch.tensor([2.5]).item() == 2.5 and type(torch.tensor([2.5]).item()) is float
    assert type(torch.tensor([1]).item()) is int
    assert type(torch.tensor([True]).item()) is bool
    assert torch.tensor([[7.0]]).item() == 7.0
    assert float(torch.tensor(1.5)) == 1.5 and int(torch.tensor(3)) == 3


def test_tolist():
    assert torch.tensor([1.5, -1.5]).tolist() == [1.5, -1.5]
    assert torch.tensor(2.5).tolist() == 2.5
    assert torch.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert type(torch.tensor([[1, 2]]).tolist()[0][0]) is int


def test_T():
    x = torch.tensor([[1, 2, 3], [4, 5, 6]])
    assert x.T.tolist() == [[1, 4], [2, 5], [3, 6]]
    assert x.T.shape == (3, 2) and x.t().tolist() == x.T.tolist()
    assert x.T.T.tolist() == x.tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x.T         # 2-D: no warning


def test_T_on_other_dims_warns_like_pytorch():
    with pytest.warns(UserWarning, match=r"^The use of `x\.T` on tensors of dimension other than 2 to reverse "
                                         r"their shape is deprecated"):
        assert torch.ones(2, 3, 4).T.shape == (4, 3, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # PyTorch warns once per process (TORCH_WARN_ONCE)
        assert torch.ones(3).T.shape == (3,)
    with pytest.warns(UserWarning, match=r"^Tensor\.T is deprecated on 0-D tensors\. This function is the "
                                         r"identity in these cases\."):
        assert torch.tensor(1.0).T.shape == ()


def test_views_share_storage():
    x = torch.arange(6.0)
    v = x.view(2, 3)
    v[0, 0] = 10.0
    assert x[0].item() == 10.0
    x.reshape(3, 2)[2, 1] = -1.0
    assert x[5].item() == -1.0
    assert x.clone().data_ptr() != x.data_ptr()


# -- comparisons and bool -----------------------------------------------------------------
@pytest.mark.parametrize("op, expected", [
    (lambda a, b: a == b, [False, True, False]),
    (lambda a, b: a != b, [True, False, True]),
    (lambda a, b: a < b, [True, False, False]),
    (lambda a, b: a <= b, [True, True, False]),
    (lambda a, b: a > b, [False, False, True]),
    (lambda a, b: a >= b, [False, True, True]),
    (torch.eq, [False, True, False]),
    (torch.lt, [True, False, False]),
])
def test_comparisons_return_bool_tensors(op, expected):
    a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 2.0, 2.0])
    r = op(a, b)
    assert dt(r) == "bool" and r.tolist() == expected
    assert op(a, 2.0).tolist() == expected          # with a number
    assert op(a, 2).tolist() == expected


def test_comparisons_broadcast_and_mix_dtypes():
    r = torch.tensor([[1], [3]]) > torch.tensor([0.5, 2.0])
    assert r.shape == (2, 2) and r.tolist() == [[True, False], [True, True]]
    assert (torch.tensor([1, 2]) == torch.tensor([1.0, 3.0])).tolist() == [True, False]
    assert not (torch.ones(2) > 0).requires_grad
    assert not (torch.ones(2, requires_grad=True) > 0).requires_grad


def test_comparison_with_none():
    x = torch.tensor([1.0, 2.0])
    assert (x == None) is False and (x != None) is True  # noqa: E711


def test_bool_of_one_element():
    assert bool(torch.tensor([0.0])) is False and bool(torch.tensor(3)) is True
    assert bool(torch.tensor([True])) is True and bool(torch.tensor([[2.0]])) is True
    if torch.tensor(1.0) > 0.5:
        pass
    else:
        pytest.fail("if on a one-element tensor")


def test_while_on_a_tensor_condition():
    # The tutorials' "dynamic control flow" example.
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y, steps = x * 2, 0
    while y.norm() < 100:
        y, steps = y * 2, steps + 1
    assert steps == 6 and y.tolist() == [64.0, 128.0]
    y.sum().backward()
    assert x.grad.tolist() == [128.0, 128.0]


def test_equal_and_allclose():
    a = torch.tensor([1.0, 2.0])
    assert torch.equal(a, torch.tensor([1.0, 2.0])) and not torch.equal(a, torch.tensor([1.0, 2.5]))
    assert not torch.equal(a, torch.tensor([[1.0, 2.0]]))
    assert torch.allclose(a, a + 1e-9) and not torch.allclose(a, a + 1e-3)


# -- type promotion ------------------------------------------------------------------------
# Result dtype of (tensor of dtype ROW) + (tensor of dtype COLUMN), both 1-D.
# Recorded from torch 2.13.0: `(torch.ones(2, dtype=a) + torch.ones(2, dtype=b)).dtype`.
PROMOTION = """
         b    u8    i8   i16   i32   i64   f16   f32   f64
   b     b    u8    i8   i16   i32   i64   f16   f32   f64
  u8    u8    u8   i16   i16   i32   i64   f16   f32   f64
  i8    i8   i16    i8   i16   i32   i64   f16   f32   f64
 i16   i16   i16   i16   i16   i32   i64   f16   f32   f64
 i32   i32   i32   i32   i32   i32   i64   f16   f32   f64
 i64   i64   i64   i64   i64   i64   i64   f16   f32   f64
 f16   f16   f16   f16   f16   f16   f16   f16   f32   f64
 f32   f32   f32   f32   f32   f32   f32   f32   f32   f64
 f64   f64   f64   f64   f64   f64   f64   f64   f64   f64
"""
# Result dtype of (1-D tensor of dtype COLUMN) + OTHER, OTHER a Python scalar or a 0-d tensor:
# a lower-priority operand only counts when it is of a higher category (bool < int < float).
# Recorded from torch 2.13.0 (`(torch.ones(2, dtype=a) * torch.tensor(1, dtype=b)).dtype` for 0-d).
SCALARS = """
           b    u8    i8   i16   i32   i64   f16   f32   f64
True       b    u8    i8   i16   i32   i64   f16   f32   f64
2        i64    u8    i8   i16   i32   i64   f16   f32   f64
2.5      f32   f32   f32   f32   f32   f32   f16   f32   f64
0d:i64   i64    u8    i8   i16   i32   i64   f16   f32   f64
0d:f64   f64   f64   f64   f64   f64   f64   f16   f32   f64
0d:b       b    u8    i8   i16   i32   i64   f16   f32   f64
0d:f32   f32   f32   f32   f32   f32   f32   f16   f32   f64
"""
SHORT = {"b": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
         "i64": torch.int64, "f16": torch.float16, "f32": torch.float32, "f64": torch.float64}


def table(text):
    head, *rows = [line.split() for line in text.strip().splitlines()]
    return [(row[0], col, res) for row in rows for col, res in zip(head, row[1:])]


@pytest.mark.parametrize("a, b, result", table(PROMOTION))
def test_promotion_between_tensors(a, b, result):
    x, y = torch.ones(2, dtype=SHORT[a]), torch.ones(2, dtype=SHORT[b])
    assert (x + y).dtype is SHORT[result]
    assert torch.promote_types(SHORT[a], SHORT[b]) is SHORT[result]
    assert (x * y).dtype is SHORT[result]


@pytest.mark.parametrize("other, a, result", table(SCALARS))
def test_promotion_with_scalars_and_0d_tensors(other, a, result):
    x = torch.ones(2, dtype=SHORT[a])
    if other.startswith("0d:"):
        y = torch.tensor(1, dtype=SHORT[other[3:]])
        assert (x * y).dtype is SHORT[result] and (y * x).dtype is SHORT[result]
    else:
        y = eval(other)
        assert (x * y).dtype is SHORT[result] and (y * x).dtype is SHORT[result]


@pytest.mark.parametrize("expr, dtype", [
    # Recorded from torch 2.13.0.
    (lambda: torch.tensor([1, 2]) / torch.tensor([2, 2]), "float32"),   # true division of ints
    (lambda: torch.tensor([1, 2]) / 2, "float32"),
    (lambda: torch.tensor([1, 2]).sum(), "int64"),
    (lambda: torch.tensor([True, True]).sum(), "int64"),
    (lambda: torch.tensor([1, 2], dtype=torch.int32).sum(), "int64"),
    (lambda: torch.tensor([1.0, 2.0]).mean(), "float32"),
    (lambda: torch.tensor([1, 2]).exp(), "float32"),
    (lambda: torch.tensor([1, 4]).sqrt(), "float32"),
    (lambda: torch.tensor([-1, 2]).abs(), "int64"),
    (lambda: -torch.tensor([1, 2]), "int64"),
    (lambda: torch.tensor([1, 2]) ** 2, "int64"),
    (lambda: torch.tensor([1, 2]) ** 2.5, "float32"),
    (lambda: 2 ** torch.tensor([1, 2]), "int64"),
    (lambda: 2.0 ** torch.tensor([1, 2]), "float32"),
    (lambda: torch.tensor([1, 2]) * 2.5, "float32"),
    (lambda: 1 - torch.tensor([1, 2]), "int64"),
    (lambda: torch.tensor([1.0]) + torch.tensor(1.0, dtype=torch.float64), "float32"),
    (lambda: torch.tensor(1.0) + torch.tensor(1.0, dtype=torch.float64), "float64"),
    (lambda: torch.tensor([1, 2]) * torch.tensor(1.5, dtype=torch.float64), "float64"),
    (lambda: torch.tensor([1, 2]).relu(), "int64"),
    (lambda: torch.tensor([1, 2]).clamp(0, 1), "int64"),
    (lambda: torch.tensor([1, 2]).max(), "int64"),
    (lambda: torch.tensor([1.0, 2.0]).norm(), "float32"),
    (lambda: torch.tensor([1, 2]).argmax(), "int64"),
    (lambda: torch.ones(2, 2).max(1).indices, "int64"),
])
def test_result_dtypes_of_ops(expr, dtype):
    assert dt(expr()) == dtype


def test_inplace_keeps_the_dtype():
    x = torch.tensor([1.0, 2.0])
    x += torch.tensor([1.0, 1.0], dtype=torch.float64)   # float64 result cast back into float32
    assert dt(x) == "float32" and x.tolist() == [2.0, 3.0]
    i = torch.tensor([1, 2])
    i *= 3
    assert dt(i) == "int64" and i.tolist() == [3, 6]


def test_clamp_bounds_take_part_in_type_promotion():
    # PyTorch: an int tensor clamped to a float bound is float32; int bounds keep int64
    assert torch.tensor([1, 2]).clamp(0.5).dtype is torch.float32
    assert torch.tensor([1, 2]).clamp(0, 1).tolist() == [1, 1]
    assert torch.tensor([1, 2]).clamp(0, 1).dtype is torch.int64
    assert torch.tensor([1.0, -2.0]).clamp(min=0).tolist() == [1.0, 0.0]


def test_a_numpy_array_operand_becomes_a_tensor_and_a_list_is_refused():
    # PyTorch: x * np.array([1., 2.]) is tensor([1., 2.], dtype=torch.float64); x + [1, 2] a TypeError
    x = torch.ones(2)
    y = x * np.array([1.0, 2.0])
    assert y.dtype is torch.float64 and y.tolist() == [1.0, 2.0]
    assert (x + np.array([1, 2])).tolist() == [2.0, 3.0]
    for bad in ([1, 2], (1, 2)):
        with pytest.raises(TypeError):
            x + bad
        with pytest.raises(TypeError):
            x.mul(bad)


def test_float_of_a_tensor_that_requires_grad_warns_once_per_process_at_the_callers_line():
    import subprocess
    import sys
    import textwrap
    program = textwrap.dedent("""
        import warnings
        warnings.simplefilter("default")
        import autograd_teach as torch
        x = torch.tensor(2.0, requires_grad=True)
        y = x * 3
        y.item(); int(y); bool(y)                       # no warning, as in PyTorch
        try:
            float(torch.ones(2, requires_grad=True))    # warns first, then the size error
        except ValueError as e:
            print(e)
        float(y)                                        # once per process: no second warning
        print(float(y.detach()), float(x))
    """)
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert out.stdout == "only one element tensors can be converted to Python scalars\n6.0 2.0\n"
    assert out.stderr == (
        '<string>:9: UserWarning: Converting a tensor with requires_grad=True to a scalar may lead to '
        'unexpected behavior.\nConsider using tensor.detach() first. (Triggered internally at '
        '/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)\n')
