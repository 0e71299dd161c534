# Leaves: tensors created by the user, or produced without tracking.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([1.0, 2.0])
c = a * 2
d = b * 2
e = c.detach()
print(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf, e.is_leaf)
print(a.grad_fn, b.grad_fn, d.grad_fn, e.grad_fn)
with torch.no_grad():
    f = a * 2
print(f.is_leaf, f.requires_grad)
g = torch.ones(2, requires_grad=True) + 1
print(g.is_leaf)
h = torch.ones(2).requires_grad_()
print(h.is_leaf, h.grad_fn)
