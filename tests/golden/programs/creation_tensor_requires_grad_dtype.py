# requires_grad= and dtype= keywords of torch.tensor.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x, x.requires_grad, x.dtype)
y = torch.tensor([1, 2], dtype=torch.float32, requires_grad=True)
print(y)
z = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
print(z)
w = torch.tensor([1, 2, 3], dtype=torch.float64)
print(w, w.dtype, w.requires_grad)
i = torch.tensor([1.7, -2.7], dtype=torch.int64)  # truncates toward zero
print(i)
b = torch.tensor([0, 2, 0], dtype=torch.bool)
print(b)
