# dtype objects, their aliases and their printing.
import torch

print(torch.float32, torch.float64, torch.int64, torch.bool)
print(torch.float, torch.double, torch.long)
print(torch.float32 == torch.float, torch.float64 is torch.double)
print(torch.float32 == torch.float64)
print(repr(torch.int64), str(torch.bool))
x = torch.tensor([1.0])
print(x.dtype == torch.float32, x.dtype is torch.float32)
print([torch.tensor(v).dtype for v in (1, 1.0, False)])
print(x.is_floating_point(), torch.tensor([1]).is_floating_point())
