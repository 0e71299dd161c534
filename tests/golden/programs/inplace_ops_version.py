# In-place methods change the tensor, return it, and bump _version.
import torch

x = torch.tensor([1.0, 2.0, 3.0])
print(x._version)
r = x.add_(1)
print(x, x._version, r is x)
x.sub_(0.5)
print(x, x._version)
x.mul_(2)
print(x, x._version)
x.div_(torch.tensor([1.0, 2.0, 5.0]))
print(x, x._version)
x.zero_()
print(x, x._version)
x.fill_(7)
print(x, x._version)
x.add_(torch.ones(3), alpha=2)
print(x, x._version)
