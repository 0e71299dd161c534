# torch.Size behaves like a tuple of ints.
import torch

s = torch.Size([2, 3])
print(s)
print(repr(s), str(s))
print(type(s).__name__, isinstance(s, tuple))
print(s[0], s[1], len(s))
print(s == torch.Size((2, 3)), s == [2, 3])
print(torch.Size([]))
print(torch.ones(4, 1).shape)
a, b = torch.ones(5, 6).shape
print(a, b)
print(torch.ones(2, 3).shape[1:])
