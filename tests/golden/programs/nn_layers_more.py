# 1-D and adaptive max pooling, GroupNorm, F.interpolate / nn.Upsample and
# ConvTranspose2d: reprs, grad_fn names and saved values, values and
# gradients (float64 for the sums whose float32 rounding differs: see
# docs/float32.md), ties and NaN in max pooling, empty batches, unbatched and
# non-contiguous inputs, d2l 14.10's bilinear-kernel ConvTranspose2d, errors.
# (Second derivatives: tests/test_nn_layers.py; PyTorch records them as
# ...BackwardBackward0 nodes, autograd_teach as the ops of the rule.)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 9, requires_grad=True)
for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
           dict(kernel_size=2, stride=1, dilation=3), dict(kernel_size=4, stride=3, ceil_mode=True)):
    y = F.max_pool1d(x, **kw)
    g, = torch.autograd.grad(y.pow(2).sum(), x)
    print(kw, y.shape, y[1, 2], g[1, 2])
    kw.pop("dilation", None)
    y = F.avg_pool1d(x, **kw)
    g, = torch.autograd.grad(y.pow(2).sum(), x)
    print(kw, y.shape, y[1, 2], g[1, 2])
y, i = F.max_pool1d(x, 3, return_indices=True)
print(y.grad_fn, y.grad_fn.next_functions[0][0], y.grad_fn.next_functions[0][0].next_functions[0][0])
n = y.grad_fn.next_functions[0][0]
print(y.grad_fn._saved_self_sym_sizes, n._saved_kernel_size, n._saved_stride,
      n._saved_padding, n._saved_dilation, n._saved_result1.shape, i)
print(F.avg_pool1d(x, 2).grad_fn.next_functions[0][0]._saved_kernel_size)
for s in (1, 2, 4, 9, 12):
    for f in (F.adaptive_avg_pool1d, F.adaptive_max_pool1d):
        y = f(x, s)
        g, = torch.autograd.grad(y.pow(2).sum(), x)
        print(f.__name__, s, y.grad_fn.next_functions[0][0], y[0, 1], g[0, 1])
print(F.adaptive_max_pool1d(x, 4, return_indices=True)[1])
x2 = torch.randn(2, 3, 7, 5, requires_grad=True)
for s in ((3, 2), (7, 5), (4, None), 1, (10, 11), (None, 1)):
    y, i = F.adaptive_max_pool2d(x2, s, return_indices=True)
    g, = torch.autograd.grad(y.pow(2).sum(), x2)
    print(s, y.grad_fn, y.shape, y[1, 0], i[1, 0], g[1, 0].sum())
y = F.adaptive_max_pool2d(x2, 2)
print(y.grad_fn._saved_self is x2, y.grad_fn._saved_result1.shape, F.adaptive_max_pool2d(x2[0], 2).grad_fn)
nan = float("nan")
t = torch.tensor([[[1.0, nan, 2.0, nan, 3.0, 3.0, -1.0, -1.0]]], requires_grad=True)
for f in (lambda t: F.max_pool1d(t, 2, return_indices=True), lambda t: F.adaptive_max_pool1d(t, 3, True),
          lambda t: F.max_pool1d(t, 3, 1, 1, return_indices=True), lambda t: F.adaptive_max_pool1d(t, 1, True)):
    y, i = f(t)
    g, = torch.autograd.grad(y.sum(), t)
    print(y, i, g)
t = torch.tensor([[[1.0, 3.0, 3.0, 2.0, 2.0, 0.0]]])
print(F.adaptive_max_pool1d(t, 2, return_indices=True), F.max_pool1d(t, 3, 1, 1, return_indices=True))
print(F.adaptive_max_pool2d(torch.full((1, 1, 3, 3), float("-inf")), 2, return_indices=True))
print(F.adaptive_max_pool1d(torch.arange(5.0).reshape(1, 5), 3), F.max_pool1d(torch.arange(5.0).reshape(1, 5), 5))
print(F.max_pool1d(torch.zeros(0, 2, 5), 2).shape, F.adaptive_max_pool2d(torch.zeros(0, 2, 3, 3), 2).shape,
      F.adaptive_max_pool1d(torch.ones(2, 3, 5), 0).shape)
nc = torch.arange(30.0).reshape(2, 5, 3).transpose(1, 2)
print(F.max_pool1d(nc, 2, ceil_mode=True), F.adaptive_max_pool1d(nc, 2, True)[1], F.avg_pool1d(nc, 3, 2, 1))
print(nn.MaxPool1d(3), nn.MaxPool1d(3, 2, 1, return_indices=True, ceil_mode=True), nn.AvgPool1d(3),
      nn.AvgPool1d(3, 2, 1, ceil_mode=True), nn.AdaptiveAvgPool1d(3), nn.AdaptiveMaxPool1d(3),
      nn.AdaptiveMaxPool2d((2, None)), nn.AdaptiveMaxPool2d(2, True))
