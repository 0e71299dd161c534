# Whole-tensor max and min (no ties): the gradient goes to the extreme entry.
import torch

x = torch.tensor([[1.0, 5.0], [-3.0, 2.0]], requires_grad=True)
print(x.max())
print(torch.min(x))
print(x.max().grad_fn.name(), x.min().grad_fn.name())
x.max().backward()
print(x.grad)
x.grad = None
torch.min(x).backward()
print(x.grad)
print(torch.tensor([3, 1, 2]).max())
