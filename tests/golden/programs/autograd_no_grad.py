# no_grad: results are not tracked; enable_grad inside re-enables tracking.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    y = x * 2
    print(y, y.requires_grad, y.grad_fn)
    with torch.enable_grad():
        print(torch.is_grad_enabled())
        z = x * 2
    print(z.requires_grad, z.grad_fn.name())
print(torch.is_grad_enabled())
print(x.requires_grad, (x * 2).requires_grad)
