# The classic: the second derivative of x**3 is 6x. grad(create_graph=True)
# returns a gradient with a grad_fn, which can be differentiated again.
import torch

x = torch.tensor(3.0, requires_grad=True)
y = x ** 3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
print(dy.requires_grad, dy.is_leaf)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
print(d2y)
(d3y,) = torch.autograd.grad(d2y, x)
print(d3y)

xs = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
(g,) = torch.autograd.grad((xs ** 3).sum(), xs, create_graph=True)
print(g)
print(g.grad_fn.next_functions[0][0] is None)
(h,) = torch.autograd.grad(g.sum(), xs)
print(h)

# sin: d/dx = cos, d2/dx2 = -sin
t = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
(d1,) = torch.autograd.grad(t.sin().sum(), t, create_graph=True)
(d2,) = torch.autograd.grad(d1.sum(), t)
print(d1)
print(d2)
print(torch.allclose(d2, -t.sin()))

# x * x: the two contributions meet in the input buffer (AddBackward0)
print(torch.autograd.grad(xs * xs, xs, torch.ones(3), create_graph=True))
# a gradient that depends on no leaf has no grad_fn
print(torch.autograd.grad(xs * 2, xs, torch.ones(3), create_graph=True))
