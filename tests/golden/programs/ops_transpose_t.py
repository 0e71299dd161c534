# t(), transpose(0, 1) and .T, with their grad_fns and gradients.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.t())
print(torch.t(x))
print(x.transpose(0, 1))
print(torch.transpose(x, 1, 0).shape)
print(x.t().grad_fn.name(), x.transpose(0, 1).grad_fn.name(), x.T.grad_fn.name())
(x.t() * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
print(x.grad)
