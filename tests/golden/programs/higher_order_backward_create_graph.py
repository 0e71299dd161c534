# backward(create_graph=True) keeps the history in .grad: the first gradient
# is copied (CopyBackwards), later ones are added out of place (AddBackward0).
import warnings

import torch

# PyTorch warns about the reference cycle once per process (TORCH_WARN_ONCE),
# so whether a program sees it depends on which ran first: hidden here.
warnings.filterwarnings("ignore", message="Using backward\\(\\) with create_graph=True")

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
y.backward(create_graph=True)
print(x.grad)
first = x.grad
y.backward(create_graph=True)
print(x.grad)
print(first)
print(x.grad.grad_fn.next_functions[0][0] is first.grad_fn)

g = x.grad
x.grad = None
g.sum().backward()
print(x.grad)

# a parameter-like leaf and a 0-d one
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([1.0, 2.0], requires_grad=True)
(w * b).sum().backward(create_graph=True)
print(w.grad)
print(b.grad)
s = torch.tensor(2.0, requires_grad=True)
s.abs().backward(create_graph=True)
print(s.grad)

# the gradient-penalty pattern: the norm of a gradient, minimized
z = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
out = (z.sin() * z).sum()
(gz,) = torch.autograd.grad(out, z, create_graph=True)
penalty = (gz ** 2).sum()
penalty.backward()
print(penalty)
print(z.grad)

# hooks see the gradient with its history
p = torch.tensor([1.0, 3.0], requires_grad=True)
q = p * p
q.register_hook(lambda grad: print("hook:", grad))
(gp,) = torch.autograd.grad(q.sum() * p.sum(), p, create_graph=True)
print(gp)

# a copy_ into a fresh tensor is CopyBackwards too
c = torch.zeros(2)
c.copy_(p)
print(c)
