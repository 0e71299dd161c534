# grad_fn objects print as <NameBackwardN object at 0x...>; leaves have None.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.grad_fn)
y = x * 3
print(y.grad_fn)
print(repr(y.grad_fn))
print((y + 1).grad_fn)
print(y.sum().grad_fn)
print(y.exp().grad_fn)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print(y.grad_fn is y.grad_fn)
print(torch.tensor(1.0).grad_fn)
