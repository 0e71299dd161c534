# + and - (operators, methods, functions, reflected) and their gradients.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.0, 4.0], requires_grad=True)
results = [x + y, x - y, x + 2, 2 + x, 2 - x, x - 1,
           torch.add(x, y), x.add(y), torch.sub(x, y), x.sub(y)]
for r in results:
    print(r)
print([type(r.grad_fn).__name__ for r in results])
(x + y - 2 * (x - y)).sum().backward()
print(x.grad)
print(y.grad)
