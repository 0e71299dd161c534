# zh.d2l.ai 2.3 (linear algebra, pytorch tab): reductions along an axis, the
# numpy spelling (axis=) PyTorch accepts, cumsum; with gradients.
import torch

A = torch.arange(20, dtype=torch.float32).reshape(5, 4)
B = A.clone()
print(A.sum(), A.shape)
A_sum_axis0 = A.sum(axis=0)
print(A_sum_axis0, A_sum_axis0.shape)
A_sum_axis1 = A.sum(axis=1)
print(A_sum_axis1, A_sum_axis1.shape)
print(A.sum(axis=[0, 1]))
print(A.mean(), A.sum() / A.numel())
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
sum_A = A.sum(axis=1, keepdim=True)
print(sum_A)
print(A / sum_A)
print(A.cumsum(axis=0))
print(torch.cumsum(torch.tensor([1, 2, 3]), 0), torch.tensor([1, 2]).cumsum(0).dtype)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x.cumsum(1) * torch.tensor([1.0, 10.0])
print(y)
y.sum().backward()
print(x.grad, x.argmax(axis=1), x.mean(axis=1))
