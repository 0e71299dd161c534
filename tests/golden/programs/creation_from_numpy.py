# from_numpy shares memory with the array; .numpy() shares it back.
import numpy as np
import torch

a = np.array([1.0, 2.0, 3.0])
t = torch.from_numpy(a)
print(t)
a[0] = 10.0
print(t)
t.mul_(2)
print(a)
i = torch.from_numpy(np.array([1, 2, 3]))
print(i, i.dtype)
f = torch.from_numpy(np.zeros((2, 2), dtype=np.float32))
print(f, f.dtype)
back = t.numpy()
back[1] = -1.0
print(t)
