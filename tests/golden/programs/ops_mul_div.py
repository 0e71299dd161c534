# * and / (operators, methods, functions, reflected) and their gradients.
import torch

x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
y = torch.tensor([2.0, 0.5, -1.0], requires_grad=True)
results = [x * y, x * 3, 3 * x, x / y, x / 2, 1 / x,
           torch.mul(x, y), x.mul(2), torch.div(x, y), x.div(4)]
for r in results:
    print(r)
print([r.grad_fn.name() for r in results])
(x * y).sum().backward()
print(x.grad, y.grad)
x.grad = None
y.grad = None
(x / y).sum().backward()
print(x.grad, y.grad)
x.grad = None
(1 / x).sum().backward()
print(x.grad)
