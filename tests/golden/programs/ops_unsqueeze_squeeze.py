# unsqueeze and squeeze change only the shape; gradients keep the input shape.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
u = x.unsqueeze(0)
print(u, u.shape)
print(torch.unsqueeze(x, 1).shape, x.unsqueeze(-1).shape)
s = u.squeeze()
print(s, s.shape)
print(torch.zeros(1, 3, 1).squeeze(0).shape, torch.zeros(1, 3, 1).squeeze(2).shape)
print(torch.zeros(2, 1).squeeze(0).shape)
print(u.grad_fn.name(), s.grad_fn.name(), u.squeeze(0).grad_fn.name())
(x.unsqueeze(1) * torch.tensor([[1.0], [2.0], [3.0]])).sum().backward()
print(x.grad)
