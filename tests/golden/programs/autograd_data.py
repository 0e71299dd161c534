# .data: same storage, no grad, and in-place changes do not bump _version.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
d = x.data
print(d, d.requires_grad, d.is_leaf)
print(d.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
d.mul_(10)
print(x, x._version)
x.data = torch.tensor([5.0, 6.0])
print(x, x.requires_grad, x.is_leaf)
y = x * x
print(y.data)
