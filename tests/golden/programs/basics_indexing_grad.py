# Gradients flow back through indexing and slicing; untouched entries get 0.
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x[1:3] * 2
y.sum().backward()
print(x.grad)

m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(m[0, 1] * m[1, 0]).backward()
print(m.grad)

p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(p[0] + p[0] + p[-1] ** 2).backward()
print(p.grad)

q = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
q[:, 1].sum().backward()
print(q.grad)
