# Printing zero-dimensional tensors.
import torch

for v in [3.0, 3, -2.5, True, 0.1, 1 / 3, 100.0, 123456.7891, 1e-8, 2.5e10, 0.0, -0.0]:
    print(torch.tensor(v))
print(torch.tensor(7.0, requires_grad=True))
print(torch.tensor(2.0, dtype=torch.float64))
print(torch.tensor(4, dtype=torch.float64, requires_grad=True) * 2)
