# nn.GELU / F.gelu: values (float64, where PyTorch's CPU kernel is the C
# library's erf, so bit for bit), the tanh approximation, grad_fn names, the
# saved approximate, first and second derivatives, reprs and errors.
# (float32 values are printed only where PyTorch's vectorized erf agrees at
# 4 decimals: see autograd_teach/ops/gelu.py.)
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0], dtype=torch.float64, requires_grad=True)
y = F.gelu(x)
print(y)
print(y.tolist())
print(y.grad_fn, y.grad_fn._saved_approximate, y.grad_fn._saved_self is x)
print(F.gelu(x, approximate="tanh"))
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
print(g.grad_fn, g.grad_fn.next_functions)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
t = F.gelu(x, approximate="tanh")
gt, = torch.autograd.grad(t.sum(), x, create_graph=True)
print(gt)
print(torch.autograd.grad(gt.sum(), x)[0])

small = torch.tensor([-1.5, -0.25, 0.0, 0.75, 2.0], requires_grad=True)
out = nn.GELU()(small)
print(out)
out.sum().backward()
print(small.grad)
print(nn.GELU(), nn.GELU("tanh"), nn.GELU(approximate="tanh"))
torch.manual_seed(0)
mlp = nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.Linear(4, 1))
print(mlp)
print(mlp(torch.ones(2, 3)))
print(F.gelu(torch.ones(0)), F.gelu(torch.tensor(1e4, dtype=torch.float64)))
print(F.gelu(torch.tensor([float("inf"), float("-inf"), float("nan"), -1e4], dtype=torch.float64)))
inf = float("inf")
for dt in (torch.float32, torch.float64, torch.float16):
    print(F.gelu(torch.tensor([inf], dtype=dt)), F.gelu(torch.tensor([inf, -inf, 1.0], dtype=dt)))
for bad in (lambda: F.gelu(x, approximate="foo"), lambda: nn.GELU("foo")(x)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
F.gelu(torch.arange(3))
