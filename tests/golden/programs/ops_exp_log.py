# exp and log in method and function form, and their gradients.
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
print(x.exp())
print(torch.exp(x))
y = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
print(y.log())
print(torch.log(y))
print(x.exp().grad_fn.name(), torch.log(y).grad_fn.name())
x.exp().sum().backward()
print(x.grad)
torch.log(y).sum().backward()
print(y.grad)
print(torch.log(torch.exp(torch.tensor([0.5, 1.5]))))
