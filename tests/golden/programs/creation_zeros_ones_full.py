# zeros / ones / full: shapes as varargs or a tuple, default float32.
import torch

print(torch.zeros(2, 3))
print(torch.zeros((2, 2)))
print(torch.ones(3))
print(torch.ones(2, 1, dtype=torch.int64))
print(torch.zeros(2, requires_grad=True))
print(torch.full((2, 2), 7.0))
print(torch.full((3,), 3))  # an int fill value gives int64
print(torch.full((2,), True))
print(torch.ones(2, 2, dtype=torch.float64))
print(torch.zeros(()))
print(torch.ones(2, 3).shape, torch.zeros(4).dtype)
