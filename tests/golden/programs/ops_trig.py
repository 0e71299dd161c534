# sin, cos and tanh with their gradients.
import torch

x = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
print(x.sin())
print(torch.cos(x))
print(x.tanh())
print(torch.tanh(x))
print([f.grad_fn.name() for f in (x.sin(), x.cos(), x.tanh())])
x.sin().sum().backward()
print(x.grad)
x.grad = None
torch.cos(x).sum().backward()
print(x.grad)
x.grad = None
x.tanh().sum().backward()
print(x.grad)
