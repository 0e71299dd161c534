# sum and mean, whole-tensor and along a dim, with keepdim.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.sum(), torch.sum(x))
print(x.mean(), torch.mean(x))
print(x.sum(dim=0))
print(x.sum(1))
print(torch.sum(x, dim=1, keepdim=True))
print(x.mean(dim=0))
print(x.mean(dim=1, keepdim=True))
print(x.sum(dim=-1).shape, x.sum(0, keepdim=True).shape)
print(x.sum().grad_fn.name(), x.sum(0).grad_fn.name(), x.mean(1).grad_fn.name())
x.mean().backward()
print(x.grad)
x.grad = None
(x.sum(dim=0) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
x.grad = None
x.mean(dim=1, keepdim=True).sum().backward()
print(x.grad)
print(torch.tensor([1, 2, 3]).sum())
