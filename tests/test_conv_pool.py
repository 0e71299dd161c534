"""Convolution and pooling (ops/conv.py, ops/pooling.py): first and second
derivatives by finite differences in float64 for every op and its options,
values against a reference written another way (a loop over the kernel's
offsets, not im2col), and the cases off the happy path: an empty batch,
1x1 kernels, strides longer than the kernel, groups, a 1x3x64x64 input,
non-contiguous inputs, a weight shared in a loop, threads, and misuse.
PyTorch's own values, names and messages are in the goldens
(tests/golden/programs/nn_conv_pool.py, d2l_conv_layer.py)."""
import re
import threading
import warnings

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck

F = torch.nn.functional


def leaf(*shape, seed=0):
    """A float64 leaf of normal values (distinct, so max pooling has no ties)."""
    data = np.random.default_rng(seed + 31 * len(shape) + sum(shape)).standard_normal(shape)
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def same_kernel_even(x, w):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # PyTorch's warning for even kernels: checked below
        return F.conv2d(x, w, padding="same")


def shared_in_loop(x, w):
    """One weight used three times: its gradient is the sum of the three."""
    h = x
    for _ in range(3):
        h = torch.tanh(F.conv2d(h, w, padding=1))
    return h


def seeded_conv():
    """The same module at every evaluation: its initial weights drawn after one seed."""
    torch.manual_seed(0)
    return torch.nn.Conv2d(2, 3, 2, stride=2, padding=1).double()


CASES = [
    ("conv2d", lambda x, w, b: F.conv2d(x, w, b), lambda: (leaf(2, 2, 4, 4), leaf(3, 2, 3, 3, seed=1), leaf(3, seed=2))),
    ("conv2d_stride_padding_dilation", lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
     lambda: (leaf(1, 2, 5, 6), leaf(2, 2, 3, 2, seed=1), leaf(2, seed=2))),
    ("conv2d_groups", lambda x, w: F.conv2d(x, w, groups=2, padding=1),
     lambda: (leaf(1, 4, 4, 3), leaf(6, 2, 2, 2, seed=1))),
    ("conv2d_depthwise", lambda x, w: F.conv2d(x, w, groups=3), lambda: (leaf(1, 3, 4, 4), leaf(3, 1, 3, 3, seed=1))),
    ("conv2d_1x1_kernel", lambda x, w, b: F.conv2d(x, w, b), lambda: (leaf(2, 3, 3, 3), leaf(2, 3, 1, 1, seed=1),
                                                                       leaf(2, seed=2))),
    ("conv2d_stride_longer_than_kernel", lambda x, w: F.conv2d(x, w, stride=3),
     lambda: (leaf(1, 2, 7, 5), leaf(2, 2, 2, 2, seed=1))),
    ("conv2d_kernel_as_large_as_input", lambda x, w: F.conv2d(x, w), lambda: (leaf(2, 1, 3, 4), leaf(2, 1, 3, 4, seed=1))),
    ("conv2d_same_odd", lambda x, w: F.conv2d(x, w, padding="same"), lambda: (leaf(1, 2, 4, 5), leaf(2, 2, 3, 3, seed=1))),
    ("conv2d_same_even", same_kernel_even, lambda: (leaf(1, 1, 4, 5), leaf(2, 1, 2, 4, seed=1))),
    ("conv2d_valid", lambda x, w: F.conv2d(x, w, padding="valid"), lambda: (leaf(1, 2, 4, 4), leaf(1, 2, 2, 3, seed=1))),
    ("conv2d_unbatched", lambda x, w: F.conv2d(x, w, padding=1), lambda: (leaf(2, 3, 3), leaf(2, 2, 2, 2, seed=1))),
    ("conv2d_non_contiguous", lambda x, w: F.conv2d(x.transpose(2, 3), w.transpose(0, 1), stride=2),
     lambda: (leaf(1, 2, 5, 4), leaf(2, 3, 2, 2, seed=1))),
    ("conv2d_shared_weight_in_loop", shared_in_loop, lambda: (leaf(1, 2, 3, 3), leaf(2, 2, 3, 3, seed=1))),
    ("conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2, dilation=2),
     lambda: (leaf(2, 3, 7), leaf(2, 3, 3, seed=1), leaf(2, seed=2))),
    ("conv1d_groups_unbatched", lambda x, w: F.conv1d(x, w, groups=2), lambda: (leaf(4, 5), leaf(2, 2, 2, seed=1))),
    ("conv_transposed_node", lambda x, w, b: torch.ops.ConvolutionBackward0.apply(x, w, b, (2, 1), (1, 0), (1, 2), True,
                                                                                 (1, 0), 2),
     lambda: (leaf(1, 4, 3, 3), leaf(4, 1, 2, 2, seed=1), leaf(2, seed=2))),
    ("conv_module", lambda x: seeded_conv()(x), lambda: (leaf(1, 2, 3, 4),)),
    ("max_pool2d", lambda x: F.max_pool2d(x, 2), lambda: (leaf(2, 2, 4, 5),)),
    ("max_pool2d_overlapping_padding", lambda x: F.max_pool2d(x, 3, stride=1, padding=1), lambda: (leaf(1, 2, 4, 4),)),
    ("max_pool2d_dilation_ceil", lambda x: F.max_pool2d(x, (2, 3), stride=(2, 1), padding=(1, 0), dilation=(1, 2),
                                                         ceil_mode=True), lambda: (leaf(1, 1, 5, 6),)),
    ("max_pool2d_stride_longer_than_kernel", lambda x: F.max_pool2d(x, 2, stride=3), lambda: (leaf(1, 2, 7, 5),)),
    ("max_pool2d_unbatched_1x1", lambda x: F.max_pool2d(x, 1, stride=2), lambda: (leaf(2, 3, 4),)),
    ("max_pool2d_non_contiguous", lambda x: F.max_pool2d(x.transpose(-1, -2), 2), lambda: (leaf(1, 2, 4, 5),)),
    ("max_pool2d_module", lambda x: torch.nn.MaxPool2d(2, padding=1)(x), lambda: (leaf(1, 2, 3, 3),)),
    ("avg_pool2d", lambda x: F.avg_pool2d(x, 2), lambda: (leaf(2, 2, 4, 5),)),
    ("avg_pool2d_padding_count_include_pad", lambda x: F.avg_pool2d(x, 3, stride=1, padding=1),
     lambda: (leaf(1, 2, 4, 4),)),
    ("avg_pool2d_padding_exclude_pad", lambda x: F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False),
     lambda: (leaf(1, 2, 4, 4),)),
    ("avg_pool2d_ceil_mode", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
     lambda: (leaf(1, 2, 4, 6),)),
    ("avg_pool2d_divisor_override", lambda x: F.avg_pool2d(x, (2, 3), stride=(1, 4), divisor_override=5),
     lambda: (leaf(3, 4, 7),)),
    ("avg_pool2d_module", lambda x: torch.nn.AvgPool2d(2, stride=1)(x), lambda: (leaf(1, 2, 3, 3),)),
    ("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, (2, 3)), lambda: (leaf(2, 2, 5, 7),)),
    ("adaptive_avg_pool2d_1x1", lambda x: F.adaptive_avg_pool2d(x, 1), lambda: (leaf(2, 2, 3, 3),)),
    ("adaptive_avg_pool2d_larger", lambda x: F.adaptive_avg_pool2d(x, (4, None)), lambda: (leaf(2, 3, 2),)),
    ("adaptive_avg_pool2d_module", lambda x: torch.nn.AdaptiveAvgPool2d((3, 2))(x), lambda: (leaf(1, 2, 4, 4),)),
    ("lenet_block", lambda x, w: F.avg_pool2d(torch.sigmoid(F.conv2d(x, w, padding=2)), 2, stride=2),
     lambda: (leaf(1, 1, 4, 4), leaf(2, 1, 5, 5, seed=1))),
]


