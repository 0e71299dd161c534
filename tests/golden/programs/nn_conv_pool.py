# nn.Conv1d / nn.Conv2d / F.conv1d / F.conv2d and max, avg and adaptive avg
# pooling: PyTorch's default initialisation (kaiming_uniform_ then the bias,
# from the global generator), reprs, grad_fn names and saved values, values
# and gradients (stride, padding, 'same' and 'valid', dilation, groups, 1x1
# kernels, strides longer than the kernel, unbatched and empty batches,
# non-contiguous inputs, a weight shared in a loop), max pooling's tie rule
# and indices, avg pooling's divisors, d2l's LeNet shapes, and the errors.
# (Second derivatives: tests/test_conv_pool.py. PyTorch records them as
# ConvolutionBackwardBackward0 and the like, autograd_teach as convolutions
# again, so a diagram of them differs; see ops/conv.py.)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
c = nn.Conv2d(1, 2, 3)
print(c)
print(c.weight)
print(c.bias)
c1 = nn.Conv1d(4, 6, 2, stride=2, padding=1, groups=2, bias=False)
print(c1, c1.weight.shape, c1.bias)
print(nn.Conv2d(2, 4, (1, 2), stride=2, padding='valid', bias=False, groups=2, dilation=2))
print(nn.Conv1d(1, 2, 3, padding='same'), nn.Conv2d(3, 3, 3, padding=(1, 0), dilation=(2, 1)))
print(c.kernel_size, c.stride, c.padding, c.dilation, c.groups, c.in_channels, c.out_channels)
print([name for name, _ in c.named_parameters()])

x = torch.randn(2, 1, 5, 5, requires_grad=True)
y = c(x)
print(y)
print(y.grad_fn, y.grad_fn.next_functions[0][0] is x.grad_fn, y.grad_fn.next_functions[1][0].variable is c.weight)
n = y.grad_fn
print(n._saved_stride, n._saved_padding, n._saved_dilation, n._saved_groups, n._saved_transposed,
      n._saved_output_padding, n._saved_bias_sym_sizes_opt, n._saved_input is x, n._saved_weight is c.weight)
(y * torch.arange(9.0).reshape(3, 3)).sum().backward()
print(x.grad)
print(c.weight.grad)
print(c.bias.grad)

torch.manual_seed(1)
x = torch.randn(1, 4, 6, 7, dtype=torch.float64, requires_grad=True)
w = torch.randn(6, 2, 3, 2, dtype=torch.float64, requires_grad=True)
b = torch.randn(6, dtype=torch.float64, requires_grad=True)
y = F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
print(y.shape, y[0, :, 1])
y.pow(2).sum().backward()
print(x.grad[0, 1], w.grad[3], b.grad)
for kw in (dict(stride=3), dict(padding='valid'), dict(padding='same'), dict(padding=1, stride=2)):
    out = F.conv2d(x, w[:, :, :, :1], groups=2, **kw)
    print(kw, out.shape, out.grad_fn._saved_padding, out.grad_fn._saved_output_padding, round(out.sum().item(), 8))

xs = torch.randn(1, 1, 4, 5, requires_grad=True)
ws = torch.randn(2, 1, 2, 2, requires_grad=True)
ys = F.conv2d(xs, ws, padding='same')
print(ys.shape, ys.grad_fn, ys.grad_fn._saved_padding, ys.grad_fn.next_functions[0][0])
print(ys.grad_fn.next_functions[0][0]._saved_pad)
ys.sum().backward()
print(xs.grad, ws.grad)

one = F.conv2d(torch.arange(18.0).reshape(1, 2, 3, 3), torch.tensor([[[[1.0]], [[-2.0]]]]), torch.tensor([0.5]))
print(one)
empty = F.conv2d(torch.zeros(0, 1, 5, 5), c.weight, c.bias)
print(empty.shape, empty)
u = F.conv1d(torch.arange(10.0).reshape(2, 5), torch.ones(3, 2, 2, requires_grad=True), stride=2)
print(u, u.grad_fn, u.grad_fn._saved_dim, u.grad_fn.next_functions[0][0])
nc = torch.arange(40.0).reshape(1, 2, 5, 4).transpose(2, 3)
print(nc.is_contiguous(), F.conv2d(nc, torch.ones(1, 2, 2, 2)))

h = torch.linspace(-1, 1, 9).reshape(1, 1, 3, 3).requires_grad_()
k = torch.tensor([[[[0.5, -0.25, 0.0], [0.1, 0.2, 0.3], [-0.4, 0.0, 0.25]]]], requires_grad=True)
z = h
for _ in range(3):
    z = torch.tanh(F.conv2d(z, k, padding=1))
z.sum().backward()
print(z, h.grad, k.grad)


# pooling
p = torch.tensor([[[[1.0, 2.0, 2.0, 0.0], [2.0, 1.0, 0.0, 2.0], [3.0, 3.0, 1.0, 1.0], [0.0, 3.0, 1.0, 1.0]]]],
                 requires_grad=True)
m, idx = F.max_pool2d(p, 2, return_indices=True)
print(m, idx, m.grad_fn)
print(m.grad_fn._saved_kernel_size, m.grad_fn._saved_stride, m.grad_fn._saved_padding, m.grad_fn._saved_dilation,
      m.grad_fn._saved_ceil_mode, m.grad_fn._saved_result1, m.grad_fn._saved_self is p)
