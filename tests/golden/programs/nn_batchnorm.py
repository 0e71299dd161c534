# nn.BatchNorm1d / nn.BatchNorm2d and F.batch_norm: reprs, parameters and
# buffers (state_dict keys and order), training with the batch's statistics
# (running_mean and running_var updated with momentum, the unbiased
# variance; momentum=None is the cumulative average), eval mode with the
# running statistics, affine=False and track_running_stats=False, the node
# and its saved values, gradients, a second derivative, float32 values bit
# for bit, and the errors (a batch of one in training). Double backward:
# nn_batchnorm_double_backward.py.
import torch
import torch.nn as nn
import torch.nn.functional as F

bn = nn.BatchNorm2d(3)
print(bn)
print(nn.BatchNorm1d(4, eps=1e-3, momentum=None, affine=False), nn.BatchNorm1d(2, track_running_stats=False))
print(nn.BatchNorm1d(2, bias=False), nn.BatchNorm1d(2, bias=False).bias)
print(bn.weight, bn.bias)
print(list(bn.state_dict().keys()))
print(bn.state_dict())
print([name for name, _ in bn.named_buffers()], [name for name, _ in bn.named_parameters()])
print(bn.num_batches_tracked, bn.running_mean, bn.running_var)

torch.manual_seed(0)
x = torch.randn(4, 3, 2, 2, requires_grad=True)
with torch.no_grad():
    bn.weight.copy_(torch.tensor([1.0, 0.5, -2.0]))
    bn.bias.copy_(torch.tensor([0.0, 1.0, 0.25]))
y = bn(x)
print(y)
print(y.grad_fn, y.grad_fn.next_functions[1][0].variable is bn.weight)
print(y.grad_fn._saved_eps, y.grad_fn._saved_training, y.grad_fn._saved_input is x)
print(y.grad_fn._saved_result1, y.grad_fn._saved_result2)
print(y.grad_fn._saved_running_mean, y.grad_fn._saved_running_var)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.arange(48.0).reshape(4, 3, 2, 2)).sum().backward()
print(x.grad)
print(bn.weight.grad, bn.bias.grad)

for step in range(3):
    bn(torch.randn(5, 3, 2, 2) * (step + 1) + step)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
x.grad = None
y = bn(x)
print(y)
print(y.grad_fn, y.grad_fn._saved_training, y.grad_fn._saved_result1, y.grad_fn._saved_result2)
y.pow(2).sum().backward()
print(x.grad, bn.weight.grad)
print(bn(torch.randn(1, 3, 2, 2)).shape, bn.num_batches_tracked)
bn.train()

cumulative = nn.BatchNorm1d(3, momentum=None)
for _ in range(4):
    cumulative(torch.randn(6, 3))
print(cumulative.running_mean, cumulative.running_var, cumulative.num_batches_tracked)

seq = torch.randn(4, 2, 5)
b1 = nn.BatchNorm1d(2)
print(b1(seq))
print(b1.running_mean, b1.running_var)
bare = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
z = bare(torch.randn(2, 3, requires_grad=True))
print(z, z.grad_fn.next_functions, bare.state_dict())
bare.eval()
print(bare(torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])))
constant = nn.BatchNorm1d(2)(torch.tensor([[1.0, 5.0], [1.0, 6.0], [1.0, 7.0]]))
print(constant)

xd = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
w = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
out = F.batch_norm(xd, None, None, w, None, training=True)
print(out.grad_fn.next_functions)
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
print(F.batch_norm(xd, rm, rv, training=True, momentum=0.5), rm, rv)
print(F.batch_norm(xd, rm, rv, w, training=False))

torch.manual_seed(3)
big = torch.randn(16, 5)
model = nn.BatchNorm1d(5)
out = model(big)
print(out.tolist()[:3])
print(model.running_mean.tolist(), model.running_var.tolist())
img = torch.randn(8, 4, 3, 3)
out = nn.BatchNorm2d(4)(img)
print(out[0].tolist())

empty_bn = nn.BatchNorm1d(3)
e = torch.randn(0, 3, requires_grad=True)
y = empty_bn(e)
print(y, y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions[0][0].next_functions])
y.sum().backward()
print(e.grad, empty_bn.weight.grad, empty_bn.running_mean, empty_bn.running_var, empty_bn.num_batches_tracked)
print(nn.BatchNorm2d(2)(torch.randn(2, 2, 0, 3)).shape)

# float32 bit for bit: every digit of the outputs and gradients (PyTorch's CPU kernels,
# the (N, C) path with a partial vector of channels, and the NCHW path)
for shape in [(40, 11), (6, 4, 3, 7)]:
    xf = torch.randn(*shape, requires_grad=True)
    layer = nn.BatchNorm1d(shape[1]) if len(shape) < 4 else nn.BatchNorm2d(shape[1])
    with torch.no_grad():
        layer.weight.copy_(torch.randn(shape[1]))
    out = layer(xf)
    out.backward(torch.randn(*shape))
    print(out.flatten()[:12].tolist(), xf.grad.flatten()[-12:].tolist())
    print(layer.weight.grad.tolist(), layer.bias.grad.tolist(), layer.running_var.tolist())
    layer.eval()
    xf.grad = None
    layer(xf).backward(torch.randn(*shape))
    print(xf.grad.flatten()[:12].tolist(), layer.weight.grad.tolist())

for bad in (lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)), lambda: nn.BatchNorm1d(3)(torch.randn(1, 3, 1)),
            lambda: nn.BatchNorm1d(3)(torch.randn(3)), lambda: nn.BatchNorm2d(3)(torch.randn(2, 3, 4)),
            lambda: nn.BatchNorm2d(3)(torch.randn(2, 4, 4, 4)),
            lambda: F.batch_norm(torch.randn(4, 3), None, None, training=False),
            lambda: F.batch_norm(torch.randn(4, 3), None, None, torch.ones(2), training=True),
            lambda: F.batch_norm(torch.randn(4, 3), None, None, training=True, eps=0.0)):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
print("done")
