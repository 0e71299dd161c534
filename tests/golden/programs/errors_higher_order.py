# Misuse around higher-order gradients, and PyTorch's messages.
import torch
from torch.autograd.functional import hessian, jacobian


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.tensor([1.0, 2.0], requires_grad=True)
# a gradient computed without create_graph is a constant
(g,) = torch.autograd.grad((x ** 3).sum(), x)
print(g)
attempt(lambda: torch.autograd.grad(g.sum(), x))
attempt(lambda: g.sum().backward())

# create_graph=True retains the graph by default; retain_graph=False frees it
y = (x ** 3).sum()
(g2,) = torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
attempt(lambda: torch.autograd.grad(y, x))
(h,) = torch.autograd.grad(g2.sum(), x)
print(h)
attempt(lambda: torch.autograd.grad(g2.sum(), x))

# a second derivative that does not depend on x
(gl,) = torch.autograd.grad((x * 3).sum(), x, create_graph=True)
print(gl, gl.requires_grad)
attempt(lambda: torch.autograd.grad(gl.sum(), x))
(gq,) = torch.autograd.grad((x * x).sum(), x, create_graph=True)
attempt(lambda: torch.autograd.grad(gq.sum(), [x, torch.ones(2, requires_grad=True)], retain_graph=True))
print(torch.autograd.grad(gq.sum(), [x, torch.ones(2, requires_grad=True)], allow_unused=True))

attempt(lambda: hessian(lambda a: a ** 3, torch.tensor([1.0, 2.0])))
attempt(lambda: hessian(lambda a: (a, a), torch.tensor([1.0, 2.0])))
attempt(lambda: jacobian(lambda a: torch.ones(2), torch.tensor([1.0]), strict=True))
attempt(lambda: jacobian(lambda a: a.tolist(), torch.tensor([1.0])))
attempt(lambda: jacobian(lambda a: a, [1.0]))
attempt(lambda: jacobian(lambda a, b: a, (torch.tensor([1.0]), 2.0)))
attempt(lambda: jacobian(lambda a: a * 2, torch.tensor([1.0]), strict=True, create_graph=True))
attempt(lambda: hessian(lambda a: a.sum(), torch.tensor([1.0, 2.0]), strict=True))
attempt(lambda: torch.ones(2, 3).sum_to_size(3, 2))
print(torch.ones(2, 3).sum_to_size(1, 3))
