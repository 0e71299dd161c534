# Gradients accumulate across backward calls until zeroed or set to None.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 3).sum().backward()
print(x.grad)
(x * 3).sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
(x * x).sum().backward()
print(x.grad)
g = x.grad
x.grad = None
print(x.grad)
(x * 5).sum().backward()
print(x.grad, g)
