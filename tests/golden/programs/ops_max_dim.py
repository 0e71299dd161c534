# max/min along a dim return (values, indices).
import torch

x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], requires_grad=True)
values, indices = x.max(dim=1)
print(values)
print(indices)
m = torch.min(x, 0)
print(m.values, m.indices)
print(torch.max(x, 1))
values.sum().backward()
print(x.grad)
