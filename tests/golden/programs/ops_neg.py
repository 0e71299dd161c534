# Unary minus, neg() and torch.neg.
import torch

x = torch.tensor([1.0, -2.0, 0.0], requires_grad=True)
print(-x)
print(x.neg())
print(torch.neg(x))
print(type((-x).grad_fn).__name__)
(-x * 3).sum().backward()
print(x.grad)
print(-torch.tensor([1, -2]))
