# The ops of the chapters after the tutorials: normal, cat/stack, where,
# softmax/log_softmax, prod/std/var, max/min with dim, // and %, outer, bmm,
# masked_fill, clamp, in-place methods, strides, isnan/isinf; values and grad_fn names.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
print(torch.normal(0, 1, (2, 3)))
print(torch.normal(2.0, 3.0, size=(20,)))
print(torch.normal(torch.arange(4.0), 0.5))
print(torch.normal(1.0, torch.ones(3) * 2))
m = torch.zeros(17, requires_grad=True)
n = torch.normal(m, torch.ones(17))
print(n.grad_fn, n.sum().grad_fn)
n.sum().backward()
print(m.grad)

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
c = torch.cat([x, x * 2], dim=0)
s = torch.stack([x, x], dim=1)
print(c, c.shape, s.shape, s.grad_fn)
print(torch.cat((x, torch.ones(2, 1)), 1))
(c.sum() + (s * 3).sum()).backward()
print(x.grad)
x.grad = None
w = torch.where(x > 0, x, x * 0.1)
print(w)
w.sum().backward()
print(x.grad)
print(torch.where(x > 0, x, 0.0), torch.where(x > 0, 1.0, 0.0))
x.grad = None
sm = x.softmax(dim=1)
lsm = F.log_softmax(x, dim=0)
print(sm, lsm)
(sm[:, 0].sum() + lsm[1].sum()).backward()
print(x.grad)
print(F.softmax(torch.tensor([1.0, 2.0, 3.0])))
print(x.prod(), x.prod(1), x.prod(dim=0, keepdim=True))
print(x.std(), x.var(), x.std(1), x.var(0, unbiased=False), x.var(dim=1, correction=0, keepdim=True))
x.grad = None
(x.prod() + x.std() + x.var(1).sum()).backward()
print(x.grad)
v, i = x.max(dim=1)
print(v, i, x.min(0), x.argmax(), x.argmin(dim=1, keepdim=True))
a = torch.tensor([7, -7, 5])
print(a // 2, a % 3, -7 // torch.tensor(2), 7 % torch.tensor([3, -3]))
f = torch.tensor([5.5, -5.5, 2.0], requires_grad=True)
print(f // 2, f % 2, f % torch.tensor([2.0, -2.0, 3.0]))
r = f % 2
r.sum().backward()
print(f.grad)
try:
    (f // 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.outer(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
b1, b2 = torch.randn(2, 2, 3, requires_grad=True), torch.randn(2, 3, 2)
print(torch.bmm(b1, b2), b1.bmm(b2).grad_fn)
print(x.masked_fill(x < 0, 0.0), x.clamp(-1, 1), x.clamp(min=0), torch.clamp(x, max=2))
y = x.detach().clone()
print(y.exp_(), y.log_(), y.relu_(), y.clamp_(0, 2), y.sigmoid_(), y.tanh_(), y.neg_(), y.abs_(), y.sqrt_())
print(y.masked_fill_(y > 0.6, -1.0))
t = torch.ones(2, 3, 4)
print(t.stride(), t.stride(1), t.is_contiguous(), t.transpose(0, 2).is_contiguous(), t.transpose(0, 2).stride())
z = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
print(torch.isnan(z), z.isinf(), torch.isfinite(z))
h = torch.tensor([1.0, 2.0], requires_grad=True)
k = h * 2
k.exp_()
print(k)
k.sum().backward()
print(h.grad)
