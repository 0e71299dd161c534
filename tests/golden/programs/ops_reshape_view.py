# reshape and view (with -1); gradients come back in the original shape.
import torch

x = torch.arange(6.0, requires_grad=True)
a = x.reshape(2, 3)
print(a)
b = x.view(3, 2)
print(b)
print(x.view(-1, 3).shape, x.reshape(-1).shape, x.reshape(1, 2, 3).shape)
print(a.grad_fn.name(), b.grad_fn.name())
(a * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(x.grad)
m = torch.tensor([[1, 2], [3, 4]])
print(m.view(4), m.reshape(4, 1))
