# A composite function: the chain rule through several ops.
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = (x * 2 + 1).sigmoid()
z = (y * y).mean()
print(y)
print(z)
z.backward()
print(x.grad)
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
f = a * a * b + b.exp() / a - (a - b) ** 2
print(f)
f.backward()
print(a.grad, b.grad)
