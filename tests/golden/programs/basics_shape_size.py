# shape, size(), size(dim), dim(), len() and torch.Size.
import torch

x = torch.zeros(2, 3)
print(x.shape)
print(x.size())
print(x.size(0), x.size(1), x.size(-1))
print(x.dim(), len(x))
print(x.shape[0], x.shape[-1])
print(x.shape == (2, 3), x.shape == torch.Size([2, 3]))
print(list(x.shape), tuple(x.size()))
s = torch.tensor(5.0)
print(s.shape, s.dim())
v = torch.arange(4)
print(v.shape, len(v), v.size(0))
print(torch.zeros(2, 3, 4).shape)
