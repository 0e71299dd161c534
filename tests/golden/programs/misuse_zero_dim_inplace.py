# In-place writes into 0-d tensors whose gradient arrives from two branches.
import torch

x0 = torch.tensor(0.9, requires_grad=True)
y2 = (x0 - x0) * (x0 - x0)
y3 = y2.t()
y3.mul_(2)
y3.mul_(2)
y3.sum().backward()
print(x0.grad, y3.grad_fn.name())
x = torch.tensor(2.0, requires_grad=True)
y = x * x + x * 3
y2 = y * 1
y2[...] = 5
(y2 + y).backward()
print(x.grad)

# a 0-d tensor changed in place through a view, then broadcast against a 1-element tensor:
# the overwritten region must get no gradient (it used to leak through a numpy scalar)
x1 = torch.tensor(1.23, requires_grad=True)
y0 = 0.5 + x1
y4 = y0 - x1.view(-1)
y4.sum().backward(); print(x1.grad); x1.grad = None
y0 = (0.5 + x1) * 2
y4 = y0 - x1.view(-1)
y4.sum().backward(); print(x1.grad); x1.grad = None
y0 = 0.5 + x1
y1 = y0.unsqueeze(-1)
y1.mul_(2)
y4 = y0 - (x1 * 1).view(-1)
y4.sum().backward(); print(x1.grad); x1.grad = None
y0 = 0.5 + x1
y1 = y0.unsqueeze(-1)
y1.mul_(2)
y4 = y0 - x1.view(1) * 1
y4.sum().backward(); print(x1.grad); x1.grad = None
y0 = 0.5 + x1
y1 = y0.unsqueeze(-1)
y1.mul_(2)
y4 = y0 + torch.zeros(1)
y4.sum().backward(); print(x1.grad); x1.grad = None
