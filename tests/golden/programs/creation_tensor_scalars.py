# torch.tensor from Python scalars: the dtype follows the Python type.
import torch

for value in [3, 3.5, -2.0, True, 0]:
    t = torch.tensor(value)
    print(t, t.dtype, t.shape, t.dim())
print(torch.tensor(2.0, requires_grad=True))
print(torch.tensor(7, dtype=torch.float32))
print(torch.tensor(1.5, dtype=torch.float64))
