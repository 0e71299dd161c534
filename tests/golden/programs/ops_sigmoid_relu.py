# sigmoid and relu (method, torch., torch.nn.functional); relu'(0) is 0.
import torch
import torch.nn.functional as F

x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
print(x.sigmoid())
print(torch.sigmoid(x))
print(x.relu())
print(torch.relu(x))
print(F.relu(x))
print(x.sigmoid().grad_fn.name(), x.relu().grad_fn.name())
x.sigmoid().sum().backward()
print(x.grad)
x.grad = None
torch.relu(x).sum().backward()
print(x.grad)
x.grad = None
F.relu(x * 2).sum().backward()
print(x.grad)
