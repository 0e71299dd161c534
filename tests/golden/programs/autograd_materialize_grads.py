# autograd.grad(materialize_grads=True): zeros, not None, for an input the outputs do not use.
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3.], requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), (x, y), materialize_grads=True))
print(torch.autograd.grad((x * 2).sum(), (x, y), materialize_grads=True, allow_unused=True))
try:
    torch.autograd.grad((x * 2).sum(), (x, y), materialize_grads=True, allow_unused=False)
except ValueError as e:
    print(type(e).__name__, e)
g = torch.autograd.grad((x * 2).sum(), (x, y), materialize_grads=True, create_graph=True)
print(g, g[1].requires_grad)
g = torch.autograd.grad((x ** 2).sum(), (x, y), materialize_grads=True, create_graph=True)
print(g)
print(torch.autograd.grad(g[0].sum(), (x, y), materialize_grads=True))
z = torch.tensor([1, 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), (z,), materialize_grads=True))
print(torch.autograd.grad((x * 2).sum(), (x, y), allow_unused=True))
