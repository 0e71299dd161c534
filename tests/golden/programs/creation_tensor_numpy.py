# torch.tensor copies a numpy array and keeps its dtype (float64 stays float64).
import numpy as np
import torch

a = np.array([1.0, 2.0, 3.0])
t = torch.tensor(a)
print(t)
print(t.dtype)
a[0] = 100.0  # torch.tensor copied, so t is unchanged
print(t)
print(torch.tensor(np.array([[1, 2], [3, 4]])))
print(torch.tensor(np.array([0.5, 1.5], dtype=np.float32)))
print(torch.tensor(np.array([True, False])))
print(torch.tensor(np.array([1.0, 2.0]), dtype=torch.float32))
