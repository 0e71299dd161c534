# Comparisons give bool tensors without a grad_fn.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([3.0, 2.0, 1.0])
print(x > 1)
print(x == y)
print(x <= 2, x != y)
print(x >= y, x < 2.5)
print((x > 1).dtype, (x > 1).requires_grad)
print(torch.tensor([[1, 5], [3, 2]]) > 2)
print(torch.tensor(3) == 3)
