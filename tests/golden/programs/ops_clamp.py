# clamp with min and/or max; the gradient is 0 where the value was clipped.
import torch

x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
a = x.clamp(-1, 1)
print(a)
b = torch.clamp(x, min=0)
print(b)
c = x.clamp(max=0.0)
print(c)
print(a.grad_fn.name(), b.grad_fn.name(), c.grad_fn.name())
a.sum().backward()
print(x.grad)
x.grad = None
b.sum().backward()
print(x.grad)
print(torch.tensor([1, 5, 9]).clamp(2, 6))
