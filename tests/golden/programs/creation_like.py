# zeros_like / ones_like copy shape and dtype, not requires_grad.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
z = torch.zeros_like(x)
print(z, z.requires_grad)
o = torch.ones_like(x)
print(o)
i = torch.ones_like(torch.tensor([1, 2, 3]))
print(i, i.dtype)
print(torch.zeros_like(x, dtype=torch.float64))
print(torch.ones_like(x, requires_grad=True))
