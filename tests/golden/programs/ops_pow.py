# ** and pow with tensor/number exponents, reflected 2 ** x.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
results = [x ** 2, x.pow(3), torch.pow(x, 0.5), 2 ** x, x ** x, torch.pow(2, x)]
for r in results:
    print(r)
print([r.grad_fn.name() for r in results])
(x ** 2).sum().backward()
print(x.grad)
x.grad = None
(2 ** x).sum().backward()
print(x.grad)
x.grad = None
x.pow(3).sum().backward()
print(x.grad)
e = torch.tensor([2.0, 2.0, 2.0], requires_grad=True)
x.grad = None
(x ** e).sum().backward()
print(x.grad, e.grad)
