# requires_grad= and grad_fn= suffixes on multi-line tensors.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(x)
print(x * 2)
print(x.sum(dim=0, keepdim=True))
print(x @ x)
print(torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True))
print(torch.tensor([[1.5, -2.0], [3.0, 4.0]], requires_grad=True).t())
print(torch.ones(2, 2, 2, requires_grad=True) + 1)
