# detach() shares memory (and the version counter), needs no grad, is a leaf.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
d = y.detach()
print(d, d.requires_grad, d.is_leaf, d.grad_fn)
print(d.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
print(d is y)
d[0] = 100.0
print(y)
print(y._version, d._version)
e = x.detach()
e.add_(1)
print(x)
print((d * 2).requires_grad)
