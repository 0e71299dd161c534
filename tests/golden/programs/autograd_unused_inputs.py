# Leaves not reached by backward keep grad None; reached ones get a grad.
import torch

x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = torch.tensor(3.0, requires_grad=True)
out = x * 2 + y.detach() * 3
out.backward()
print(x.grad, y.grad, z.grad)
q = (x * 0) + z
q.backward()
print(x.grad, z.grad)