print(nn.AvgPool1d(3).kernel_size, nn.AdaptiveMaxPool2d(2, True)(x2)[1].shape)

# GroupNorm
torch.manual_seed(1)
gx = (torch.randn(2, 6, 5, 4) * 3 + 1).requires_grad_()
gn = nn.GroupNorm(3, 6)
print(gn, gn.weight, gn.bias, [name for name, _ in gn.named_parameters()])
with torch.no_grad():
    gn.weight.copy_(torch.linspace(0.5, 2, 6))
    gn.bias.copy_(torch.linspace(-1, 1, 6))
y = gn(gx)
n = y.grad_fn
print(n, n._saved_N, n._saved_C, n._saved_HxW, n._saved_group, n._saved_eps, n._saved_input is gx,
      n._saved_weight is gn.weight, n._saved_result1.detach(), n._saved_result2.detach())
print(y[1, 4])
gn = gn.double()          # the gradients in float64: float32's differ from PyTorch's by a few ulp
gx = gx.detach().double().requires_grad_()
y = gn(gx)
(y * torch.arange(20.0, dtype=torch.float64).reshape(5, 4)).sum().backward()
print(gx.grad[0, 1], gn.weight.grad, gn.bias.grad)
for g, args in ((2, (3, 4, 7)), (3, (2, 6)), (1, (2, 4, 3, 3))):
    v = torch.randn(*args, dtype=torch.float64, requires_grad=True)
    y = F.group_norm(v, g, eps=1e-3)
    print(y.grad_fn._saved_weight, y.grad_fn._saved_HxW, y[1])
    gv, = torch.autograd.grad((y * y.detach().exp()).sum(), v)
    print(gv[1])
print(nn.GroupNorm(2, 6, eps=1e-3, affine=False), nn.GroupNorm(1, 2, bias=False).bias)
print(F.group_norm(torch.zeros(0, 4, 3), 2).shape, F.group_norm(torch.ones(2, 4, 3), 2))

# interpolate and Upsample
torch.manual_seed(2)
u = torch.randn(2, 3, 5, 6, requires_grad=True)
u1 = torch.randn(2, 3, 7, dtype=torch.float64, requires_grad=True)
for kw in (dict(scale_factor=2), dict(size=(7, 8)), dict(scale_factor=1.5), dict(scale_factor=(2, 3)),
           dict(size=(3, 4)), dict(size=(13, 17)), dict(scale_factor=0.7, recompute_scale_factor=True)):
    y = F.interpolate(u, **kw)
    g, = torch.autograd.grad(y.pow(2).sum(), u)
    n = y.grad_fn
    print(kw, n, n._saved_output_size, n._saved_scales_h, n._saved_scales_w, n._saved_self_sym_sizes, y[1, 1, -1],
          g[1, 1, -1])
    for ac in (False, True):
        y = F.interpolate(u.double(), mode="bilinear", align_corners=ac, **kw)
        g, = torch.autograd.grad(y.pow(2).sum(), u)
        print(" bilinear", ac, y.grad_fn, y.grad_fn._saved_align_corners, y[1, 1, -1], g[1, 1, -1])
for kw in (dict(scale_factor=2), dict(size=11), dict(size=4), dict(scale_factor=2.5)):
    for mode, ac in (("nearest", None), ("linear", False), ("linear", True)):
        y = F.interpolate(u1, mode=mode, align_corners=ac, **kw)
        g, = torch.autograd.grad(y.pow(2).sum(), u1)
        print(kw, mode, ac, y.grad_fn, y.grad_fn._saved_output_size, y.grad_fn._saved_scales, y[0, 2], g[0, 2])
print(F.interpolate(torch.arange(5.0).reshape(1, 1, 5), size=7), F.interpolate(torch.arange(4.0).reshape(1, 1, 2, 2),
                                                                                scale_factor=2, mode="bilinear"))
print(F.interpolate(torch.zeros(0, 2, 3, 4), size=5).shape, F.interpolate(u[0], scale_factor=2).grad_fn)
print(nn.Upsample(scale_factor=2), nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True),
      nn.Upsample(size=5), nn.Upsample(scale_factor=(2, 3), mode="bilinear"))
print(nn.Upsample(scale_factor=2, mode="nearest")(torch.arange(4.0).reshape(1, 1, 2, 2)))

