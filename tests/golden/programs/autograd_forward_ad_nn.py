# Forward-mode AD through the ops of a network: running products, norms,
# convolution, pooling, padding and the normalizations (float64 tangents).
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

torch.manual_seed(0)


def jvp(f, *pairs):
    """f's output and its tangent, given (primal, tangent) pairs; None: a constant."""
    with fwAD.dual_level():
        args = [fwAD.make_dual(p, t) if t is not None else p for p, t in pairs]
        out = f(*args)
        primal, tangent = fwAD.unpack_dual(out)
        return primal.detach(), tangent


def rand(*shape):
    return torch.randn(*shape, dtype=torch.float64)


# cumprod, with zeros: the tangent past a row's first zero keeps only the products through it
x = torch.tensor([[2.0, 0.0, 3.0, 0.0, 5.0], [1.5, -1.0, 0.0, 4.0, 2.0], [0.0, 0.0, 1.0, 2.0, 3.0]],
                 dtype=torch.float64)
v = rand(3, 5)
print(jvp(lambda d: d.cumprod(1), (x, v)))
print(jvp(lambda d: d.cumprod(0), (x, v)))
print(jvp(lambda d: torch.cumprod(d, -1), (torch.tensor(0.0, dtype=torch.float64), torch.tensor(2.0, dtype=torch.float64))))
print(jvp(lambda d: d.cumprod(0), (torch.zeros(0, dtype=torch.float64), torch.zeros(0, dtype=torch.float64))))

# norms: every ord, over dims, with zeros and ties
m = torch.tensor([[3.0, -4.0, 0.0], [0.0, 0.0, 0.0], [1.0, -2.0, 2.0]], dtype=torch.float64)
mv = rand(3, 3)
for ord in (2, 1, 3, 0.5, 1.5, float("inf"), 0):
    print(ord, jvp(lambda d: torch.linalg.vector_norm(d, ord, dim=1), (m, mv))[1])
print(jvp(lambda d: d.norm(), (m, mv)), jvp(lambda d: d.norm(p=1, dim=0, keepdim=True), (m, mv))[1])
print(jvp(lambda d: torch.norm(d, dim=(0, 1)), (m, mv))[1], jvp(lambda d: torch.linalg.norm(d), (m, mv))[1])
print(jvp(lambda d: torch.linalg.matrix_norm(d), (m, mv))[1], jvp(lambda d: torch.norm(d, p="fro"), (m, mv))[1])
print(jvp(lambda d: d.std(1), (m, mv))[1], jvp(lambda d: d.var(0, correction=0, keepdim=True), (m, mv))[1])
print(jvp(lambda d: d.std(), (m, mv))[1], jvp(lambda d: d.var(), (m[1], mv[1]))[1])

# convolution: conv(x_t, w) + conv(x, w_t) + b_t
x, w, b = rand(2, 2, 5, 4), rand(3, 2, 3, 2), rand(3)
xt, wt, bt = rand(2, 2, 5, 4), rand(3, 2, 3, 2), rand(3)
print(jvp(lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1), (x, xt), (w, wt), (b, bt))[1])
print(jvp(lambda x, w: F.conv2d(x, w), (x, xt), (w, None))[1])
print(jvp(lambda w, b: F.conv2d(x, w, b, padding="same"), (w, wt), (b, bt))[1])
x1, w1 = rand(1, 4, 7), rand(4, 2, 2)
print(jvp(lambda x, w: F.conv1d(x, w, groups=2, dilation=2, padding=1), (x1, rand(1, 4, 7)), (w1, rand(4, 2, 2)))[1])
print(jvp(lambda x: torch.nn.Conv2d(2, 1, 2, bias=False).double()(x), (x, xt))[1].shape)

# pooling: max picks the tangent at its index; avg and adaptive avg are linear
p = torch.tensor([[[[1.0, 3.0, 3.0, 0.0], [2.0, -1.0, 5.0, 5.0], [0.0, 0.0, 0.0, 0.0], [7.0, 1.0, 2.0, 7.0]]]],
                 dtype=torch.float64)
