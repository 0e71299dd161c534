# Type promotion in arithmetic between tensors and Python numbers.
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0, 3.0])
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
print((i + 1).dtype, (i + 1.5).dtype, (i * 2.0).dtype)
print(i / 2)  # true division gives float32
print((i + f).dtype, (f + d).dtype, (i + d).dtype)
print(f * 2, (f * 2).dtype)
print(i + 1.5)
print(f + d)
print((i > 1).dtype)
