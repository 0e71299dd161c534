# backward(gradient) on a non-scalar computes a vector-Jacobian product.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward(torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)
x.grad = None
y = x * 2
y.backward(torch.ones(3))
print(x.grad)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
n = m ** 2
n.backward(gradient=torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
print(m.grad)
s = torch.tensor(2.0, requires_grad=True)
(s * 3).backward(torch.tensor(2.0))
print(s.grad)