pt = rand(1, 1, 4, 4)
print(jvp(lambda d: F.max_pool2d(d, 2), (p, pt))[1])
print(jvp(lambda d: F.max_pool2d(d, 3, stride=1, padding=1), (p, pt))[1])
print(jvp(lambda d: F.max_pool2d(d[0], 2, ceil_mode=True, stride=3), (p, pt))[1])
print(jvp(lambda d: torch.nn.MaxPool2d(2)(d), (p, pt))[1])
print(jvp(lambda d: F.avg_pool2d(d, 3, stride=2, padding=1, count_include_pad=False), (p, pt))[1])
print(jvp(lambda d: F.adaptive_avg_pool2d(d, (3, 2)), (p, pt))[1])

# constant padding: the border is a constant, a crop drops the tangent there
print(jvp(lambda d: F.pad(d, (1, 2, 0, 1), value=0.5), (m, mv))[1])
print(jvp(lambda d: F.pad(d, (-1, 1)), (m, mv))[1])

# batch norm (training: the batch's statistics move too; eval: the running ones do not)
x, w, b = rand(4, 3), rand(3), rand(3)
xt, wt, bt = rand(4, 3), rand(3), rand(3)
print(jvp(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (x, xt), (w, wt), (b, bt))[1])
print(jvp(lambda x: F.batch_norm(x, None, None, training=True, eps=1e-3), (x, xt))[1])
rm, rv = torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64), torch.tensor([2.0, 0.25, 1.0], dtype=torch.float64)
print(jvp(lambda x, w, b: F.batch_norm(x, rm, rv, w, b), (x, xt), (w, wt), (b, None))[1])
x4 = rand(2, 3, 2, 2)
print(jvp(lambda x: torch.nn.BatchNorm2d(3).double()(x), (x4, rand(2, 3, 2, 2)))[1])

# layer norm
x, w, b = rand(3, 4), rand(4), rand(4)
print(jvp(lambda x, w, b: F.layer_norm(x, (4,), w, b), (x, rand(3, 4)), (w, rand(4)), (b, rand(4)))[1])
print(jvp(lambda x: F.layer_norm(x, (2, 3)), (rand(2, 2, 3), rand(2, 2, 3)))[1])
print(jvp(lambda x: torch.nn.LayerNorm(4).double()(x), (x, rand(3, 4)))[1])

# a small network, end to end: conv, relu, max pool, flatten, linear
torch.manual_seed(1)
net = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                          torch.nn.Flatten(), torch.nn.Linear(8, 3)).double()
img, direction = rand(2, 1, 4, 4), rand(2, 1, 4, 4)
out, tangent = jvp(net, (img, direction))
print(out, tangent)

# forward over reverse (a Hessian-vector product): the tangent of a gradient, through the backward's own nodes
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-1.0, 1.0, 0.0], [0.3, -0.7, 1.1]], dtype=torch.float64)
v = torch.tensor([[1.0, 0.0, -1.0], [0.5, 2.0, 0.0], [0.0, -1.0, 1.0], [1.0, 1.0, 1.0]], dtype=torch.float64)
w = torch.tensor([0.5, 2.0, -1.0], dtype=torch.float64, requires_grad=True)
rm, rv = torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64), torch.tensor([2.0, 0.25, 1.0], dtype=torch.float64)
for f in (lambda d: F.batch_norm(d, None, None, training=True),
          lambda d: F.batch_norm(d, None, None, w, training=True, eps=1e-3),
          lambda d: F.batch_norm(d, rm, rv, w),
          lambda d: F.conv1d(d.unsqueeze(0), torch.ones(2, 4, 2, dtype=torch.float64)),
          lambda d: F.max_pool2d(d.reshape(1, 1, 4, 3), 2)):
    with fwAD.dual_level():
        d = fwAD.make_dual(x.clone().requires_grad_(), v)
        y = f(d)
        g, = torch.autograd.grad((y * y * y).sum(), d, create_graph=True)
        print(g.grad_fn.name(), fwAD.unpack_dual(g).tangent + 0.0)     # (+ 0.0: the sign of a zero aside)
