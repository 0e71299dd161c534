# backward() on a scalar fills .grad of the leaves.
import torch

x = torch.tensor(3.0, requires_grad=True)
y = x ** 2 + 2 * x + 1
print(y)
print(x.grad)
y.backward()
print(x.grad)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = (v * v).sum()
print(s)
s.backward()
print(v.grad)
print(v.grad.requires_grad, v.grad.is_leaf, v.grad.grad_fn)
