"""1-D and adaptive max pooling, GroupNorm, interpolate and ConvTranspose2d
(nn/functional_layers.py, ops/adaptive_max_pool.py, ops/group_norm.py,
ops/upsample.py): first and second derivatives by finite differences in
float64 for every op and its options, values against a reference written
another way (loops, not the vectorised kernels), and the cases off the happy
path: empty batches, kernels larger than the input, odd sizes with
ceil_mode, NaN and ties in max pooling, non-contiguous and unbatched inputs.
PyTorch's own values, names and messages are in the golden
tests/golden/programs/nn_layers_more.py."""
import itertools

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck

F = torch.nn.functional
nn = torch.nn


def leaf(*shape, seed=0):
    """A float64 leaf of distinct normal values (max pooling has no ties)."""
    data = np.random.default_rng(seed + 31 * len(shape) + sum(shape)).standard_normal(shape)
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


CASES = [
    ("max_pool1d", lambda x: F.max_pool1d(x, 3, stride=2, padding=1), lambda: [leaf(2, 2, 7)]),
    ("max_pool1d ceil_mode dilation", lambda x: F.max_pool1d(x, 2, stride=2, dilation=2, ceil_mode=True),
     lambda: [leaf(1, 2, 8)]),
    ("max_pool1d unbatched", lambda x: F.max_pool1d(x, 2), lambda: [leaf(3, 5)]),
    ("avg_pool1d", lambda x: F.avg_pool1d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
     lambda: [leaf(2, 2, 6)]),
    ("adaptive_avg_pool1d", lambda x: F.adaptive_avg_pool1d(x, 4), lambda: [leaf(2, 2, 7)]),
    ("adaptive_avg_pool1d to 1", lambda x: F.adaptive_avg_pool1d(x, 1), lambda: [leaf(2, 5)]),
    ("adaptive_max_pool1d", lambda x: F.adaptive_max_pool1d(x, 3), lambda: [leaf(2, 2, 7)]),
    ("adaptive_max_pool2d", lambda x: F.adaptive_max_pool2d(x, (2, 3)), lambda: [leaf(1, 2, 5, 4)]),
    ("adaptive_max_pool2d larger", lambda x: F.adaptive_max_pool2d(x, (4, None)), lambda: [leaf(2, 3, 2)]),
    ("group_norm affine", lambda x, w, b: F.group_norm(x, 2, w, b), lambda: [leaf(2, 4, 3), leaf(4), leaf(4)]),
    ("group_norm 4-D no affine", lambda x: F.group_norm(x, 3, eps=1e-3), lambda: [leaf(2, 6, 2, 2)]),
    ("group_norm one group", lambda x, w: F.group_norm(x, 1, w), lambda: [leaf(3, 2, 2), leaf(2)]),
    ("nearest 1d", lambda x: F.interpolate(x, size=7), lambda: [leaf(1, 2, 3)]),
    ("nearest 2d", lambda x: F.interpolate(x, scale_factor=(2, 1.5)), lambda: [leaf(1, 2, 2, 3)]),
    ("nearest 2d down", lambda x: F.interpolate(x, size=(2, 3)), lambda: [leaf(1, 1, 5, 4)]),
    ("linear", lambda x: F.interpolate(x, scale_factor=2.5, mode="linear"), lambda: [leaf(1, 2, 3)]),
    ("linear align_corners", lambda x: F.interpolate(x, size=6, mode="linear", align_corners=True),
     lambda: [leaf(2, 1, 4)]),
    ("bilinear", lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), lambda: [leaf(1, 2, 3, 2)]),
    ("bilinear align_corners down", lambda x: F.interpolate(x, size=(2, 5), mode="bilinear", align_corners=True),
     lambda: [leaf(1, 1, 4, 3)]),
    ("conv_transpose2d", lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
     lambda: [leaf(1, 2, 3, 2), leaf(2, 3, 3, 2), leaf(3)]),
    ("conv_transpose2d groups dilation", lambda x, w: F.conv_transpose2d(x, w, groups=2, dilation=(2, 1)),
     lambda: [leaf(1, 4, 2, 3), leaf(4, 1, 2, 2)]),
    ("conv_transpose2d unbatched", lambda x, w: F.conv_transpose2d(x, w, stride=(1, 2)),
     lambda: [leaf(2, 2, 2), leaf(2, 1, 2, 3)]),
]


