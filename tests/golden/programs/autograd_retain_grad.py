# retain_grad() keeps the gradient of a non-leaf.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
print(y.retains_grad, x.retains_grad)
z = (y * y).sum()
z.backward()
print(y.grad)
print(x.grad)
print(y.is_leaf, y.grad_fn.name())
