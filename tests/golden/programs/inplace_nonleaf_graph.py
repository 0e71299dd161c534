# In-place ops on a non-leaf are recorded in the graph.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y, y._version)
y.add_(1)
print(y, y._version)
y.mul_(3)
print(y, y._version)
y.sum().backward()
print(x.grad)
z = x + 0
z += 5
print(z)
z *= x
print(z)
