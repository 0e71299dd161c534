# The same changes made through .data are invisible to the version counter.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x          # saves x
x.data.add_(1)     # x is now [2, 3, 4], _version unchanged
print(x._version)
y.sum().backward()
print(x.grad)      # computed with the modified x: 2 * [2, 3, 4]
a = torch.tensor([0.0, 1.0], requires_grad=True)
b = a.exp()
b.data.fill_(2.0)
b.sum().backward()
print(a.grad)
