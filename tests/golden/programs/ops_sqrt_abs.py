# sqrt and abs; the gradient of abs at 0 is 0.
import torch

x = torch.tensor([1.0, 4.0, 9.0], requires_grad=True)
print(x.sqrt())
print(torch.sqrt(x))
x.sqrt().sum().backward()
print(x.grad)
a = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
print(a.abs())
print(torch.abs(a))
print(a.abs().grad_fn.name(), x.sqrt().grad_fn.name())
torch.abs(a).sum().backward()
print(a.grad)
print(torch.tensor([-1, 2]).abs())