m.sum().backward()
print(p.grad)
p.grad = None
m = F.max_pool2d(p, 3, stride=1, padding=1)
m.sum().backward()
print(m, p.grad)
torch.manual_seed(2)
q = torch.randn(2, 3, 7, 6, requires_grad=True)
for kw in (dict(kernel_size=(2, 3), stride=(2, 1), padding=(1, 0), dilation=(1, 2)),
           dict(kernel_size=3, stride=2, ceil_mode=True), dict(kernel_size=1, stride=4),
           dict(kernel_size=2, stride=3, padding=1, ceil_mode=True)):
    out = F.max_pool2d(q, **kw)
    g, = torch.autograd.grad(out.sum(), q)
    print(kw, out.shape, out.grad_fn._saved_stride, out[1, 2], round(g[1, 2].sum().item(), 4))
print(F.max_pool2d(q[0], 2).grad_fn, F.max_pool2d(q[0], 2).shape)
ninf = torch.full((1, 1, 3, 3), float('-inf'), requires_grad=True)
m, idx = F.max_pool2d(ninf, 3, stride=2, padding=1, return_indices=True)
m.sum().backward()
print(m, idx, ninf.grad)
nan = float('nan')
print(F.max_pool2d(torch.tensor([[[[1.0, nan, 2.0, nan], [nan, 0.0, 3.0, 1.0]]]]), 2, return_indices=True))
print(F.max_pool2d(torch.full((1, 1, 2, 2), -9223372036854775808), 2, stride=1, padding=1, return_indices=True))

a = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
           dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
           dict(kernel_size=3, stride=1, padding=1, count_include_pad=False), dict(kernel_size=(2, 3), divisor_override=5)):
    out = F.avg_pool2d(a, **kw)
    g, = torch.autograd.grad(out.sum(), a)
    print(kw, out, g)
n = F.avg_pool2d(a, 3, stride=2, padding=1, ceil_mode=True).grad_fn
print(n, n._saved_kernel_size, n._saved_stride, n._saved_padding, n._saved_ceil_mode, n._saved_count_include_pad,
      n._saved_divisor_override)
print(F.avg_pool2d(q, 3, stride=1, padding=1)[1, 1])
print(F.avg_pool2d(torch.arange(16).reshape(1, 4, 4), 3, stride=2, padding=1))

for size in (1, (1, 1), (2, 3), (None, 4), 5, (7, 1)):
    out = F.adaptive_avg_pool2d(q, size)
    g, = torch.autograd.grad((out * out).sum(), q)
    print(size, out.grad_fn, out.shape, out[0, 0], g[0, 0, :2])
n = F.adaptive_avg_pool2d(q, 1).grad_fn
print(n._saved_keepdim, F.adaptive_avg_pool2d(q[0], 2).grad_fn._saved_self.shape)
print(F.adaptive_avg_pool2d(torch.arange(5.0).reshape(1, 1, 1, 5), (1, 3)))

print(nn.MaxPool2d(2), nn.MaxPool2d((2, 3), stride=1, padding=1), nn.AvgPool2d(2),
      nn.AvgPool2d(3, 1, 1, count_include_pad=False), nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool2d(1))
print(nn.MaxPool2d(2)(p).grad_fn._saved_stride, nn.MaxPool2d(2, return_indices=True)(p)[1])
print(F.max_pool2d(torch.zeros(0, 2, 5, 5), 2).shape, F.avg_pool2d(torch.zeros(0, 2, 5, 5), 2).shape)

# d2l 6.6 LeNet: the shapes, and one forward from PyTorch's initialisation
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
print(net)
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape: \t', X.shape)
print(X)
X.sum().backward()
print(net[0].weight.grad.shape, net[-1].bias.grad)

for bad in (lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 3, 3, 3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 7, 3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), dilation=3),
            lambda: F.conv2d(torch.zeros(1, 2, 2, 5), torch.zeros(4, 2, 3, 3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), stride=0),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), padding=-1),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), dilation=0),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 1, 3, 3), groups=3),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3)),
            lambda: F.conv2d(torch.zeros(5, 5), torch.zeros(4, 2, 3, 3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), torch.zeros(3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), stride=2, padding='same'),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), padding='foo'),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), stride=(1, 2, 3)),
            lambda: F.conv1d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3, dtype=torch.float64)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), torch.zeros(4, dtype=torch.float64)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(0, 2, 3, 3)),
            lambda: F.conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(4, 2, 3, 3), groups=0),
            lambda: nn.Conv2d(3, 4, 3, groups=2), lambda: nn.Conv2d(4, 3, 3, groups=2),
            lambda: nn.Conv2d(4, 4, 3, groups=0), lambda: nn.Conv2d(4, 4, 3, stride=2, padding='same'),
            lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 3, padding=2),
            lambda: F.avg_pool2d(torch.zeros(1, 2, 5, 5), 3, padding=2),
            lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 7), lambda: F.avg_pool2d(torch.zeros(1, 2, 5, 5), 7),
            lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 0), lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 2, stride=-1),
            lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 2, padding=-1),
            lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 3, dilation=2, padding=3),
            lambda: F.max_pool2d(torch.zeros(5, 5), 2), lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), (2, 2, 2)),
            lambda: F.avg_pool2d(torch.zeros(1, 2, 5, 5), 2, stride=(1, 2, 3)),
            lambda: F.max_pool2d(torch.zeros(1, 0, 5, 5), 2), lambda: F.max_pool2d(torch.zeros(1, 2, 5, 5), 2, dilation=0),
            lambda: F.avg_pool2d(torch.zeros(1, 2, 5, 5), 2, divisor_override=0),
            lambda: F.adaptive_avg_pool2d(torch.zeros(5, 5), 2), lambda: F.adaptive_avg_pool2d(torch.zeros(1, 2, 5, 5), (2,)),
            lambda: F.adaptive_avg_pool2d(torch.zeros(1, 2, 5, 5), -1),
            lambda: F.adaptive_avg_pool2d(torch.zeros(1, 2, 5, 5, dtype=torch.long), 2)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)
print("done")
