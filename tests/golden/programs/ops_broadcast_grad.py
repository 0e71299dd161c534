# Broadcasting: the gradient is summed back to each input's shape.
import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
c = a + b
print(c)
c.sum().backward()
print(a.grad)
print(b.grad)

col = torch.tensor([[1.0], [2.0]], requires_grad=True)
row = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
p = col * row
print(p)
p.sum().backward()
print(col.grad, col.grad.shape)
print(row.grad, row.grad.shape)

s = torch.tensor(2.0, requires_grad=True)
(s * a).sum().backward()
print(s.grad, s.grad.shape)