@pytest.mark.parametrize("name, f, make", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_finite_differences(name, f, make):
    assert gradcheck(f, make())


@pytest.mark.parametrize("name, f, make", CASES, ids=[c[0] for c in CASES])
def test_second_derivatives_match_finite_differences(name, f, make):
    assert gradgradcheck(f, make())


# -- values against references written another way -----------------------------------

def adaptive_max_reference(x, out):
    """A loop over the windows; np.argmax gives the first of tied maxima."""
    n, c, h, w = x.shape
    values, index = np.zeros((n, c) + out), np.zeros((n, c) + out, np.int64)
    for i, j in itertools.product(range(out[0]), range(out[1])):
        h0, h1 = i * h // out[0], -(-(i + 1) * h // out[0])
        w0, w1 = j * w // out[1], -(-(j + 1) * w // out[1])
        window = x[:, :, h0:h1, w0:w1].reshape(n, c, -1)
        k = window.argmax(-1)
        values[:, :, i, j] = window.max(-1)
        index[:, :, i, j] = (h0 + k // (w1 - w0)) * w + w0 + k % (w1 - w0)
    return values, index


@pytest.mark.parametrize("size, out", [((5, 7), (3, 4)), ((4, 4), (4, 4)), ((3, 2), (5, 7)), ((6, 1), (4, 1))])
def test_adaptive_max_pool2d_against_a_loop(size, out):
    x = np.random.default_rng(1).standard_normal((2, 3) + size)
    y, i = F.adaptive_max_pool2d(torch.tensor(x), out, return_indices=True)
    values, index = adaptive_max_reference(x, out)
    np.testing.assert_array_equal(y.numpy(), values)
    np.testing.assert_array_equal(i.numpy(), index)


def test_ties_take_the_first_max_and_nan_wins():
    nan = float("nan")
    x = torch.tensor([[[1.0, 3.0, 3.0, 2.0, nan, 0.0, nan, 5.0]]])
    _, i = F.adaptive_max_pool1d(x, 2, return_indices=True)
    assert i.tolist() == [[[1, 6]]]              # the first 3; the last nan of its window
    _, i = F.max_pool1d(x, 4, return_indices=True)
    assert i.tolist() == [[[1, 6]]]
    y = F.adaptive_max_pool1d(torch.full((1, 1, 4), -float("inf"), requires_grad=True), 2)
    y.sum().backward()


def test_a_nan_gets_the_gradient():
    x = torch.tensor([[[[1.0, float("nan")], [2.0, 3.0]]]], requires_grad=True)
    F.adaptive_max_pool2d(x, 1).sum().backward()
    assert x.grad.tolist() == [[[[0.0, 1.0], [0.0, 0.0]]]]


def group_norm_reference(x, groups, w, b, eps):
    n, c = x.shape[:2]
    rows = x.reshape(n, groups, -1)
    out = (rows - rows.mean(-1, keepdims=True)) / np.sqrt(rows.var(-1, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return out.reshape(x.shape) * w.reshape(shape) + b.reshape(shape)


def test_group_norm_against_numpy():
    rng = np.random.default_rng(2)
    x, w, b = rng.standard_normal((3, 6, 4, 5)), rng.standard_normal(6), rng.standard_normal(6)
    y = F.group_norm(torch.tensor(x), 3, torch.tensor(w), torch.tensor(b), eps=1e-4)
    np.testing.assert_allclose(y.numpy(), group_norm_reference(x, 3, w, b, 1e-4), rtol=1e-12, atol=1e-12)
    m = nn.GroupNorm(3, 6, dtype=torch.float64)
    assert m.weight.tolist() == [1.0] * 6 and m.bias.tolist() == [0.0] * 6
    np.testing.assert_allclose(m(torch.tensor(x)).detach().numpy(),
                               group_norm_reference(x, 3, np.ones(6), np.zeros(6), 1e-5), rtol=1e-12, atol=1e-12)


def bilinear_reference(x, out, align_corners):
    """Each output pixel from its position in the input, one at a time."""
    h, w = x.shape[-2:]
    y = np.zeros(x.shape[:-2] + out)
    for i, j in itertools.product(range(out[0]), range(out[1])):
        pos = []
        for o, n, k in ((out[0], h, i), (out[1], w, j)):
            src = k * (n - 1) / (o - 1) if align_corners and o > 1 else 0.0 if align_corners else \
                max((k + 0.5) * n / o - 0.5, 0.0)
            lo = min(int(np.floor(src)), n - 1)
            pos.append((lo, min(lo + 1, n - 1), min(src - lo, 1.0)))
        (h0, h1, lh), (w0, w1, lw) = pos
        y[..., i, j] = ((1 - lh) * ((1 - lw) * x[..., h0, w0] + lw * x[..., h0, w1])
                        + lh * ((1 - lw) * x[..., h1, w0] + lw * x[..., h1, w1]))
    return y


@pytest.mark.parametrize("out, align_corners", [((6, 4), False), ((7, 5), True), ((2, 3), False), ((1, 1), True)])
def test_bilinear_against_a_loop(out, align_corners):
    x = np.random.default_rng(3).standard_normal((1, 2, 3, 2))
    y = F.interpolate(torch.tensor(x), size=out, mode="bilinear", align_corners=align_corners)
    np.testing.assert_allclose(y.numpy(), bilinear_reference(x, out, align_corners), rtol=1e-12, atol=1e-12)


def test_nearest_copies_floor_of_i_over_scale():
    x = torch.arange(5.0).reshape(1, 1, 5)
    assert F.interpolate(x, size=7).tolist() == [[[0.0, 0.0, 1.0, 2.0, 2.0, 3.0, 4.0]]]
    assert F.interpolate(x, scale_factor=2).tolist() == [[[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0]]]
    assert F.interpolate(x, size=2).tolist() == [[[0.0, 2.0]]]


def conv_transpose_reference(x, w, stride, padding, output_padding, dilation, groups):
    """Each input pixel times the weight, added into the output window it spreads over."""
    n, c, h, wd = x.shape
    o = w.shape[1] * groups
    size = [(i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, s, p, d, k, op in
            zip((h, wd), stride, padding, dilation, w.shape[2:], output_padding)]
    full = np.zeros((n, o, size[0] + 2 * padding[0], size[1] + 2 * padding[1]))
    per = c // groups
    for ci, i, j, ki, kj in itertools.product(range(c), range(h), range(wd), range(w.shape[2]), range(w.shape[3])):
        g = ci // per
        rows = slice(g * w.shape[1], (g + 1) * w.shape[1])
        full[:, rows, i * stride[0] + ki * dilation[0], j * stride[1] + kj * dilation[1]] += \
            x[:, ci, i, j][:, None] * w[ci, :, ki, kj]
    return full[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]]


@pytest.mark.parametrize("stride, padding, output_padding, dilation, groups", [
    ((2, 2), (1, 1), (1, 1), (1, 1), 1), ((1, 2), (0, 1), (0, 0), (2, 1), 2), ((3, 1), (2, 0), (2, 0), (1, 1), 1)])
def test_conv_transpose2d_against_a_loop(stride, padding, output_padding, dilation, groups):
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((2, 4, 3, 4)), rng.standard_normal((4, 3, 3, 2))
    y = F.conv_transpose2d(torch.tensor(x), torch.tensor(w), stride=stride, padding=padding,
                           output_padding=output_padding, dilation=dilation, groups=groups)
    np.testing.assert_allclose(y.numpy(), conv_transpose_reference(x, w, stride, padding, output_padding, dilation,
                                                                   groups), rtol=1e-12, atol=1e-12)


def test_conv_transpose2d_inverts_conv2d_shapes_and_output_size_picks_the_padding():
    m = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)
    x = torch.zeros(1, 3, 4, 4)
    assert m(x).shape == (1, 2, 7, 7) and m(x, output_size=(8, 8)).shape == (1, 2, 8, 8)
    with pytest.raises(ValueError, match=r"^requested an output size of \(9, 9\), but valid sizes range from"):
        m(x, output_size=(9, 9))


# -- off the happy path ----------------------------------------------------------------

@pytest.mark.parametrize("f, shape", [
    (lambda x: F.max_pool1d(x, 2), (0, 2, 5)), (lambda x: F.avg_pool1d(x, 2), (0, 2, 5)),
    (lambda x: F.adaptive_max_pool1d(x, 2), (0, 2, 5)), (lambda x: F.adaptive_max_pool2d(x, 2), (0, 2, 3, 3)),
    (lambda x: F.group_norm(x, 2), (0, 4, 3)), (lambda x: F.interpolate(x, size=(4, 4)), (0, 2, 3, 3)),
    (lambda x: F.interpolate(x, size=(4, 4), mode="bilinear"), (0, 2, 3, 3)),
    (lambda x: F.conv_transpose2d(x, torch.ones(2, 3, 2, 2)), (0, 2, 3, 3))])
def test_an_empty_batch_gives_an_empty_output_and_an_empty_gradient(f, shape):
    x = torch.zeros(*shape, requires_grad=True)
    y = f(x)
    assert y.shape[0] == 0
    y.sum().backward()
    assert x.grad.shape == x.shape


@pytest.mark.parametrize("f", [
    lambda x: F.max_pool1d(x, 3, stride=2, ceil_mode=True), lambda x: F.avg_pool1d(x, 3, stride=2, ceil_mode=True),
    lambda x: F.adaptive_max_pool1d(x, 4), lambda x: F.interpolate(x, scale_factor=1.5, mode="linear")])
def test_non_contiguous_input_gives_the_contiguous_results(f):
    base = leaf(2, 7, 3)
    x = base.transpose(1, 2)
    assert not x.is_contiguous()
    y = f(x)
    g, = torch.autograd.grad(y.pow(2).sum(), base)
    base2 = base.detach().transpose(1, 2).contiguous().requires_grad_()
    y2 = f(base2)
    g2, = torch.autograd.grad(y2.pow(2).sum(), base2)
    np.testing.assert_array_equal(y.detach().numpy(), y2.detach().numpy())
    np.testing.assert_array_equal(g.numpy(), g2.transpose(1, 2).numpy())


def test_the_1d_poolings_record_pytorchs_graph():
    x = leaf(2, 3, 7)
    for y, middle in ((F.max_pool1d(x, 2), "MaxPool2DWithIndicesBackward0"),
                      (F.avg_pool1d(x, 2), "AvgPool2DBackward0"),
                      (F.adaptive_avg_pool1d(x, 3), "AdaptiveAvgPool2DBackward0"),
                      (F.adaptive_avg_pool1d(x, 1), "MeanBackward1"),
                      (F.adaptive_max_pool1d(x, 3), "AdaptiveMaxPool2DBackward0")):
        names = [y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(),
                 y.grad_fn.next_functions[0][0].next_functions[0][0].name()]
        assert names == ["SqueezeBackward1", middle, "UnsqueezeBackward0"]
    y = F.conv_transpose2d(leaf(2, 3, 3), leaf(2, 1, 2, 2))
    assert y.grad_fn.name() == "SqueezeBackward1"
    assert y.grad_fn.next_functions[0][0]._saved_transposed is True


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.max_pool1d(torch.zeros(2, 3, 5), 7), RuntimeError, "max_pool1d() Invalid computed output size: 0"),
    (lambda: F.max_pool1d(torch.zeros(2, 3, 0), 2), RuntimeError,
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 3, 0]"),
    (lambda: F.avg_pool1d(torch.zeros(2, 3, 5), 7), RuntimeError,
     "Given input size: (3x1x5). Calculated output size: (3x1x0). Output size is too small"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 0), 2), RuntimeError,
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 3, 0] with dimension 2 being empty"),
    (lambda: F.adaptive_max_pool2d(torch.zeros(5, 5), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [5, 5]"),
    (lambda: F.group_norm(torch.zeros(2, 6, 5), 4), RuntimeError,
     "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6, 5] and "
     "num_groups=4"),
    (lambda: F.group_norm(torch.zeros(1, 2), 2), ValueError,
     "Expected more than 1 value per channel when training, got input size [1, 2]"),
    (lambda: nn.GroupNorm(4, 6), ValueError, "num_channels (6) must be divisible by num_groups (4)"),
    (lambda: F.interpolate(torch.zeros(1, 2, 3, 4)), ValueError, "either size or scale_factor should be defined"),
    (lambda: F.interpolate(torch.zeros(1, 2, 3)), ValueError, "either size or scale_factor should be defined"),
    (lambda: F.interpolate(torch.zeros(1, 2, 3, 4), size=0), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 3, W: 4) output (H: 0, W: 0)"),
    (lambda: F.interpolate(torch.zeros(1, 2, 3), scale_factor=2, mode="bilinear"), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), output_padding=1), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_height: 1 "
     "output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1"),
    (lambda: F.conv_transpose2d(torch.zeros(1, 3, 1, 1), torch.zeros(3, 4, 3, 3), padding=2), RuntimeError,
     "Given input size per channel: (1 x 1). Calculated output size per channel: (-1 x -1). Output size is too "
     "small"),
])
def test_misuse_raises_pytorchs_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_the_checks_can_fail():
    """The references see an off-by-one: a window one pixel short, a weight a little off."""
    x = np.arange(6.0).reshape(1, 1, 2, 3)
    assert adaptive_max_reference(x, (1, 2))[1].tolist() != [[[[4, 4]]]]
    with pytest.raises(AssertionError):
        np.testing.assert_allclose(bilinear_reference(np.ones((1, 1, 2, 2)), (3, 3), False) + 1e-6,
                                   np.ones((1, 1, 3, 3)), rtol=1e-12, atol=1e-12)


