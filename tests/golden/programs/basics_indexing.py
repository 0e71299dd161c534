# Indexing and slicing: values, shapes and the grad_fn of views.
import torch

x = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
print(x[0])
print(x[1, 2], x[1][2])
print(x[:, 1])
print(x[0:2])
print(x[-1])
print(x[::2])
print(x[1:, :2])
print(x[0, -1].item())
v = torch.arange(6.0)
print(v[2:5], v[-2:], v[5])
w = torch.arange(6.0, requires_grad=True)
print(w[1])
print(w[1:3])
