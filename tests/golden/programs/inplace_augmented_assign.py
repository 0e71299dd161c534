# += -= *= /= on a tensor modify it in place (same object, _version bumps).
import torch

x = torch.tensor([2.0, 4.0])
before = x
x += 1
print(x, x._version, x is before)
x -= torch.tensor([1.0, 1.0])
print(x, x._version)
x *= 3
print(x, x._version)
x /= 2
print(x, x._version, x is before)
y = x
y += 10
print(x)
x = x + 1  # not in place: a new tensor, a fresh version
print(x, x._version, x is before)
i = torch.tensor([1, 2])
i *= 2
print(i)
