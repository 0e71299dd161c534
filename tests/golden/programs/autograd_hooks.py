# register_hook: see (and change) the gradient as it flows; remove() undoes it.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.register_hook(lambda g: print("x hook sees", g))
y = x * 3
y.retain_grad()
hy = y.register_hook(lambda g: g + 1)   # replaces y's gradient
(y * y).sum().backward()
print(x.grad, y.grad)
h.remove()
hy.remove()
x.grad = None
y = x * 3
(y * y).sum().backward()
print(x.grad)
doubled = x.register_hook(lambda g: g * 2)
(x * x).sum().backward()
print(x.grad)
try:
    torch.ones(2).register_hook(print)
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
z = x * 2
z.register_hook(lambda g: g.reshape(1, 2))
try:
    z.sum().backward()
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
