# linspace: float32, both ends included.
import torch

a = torch.linspace(0, 1, 5)
print(a, a.dtype)
print(torch.linspace(-1, 1, steps=3))
print(torch.linspace(0, 10, 4))
print(torch.linspace(2, 2, 1))
print(torch.linspace(0, 1, steps=5, requires_grad=True))
