# d2l's next ops: round(decimals=), div(rounding_mode=), bernoulli, logcumsumexp, unique.
import torch
x = torch.tensor([1.2345, -2.5678, 0.5, 1.5, 2.5, -0.5], requires_grad=True)
r = x.round(decimals=2); print(r)
r.sum().backward(); print(x.grad)
print(torch.round(x, decimals=1), x.round(decimals=-1), torch.tensor([1234.5678]).round(decimals=-2))
try:
    print(torch.round(torch.tensor([1, 15, 25]), decimals=-1))
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
a = torch.tensor([7., -7., 5.5, -5.5], requires_grad=True); b = torch.tensor([2., 2., -2., 2.])
for m in (None, "trunc", "floor"):
    y = a.div(b, rounding_mode=m); print(m, y)
    print(torch.autograd.grad(y.sum(), a))
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="floor"), torch.tensor([7, -7]) // 2)
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc"))
try:
    a.div(b, rounding_mode="round")
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
a2 = a.detach().clone(); a2.div_(b, rounding_mode="floor"); print(a2)
torch.manual_seed(0)
p = torch.tensor([0.1, 0.5, 0.9, 0.3])
print(torch.bernoulli(p), torch.bernoulli(p.expand(3, 4)), p.bernoulli(0.5))
z = torch.zeros(5); print(z.bernoulli_(0.3), torch.rand(2))
q = torch.tensor([0.2, 0.8], requires_grad=True)
s = torch.bernoulli(q); print(s)
try:
    s.sum().backward(); print(q.grad)
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
x = torch.tensor([[1., 2., 3.], [0.5, -1., 4.]], requires_grad=True)
y = torch.logcumsumexp(x, dim=1); print(y)
y.sum().backward(); print(x.grad)
print(torch.logcumsumexp(torch.tensor([-float("inf"), 0.]), 0), x.logcumsumexp(0))
x = torch.tensor([2., 1., 2.], requires_grad=True)
u = torch.unique(x); print(u)
try:
    u.sum().backward()
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
ud = torch.unique(torch.tensor([[1., 2.], [1., 2.]], requires_grad=True), dim=0); print(ud)
try:
    ud.sum().backward()
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
uc = torch.unique_consecutive(x); print(uc)
print(torch.unique(torch.tensor([3, 1, 2, 3, 1, 5]), sorted=False))
print(torch.unique(torch.tensor([[3, 1], [2, 3]]), return_inverse=True))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [3, 4]]), dim=1, return_counts=True))
print(torch.unique(torch.tensor([], dtype=torch.int64), return_counts=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]), return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([float('nan'), 1., float('nan')])))
