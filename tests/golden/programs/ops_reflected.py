# Reflected operators with a Python number on the left.
import torch

x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
for r in (2 * x, 1 / x, 2 ** x, 3 - x, 5 + x, 8 / x):
    print(r, type(r.grad_fn).__name__)
(2 * x + 1 / x + 2 ** x + 3 - x).sum().backward()
print(x.grad)
i = torch.tensor([1, 2, 3])
print(2 * i, 1 / i, 2 ** i, 10 - i)
