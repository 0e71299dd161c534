# arange: int64 for int arguments, float32 as soon as one is a float.
import torch

a = torch.arange(5)
print(a, a.dtype)
print(torch.arange(1, 4))
print(torch.arange(10, 0, -3))
b = torch.arange(4.0)
print(b, b.dtype)
print(torch.arange(0, 1, 0.25))
print(torch.arange(5, dtype=torch.float32))
print(torch.arange(3.0, requires_grad=True))
print(torch.arange(0, 2, 0.5).shape)