# -- nll_loss per pixel (ops/nll_loss2d.py), d2l's FCN loss --------------------------------

PIXEL_TARGET = [[[0, 2], [1, -100]], [[2, 2], [0, 1]]]

NLL_CASES = [
    ("mean", lambda x: F.cross_entropy(x, torch.tensor(PIXEL_TARGET)), lambda: [leaf(2, 3, 2, 2)]),
    ("none weight", lambda x, w: F.nll_loss(x, torch.tensor(PIXEL_TARGET), w, reduction="none"),
     lambda: [leaf(2, 3, 2, 2), leaf(3)]),
    ("sum 5-D", lambda x: F.nll_loss(x, torch.tensor([[[[0, 1]], [[2, 2]]]]), reduction="sum"),
     lambda: [leaf(1, 3, 2, 1, 2)]),
    ("none 3-D", lambda x: F.nll_loss(x, torch.tensor([[0, 1, 2], [2, 0, 1]]), reduction="none"),
     lambda: [leaf(2, 3, 3)]),
]


@pytest.mark.parametrize("name, f, make", NLL_CASES, ids=[c[0] for c in NLL_CASES])
def test_pixel_nll_loss_gradients_match_finite_differences(name, f, make):
    inputs = make()
    if name == "none weight":          # the weight is a constant of the loss
        w = inputs[1].detach()
        assert gradcheck(lambda x: f(x, w), [inputs[0]]) and gradgradcheck(lambda x: f(x, w), [inputs[0]])
    else:
        assert gradcheck(f, inputs) and gradgradcheck(f, inputs)


