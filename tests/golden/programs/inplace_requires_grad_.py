# requires_grad_() switches tracking on a leaf in place and returns it.
import torch

x = torch.tensor([1.0, 2.0])
print(x.requires_grad, x._version)
r = x.requires_grad_()
print(r is x, x.requires_grad, x._version)
print(x)
x.requires_grad_(False)
print(x.requires_grad, x)
x.requires_grad = True
print(x.requires_grad, x.is_leaf)
print((x * 2).requires_grad)
