# An in-place change to a saved tensor ends the program at backward.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
z = y * y
y.mul_(2)
print(y._version)
z.sum().backward()
print("not reached")