# ConvTranspose2d
torch.manual_seed(3)
ct = nn.ConvTranspose2d(3, 2, 3)
print(ct, ct.weight.shape, ct.weight.sum(), ct.bias)
m = nn.ConvTranspose2d(4, 6, (2, 3), stride=2, padding=1, output_padding=1, groups=2, dilation=2, bias=False)
print(m, m.weight.shape, m.kernel_size, m.stride, m.padding, m.output_padding, m.dilation, m.groups, m.transposed)
cx = torch.randn(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
cw = torch.randn(3, 4, 3, 2, dtype=torch.float64, requires_grad=True)
cb = torch.randn(4, dtype=torch.float64, requires_grad=True)
for kw in (dict(stride=2), dict(stride=2, padding=1, output_padding=1), dict(stride=(1, 3), dilation=(2, 1)),
           dict(padding=(1, 0), output_padding=(0, 1), stride=(1, 2))):
    y = F.conv_transpose2d(cx, cw, cb, **kw)
    gs = torch.autograd.grad(y.pow(2).sum(), [cx, cw, cb])
    n = y.grad_fn
    print(kw, y.shape, n, n._saved_transposed, n._saved_output_padding, n._saved_stride, n._saved_bias_sym_sizes_opt,
          y[1, 3, 2], gs[0][1, 2], gs[1][2, 1], gs[2])
y = F.conv_transpose2d(cx[:, :2].reshape(2, 2, 4, 5), cw[:2, :2], groups=2)
print(y.shape, y[0, 3, 1])
print(F.conv_transpose2d(cx[0], cw).grad_fn, F.conv_transpose2d(torch.zeros(0, 3, 2, 2), torch.ones(3, 1, 2, 2)).shape)
print(ct(torch.ones(1, 3, 2, 2)).shape, nn.ConvTranspose2d(3, 3, 3, stride=2)(torch.zeros(1, 3, 5, 5),
                                                                              output_size=(12, 12)).shape)


# d2l 14.10: a transposed convolution initialised with a bilinear kernel upsamples by 2
def bilinear_kernel(in_channels, out_channels, kernel_size):
    factor = (kernel_size + 1) // 2
    if kernel_size % 2 == 1:
        center = factor - 1
    else:
        center = factor - 0.5
    og = (torch.arange(kernel_size).reshape(-1, 1),
          torch.arange(kernel_size).reshape(1, -1))
    filt = (1 - torch.abs(og[0] - center) / factor) * \
           (1 - torch.abs(og[1] - center) / factor)
    weight = torch.zeros((in_channels, out_channels, kernel_size, kernel_size))
    weight[range(in_channels), range(out_channels), :, :] = filt
    return weight


conv_trans = nn.ConvTranspose2d(3, 3, kernel_size=4, padding=1, stride=2, bias=False)
conv_trans.weight.data.copy_(bilinear_kernel(3, 3, 4))
img = torch.arange(48.0).reshape(1, 3, 4, 4) / 47
out = conv_trans(img)
print('input image shape:', img.permute(0, 2, 3, 1).shape)
print('output image shape:', out[0].permute(1, 2, 0).shape)
print(out[0, 0])
X = torch.rand(size=(1, 10, 8, 8))
W = bilinear_kernel(10, 10, 8)
print(F.conv_transpose2d(X, W, padding=2, stride=4).shape)
out.sum().backward()
print(conv_trans.weight.grad[0, 0])

for bad in (lambda: F.max_pool1d(torch.zeros(2, 3, 5), 7), lambda: F.max_pool1d(torch.zeros(2, 3, 5), 3, padding=2),
            lambda: F.max_pool1d(torch.zeros(2, 3, 5), 0), lambda: F.max_pool1d(torch.zeros(2, 3, 5), (2, 2)),
            lambda: F.max_pool1d(torch.zeros(5), 2), lambda: F.max_pool1d(torch.zeros(2, 0, 5), 2),
            lambda: F.max_pool1d(torch.zeros(2, 3, 5), 2, dilation=0),
            lambda: F.max_pool1d(torch.zeros(2, 3, 5, requires_grad=True), 2, padding=-1),
            lambda: F.avg_pool1d(torch.zeros(2, 3, 5), 7), lambda: F.avg_pool1d(torch.zeros(2, 3, 5), (2, 2)),
            lambda: F.avg_pool1d(torch.zeros(5), 2), lambda: F.avg_pool1d(torch.zeros(2, 3, 0), 2),
            lambda: F.adaptive_avg_pool1d(torch.zeros(2, 3, 5), (2, 2)),
            lambda: F.adaptive_avg_pool1d(torch.zeros(2, 3, 0), 2),
            lambda: F.adaptive_avg_pool1d(torch.zeros(2, 3, 5), -1),
            lambda: F.adaptive_max_pool1d(torch.zeros(5), 2), lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 0), 2),
            lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 5), -1),
            lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 5, 5), (2, 2, 2)),
            lambda: F.adaptive_max_pool2d(torch.zeros(5, 5), 2), lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 0, 5), 2),
            lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 5, 5, dtype=torch.long), 2),
            lambda: F.max_pool1d(torch.zeros(2, 3, 5, dtype=torch.long), 2),
            lambda: F.group_norm(torch.zeros(2, 6, 5), 4), lambda: F.group_norm(torch.zeros(6), 3),
            lambda: F.group_norm(torch.zeros(1, 2), 2), lambda: F.group_norm(torch.zeros(2, 6, 5), 3, torch.zeros(5)),
            lambda: F.group_norm(torch.zeros(2, 6, 5), 3, None, torch.zeros(0)),
            lambda: F.group_norm(torch.zeros(2, 6, 5), 3, torch.zeros(6, dtype=torch.float64)),
            lambda: F.group_norm(torch.zeros(2, 6, 5, dtype=torch.long), 3), lambda: nn.GroupNorm(4, 6),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4)), lambda: F.interpolate(torch.zeros(1, 2, 3, 4), 4, 2),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), size=(1, 2, 3)),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), scale_factor=(1, 2, 3)),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), scale_factor=2, mode="foo"),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), scale_factor=2, mode="linear"),
            lambda: F.interpolate(torch.zeros(1, 2, 3), scale_factor=2, mode="bilinear"),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), scale_factor=2, align_corners=True),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), size=0),
            lambda: F.interpolate(torch.zeros(1, 2, 0, 4), size=5, mode="bilinear"),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4), scale_factor=0.1),
            lambda: F.interpolate(torch.zeros(3, 4), size=5),
            lambda: F.interpolate(torch.zeros(1, 2, 3, 4, dtype=torch.long), size=5),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), output_padding=1),
            lambda: F.conv_transpose2d(torch.zeros(1, 5, 5, 5), torch.zeros(3, 4, 3, 3)),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), groups=2),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), torch.zeros(3)),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 1, 1), torch.zeros(3, 4, 3, 3), padding=2),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 0, 5), torch.zeros(3, 4, 3, 3)),
            lambda: F.conv_transpose2d(torch.zeros(3, 5), torch.zeros(3, 4, 3, 3)),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), stride=0),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), dilation=0),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3), padding="same"),
            lambda: F.conv_transpose2d(torch.zeros(1, 3, 5, 5), torch.zeros(3, 4, 3, 3, dtype=torch.float64)),
            lambda: nn.ConvTranspose2d(3, 4, 3, groups=2), lambda: nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect"),
            lambda: m(torch.zeros(1, 4, 5, 5), output_size=(10, 10))):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)
