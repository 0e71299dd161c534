# A result requires grad when any input does.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
print((a + b).requires_grad, (b + b).requires_grad)
print((a * 2).requires_grad, (b * 2).requires_grad)
c = b * 2
print(c.grad_fn, c.is_leaf)
d = (a + b).sum()
print(d.requires_grad, d.grad_fn.name())
print(torch.exp(b).requires_grad, a.exp().requires_grad)
print(torch.zeros(2).requires_grad, torch.zeros(2, requires_grad=True).requires_grad)