@pytest.mark.parametrize("name,f,make", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_finite_differences(name, f, make):
    assert gradcheck(f, make())


@pytest.mark.parametrize("name,f,make", CASES, ids=[c[0] for c in CASES])
def test_second_derivatives_match_finite_differences(name, f, make):
    assert gradgradcheck(f, make())


# -- values, against a reference written another way -----------------------------
def reference_conv2d(x, w, b, stride, padding, dilation, groups):
    """A loop over the kernel's offsets and the groups (not the pixels): each
    offset adds the shifted, strided input times that weight."""
    x = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    (n, c, h, wd), (o, cg, kh, kw) = x.shape, w.shape
    oh, ow = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1, (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow)) + b.reshape(1, -1, 1, 1)
    og = o // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                patch = x[:, g * cg:(g + 1) * cg, i * dilation[0]::stride[0], j * dilation[1]::stride[1]][:, :, :oh, :ow]
                out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    return out


@pytest.mark.parametrize("shape,weight,stride,padding,dilation,groups", [
    ((2, 3, 6, 5), (4, 3, 3, 2), (1, 1), (0, 0), (1, 1), 1),
    ((1, 4, 7, 7), (6, 2, 3, 3), (2, 3), (1, 2), (2, 1), 2),
    ((1, 3, 64, 64), (8, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((2, 2, 5, 5), (2, 2, 1, 1), (4, 4), (0, 0), (1, 1), 1),
])
def test_conv2d_values_and_gradients_against_a_reference(shape, weight, stride, padding, dilation, groups):
    rng = np.random.default_rng(0)
    xd, wd, bd = rng.standard_normal(shape), rng.standard_normal(weight), rng.standard_normal(weight[0])
    x, w, b = (torch.tensor(a, requires_grad=True) for a in (xd, wd, bd))
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    expected = reference_conv2d(xd, wd, bd, stride, padding, dilation, groups)
    np.testing.assert_allclose(y.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(expected.shape)
    y.backward(torch.tensor(g))
    # the gradient is the adjoint: <g, conv(x)> is linear in x and in w
    np.testing.assert_allclose((x.grad.numpy() * xd).sum(), (g * (expected - bd.reshape(1, -1, 1, 1))).sum(),
                               rtol=1e-10)
    np.testing.assert_allclose((w.grad.numpy() * wd).sum(), (g * (expected - bd.reshape(1, -1, 1, 1))).sum(),
                               rtol=1e-10)
    np.testing.assert_allclose(b.grad.numpy(), g.sum((0, 2, 3)), rtol=1e-12)


def test_max_pool_takes_the_first_of_tied_maxima():
    x = torch.ones(1, 1, 2, 4, requires_grad=True)
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    assert idx.tolist() == [[[[0, 2]]]]
    y.sum().backward()
    assert x.grad.tolist() == [[[[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]]


def test_max_pool_never_picks_the_padding_even_when_all_is_minus_inf():
    """PyTorch's kernel starts at the window's first input pixel and moves on
    only for a larger value: a window of -inf picks its first input pixel.
    (Picking a padding position would send the gradient to a wrapped index.)"""
    x = torch.full((1, 1, 3, 3), float("-inf"), requires_grad=True)
    y, idx = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    assert idx.tolist() == [[[[0, 1], [3, 4]]]]
    y.sum().backward()
    assert x.grad.tolist() == [[[[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]]]


def test_max_pool_takes_the_last_nan():
    nan = float("nan")
    _, idx = F.max_pool2d(torch.tensor([[[[1.0, nan, 2.0, nan], [nan, 0.0, 3.0, 1.0]]]]), 2, return_indices=True)
    assert idx.tolist() == [[[[4, 3]]]]


def test_max_pool_overlapping_windows_add_into_a_shared_max():
    x = torch.tensor([[[[0.0, 0.0, 0.0], [0.0, 9.0, 0.0], [0.0, 0.0, 0.0]]]], requires_grad=True)
    F.max_pool2d(x, 2, stride=1).sum().backward()
    assert x.grad[0, 0, 1, 1].item() == 4.0 and x.grad.sum().item() == 4.0


def test_avg_pool_divisors():
    x = torch.ones(1, 1, 3, 3)
    assert F.avg_pool2d(x, 3, stride=1, padding=1)[0, 0, 0, 0].item() == pytest.approx(4 / 9)
    assert F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False)[0, 0, 0, 0].item() == 1.0
    assert F.avg_pool2d(x, 3, divisor_override=2).item() == 4.5


def test_adaptive_avg_pool_windows_overlap_as_pytorchs():
    x = torch.arange(5.0).reshape(1, 1, 1, 5)
    # windows [0, 2), [1, 4), [3, 5): start = floor(i*5/3), end = ceil((i+1)*5/3)
    assert F.adaptive_avg_pool2d(x, (1, 3)).flatten().tolist() == [0.5, 2.0, 3.5]


# -- off the happy path ---------------------------------------------------------------
def test_an_empty_batch_gives_an_empty_output_and_zero_gradients():
    x, w = torch.zeros(0, 2, 5, 5, dtype=torch.float64, requires_grad=True), leaf(3, 2, 3, 3)
    y = F.conv2d(x, w, padding=1)
    assert y.shape == (0, 3, 5, 5)
    y.sum().backward()
    assert x.grad.shape == (0, 2, 5, 5) and w.grad.abs().sum().item() == 0
    for pool in (lambda t: F.max_pool2d(t, 2), lambda t: F.avg_pool2d(t, 2), lambda t: F.adaptive_avg_pool2d(t, 2)):
        x.grad = None
        out = pool(x)
        assert out.shape == (0, 2, 2, 2)
        out.sum().backward()
        assert x.grad.shape == (0, 2, 5, 5)


def test_a_large_input_runs_and_its_gradient_sums_up():
    x = torch.ones(1, 3, 64, 64, requires_grad=True)
    conv = torch.nn.Conv2d(3, 8, 3, padding=1)
    y = F.max_pool2d(conv(x), 2)
    assert y.shape == (1, 8, 32, 32)
    y.sum().backward()
    # every output pixel sends 1 to one input window of each channel: the weight gets 32*32 maxima's inputs
    assert conv.bias.grad.tolist() == [1024.0] * 8
    assert x.grad.shape == (1, 3, 64, 64)


def test_threads_get_the_gradients_of_one_thread():
    w = leaf(4, 2, 3, 3)
    inputs = [leaf(2, 2, 6, 6, seed=s) for s in range(8)]

    def grad_of(x):
        return torch.autograd.grad(F.max_pool2d(F.conv2d(x, w, padding=1), 2).pow(2).sum(), (x, w))

    expected = [grad_of(x) for x in inputs]
    got = [None] * len(inputs)

    def work(i):
        got[i] = grad_of(inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (ex, ew), (gx, gw) in zip(expected, got):
        assert torch.equal(ex, gx) and torch.equal(ew, gw)


def test_same_padding_with_an_even_kernel_pads_the_right_and_warns():
    x, w = leaf(1, 1, 4, 4), leaf(1, 1, 2, 2)
    with pytest.warns(UserWarning, match="padding='same' with even kernel lengths"):
        y = F.conv2d(x, w, padding="same")
    assert y.shape == (1, 1, 4, 4)
    assert y.grad_fn.next_functions[0][0].name() == "ConstantPadNdBackward0"
    assert y.grad_fn._saved_padding == (0, 0)
    assert torch.allclose(y, F.conv2d(F.pad(x, (0, 1, 0, 1)), w))


def test_the_node_shows_what_pytorch_saves():
    x, w = leaf(1, 2, 4, 4), leaf(3, 2, 3, 3)
    y = F.conv2d(x, w, stride=2, padding=1)
    node = y.grad_fn
    assert node.name() == "ConvolutionBackward0"
    assert (node._saved_stride, node._saved_padding, node._saved_dilation, node._saved_groups) == ((2, 2), (1, 1),
                                                                                                   (1, 1), 1)
    assert (node._saved_transposed, node._saved_output_padding, node._saved_bias_sym_sizes_opt) == (False, (0, 0), (0,))
    assert node._saved_input is x and node._saved_weight is w
    assert node.next_functions[2] == (None, 0)
    assert F.conv2d(x, w, padding="valid").grad_fn._saved_padding == (0,)
    p = F.max_pool2d(x, 2).grad_fn
    assert p._saved_stride == () and p._saved_result1.dtype == torch.int64 and p._saved_self is x


@pytest.mark.parametrize("call,error,message", [
    (lambda x, w: F.conv2d(x, torch.zeros(4, 3, 3, 3)), RuntimeError, "expected input[1, 2, 5, 5] to have 3 channels"),
    (lambda x, w: F.conv2d(x, torch.zeros(4, 2, 7, 3)), RuntimeError, "Kernel size can't be greater than actual"),
    (lambda x, w: F.conv2d(x, w, stride=0), RuntimeError, "non-positive stride is not supported"),
    (lambda x, w: F.conv2d(x, w, groups=3), RuntimeError, "expected weight to be divisible by 3"),
    (lambda x, w: F.conv2d(x, w, groups=2), RuntimeError, "expected input[1, 2, 5, 5] to have 4 channels, but got 2 channels instead"),
    (lambda x, w: F.conv2d(x[0, 0], w), RuntimeError, "Expected 3D (unbatched) or 4D (batched) input to conv2d"),
    (lambda x, w: F.conv2d(x, w, stride=2, padding="same"), RuntimeError, "not supported for strided convolutions"),
    (lambda x, w: F.conv2d(x, w.double()), RuntimeError, "expected scalar type Float but found Double"),
    (lambda x, w: F.max_pool2d(x, 3, padding=2), RuntimeError, "pad should be at most half of effective kernel size"),
    (lambda x, w: F.avg_pool2d(x, 2, padding=2), RuntimeError, "pad should be at most half of effective kernel size"),
    (lambda x, w: F.max_pool2d(x, 7), RuntimeError, "Calculated output size: (2x0x0)"),
    (lambda x, w: F.adaptive_avg_pool2d(x, (2,)), RuntimeError, "output_size must be 2"),
    (lambda x, w: torch.nn.Conv2d(3, 4, 3, groups=2), ValueError, "in_channels must be divisible by groups"),
])
def test_misuse_raises_pytorchs_errors(call, error, message):
    x, w = torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3)
    with pytest.raises(error, match=re.escape(message)):
        call(x, w)


def test_the_checks_can_fail():
    """A wrong gradient is caught: gradcheck fails on a conv whose weight gradient is doubled."""
    from autograd_teach.autograd import GradcheckError

    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return F.conv2d(x, w)

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            with torch.enable_grad():
                x, w = x.detach().requires_grad_(), w.detach().requires_grad_()
                gx, gw = torch.autograd.grad(F.conv2d(x, w), (x, w), g)
            return gx, 2 * gw

    with pytest.raises(GradcheckError):
        gradcheck(Wrong.apply, (leaf(1, 1, 3, 3), leaf(1, 1, 2, 2)))