print("done")

# nll_loss and cross_entropy per pixel (NllLoss2DBackward0)
torch.manual_seed(4)
px = torch.randn(2, 3, 4, 5, requires_grad=True)
pt = torch.randint(0, 3, (2, 4, 5))
pt[0, 1, 2] = -100
pw = torch.tensor([0.5, 2.0, 1.0])
for kw in (dict(), dict(reduction="sum"), dict(reduction="none"), dict(weight=pw), dict(weight=pw, reduction="none"),
           dict(ignore_index=1), dict(label_smoothing=0.1)):
    loss = F.cross_entropy(px, pt.clamp(min=0) if "ignore_index" in kw else pt, **kw)
    g, = torch.autograd.grad(loss.sum(), px)
    print(kw, loss.grad_fn, loss.shape, loss.sum().item() if loss.dim() else round(loss.item(), 5), g[0, :, 1])
n = F.nll_loss(px.log_softmax(1), pt, pw).grad_fn
print(n, n._saved_reduction, n._saved_ignore_index, n._saved_total_weight, n._saved_weight, n._saved_target.shape,
      n._saved_self.shape)
p3 = torch.randn(2, 3, 5, dtype=torch.float64, requires_grad=True)
p5 = torch.randn(2, 3, 2, 2, 3, dtype=torch.float64, requires_grad=True)
for x, t in ((p3, torch.randint(0, 3, (2, 5))), (p5, torch.randint(0, 3, (2, 2, 2, 3)))):
    for red in ("mean", "none"):
        loss = F.nll_loss(x, t, reduction=red)
        g, = torch.autograd.grad(loss.sum(), x)
        print(red, loss.grad_fn, loss.grad_fn.next_functions[0][0], loss.sum(), g.sum((0, 1)))
allig = torch.zeros(1, 2, 2, 2, requires_grad=True)
loss = F.nll_loss(allig, torch.full((1, 2, 2), -100))
loss.backward()
print(loss, allig.grad.sum(), F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.long)),
      F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.long), reduction="sum"),
      F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.long), reduction="none").shape)
for bad in (lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.long)),
            lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(3, 4, 5, dtype=torch.long)),
            lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, dtype=torch.long)),
            lambda: F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.long)),
            lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.full((2, 4, 5), 3)),
            lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.full((2, 4, 5), -100), ignore_index=1),
            lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 5, dtype=torch.long), weight=torch.ones(2)),
            lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 5))):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)
print("done")