def test_pixel_nll_loss_against_rows():
    """The same loss with the pixels as rows of a 2-D nll_loss."""
    x = leaf(2, 3, 2, 2)
    target = torch.tensor(PIXEL_TARGET)
    rows = x.permute(0, 2, 3, 1).reshape(-1, 3)
    for reduction in ("mean", "sum", "none"):
        a = F.cross_entropy(x, target, reduction=reduction)
        b = F.cross_entropy(rows, target.reshape(-1), reduction=reduction)
        np.testing.assert_allclose(a.detach().numpy().reshape(-1), b.detach().numpy().reshape(-1), rtol=1e-15)
        ga, = torch.autograd.grad(a.sum(), x)
        gb, = torch.autograd.grad(b.sum(), x)
        np.testing.assert_allclose(ga.numpy(), gb.numpy(), rtol=1e-15, atol=1e-17)


def test_every_pixel_ignored_gives_nan_loss_and_zero_gradient():
    x = leaf(1, 2, 2, 2)
    loss = F.nll_loss(x, torch.full((1, 2, 2), -100))
    assert np.isnan(loss.item())
    loss.backward()
    assert x.grad.abs().sum().item() == 0


def test_pixel_nll_loss_graph_and_errors():
    x = leaf(2, 3, 4)
    y = F.nll_loss(x, torch.zeros(2, 4, dtype=torch.int64), reduction="none")
    assert y.grad_fn.name() == "ViewBackward0" and y.grad_fn.next_functions[0][0].name() == "NllLoss2DBackward0"
    n = F.nll_loss(leaf(2, 3, 2, 2), torch.zeros(2, 2, 2, dtype=torch.int64)).grad_fn
    assert (n._saved_reduction, n._saved_ignore_index) == (1, 2 ** 64 - 100)
    for call, message in (
            (lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.int64)),
             "size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 6]"),
            (lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, dtype=torch.int64)),
             "only batches of spatial targets supported (3D tensors) but got targets of dimension: 2"),
            (lambda: F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.int64)),
             "Expected target size [2, 4], got [2, 5]")):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message
    with pytest.raises(IndexError, match="^Target 3 is out of bounds.$"):
        F.nll_loss(torch.zeros(2, 3, 4, 5), torch.full((2, 4, 5), 3))
