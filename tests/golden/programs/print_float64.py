# Non-default dtypes get a dtype= suffix; float32, int64 and bool do not.
import numpy as np
import torch

print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor([[0.5, 1.5], [2.5, 3.5]], dtype=torch.float64))
print(torch.tensor(1.0, dtype=torch.float64))
print(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), torch.tensor([True]))
print(torch.from_numpy(np.array([1.0, 2.0])))
print(torch.tensor([1 / 3], dtype=torch.float64))
print(torch.zeros(2, dtype=torch.float64) + 1)
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True) * 2)
