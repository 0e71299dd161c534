# no_grad / enable_grad / set_grad_enabled used as decorators.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)

@torch.no_grad()
def predict(t):
    return t * 2, torch.is_grad_enabled()

@torch.enable_grad()
def tracked(t):
    return t * 2

@torch.set_grad_enabled(False)
def untracked(t):
    return t * 2

y, enabled = predict(x)
print(y, y.requires_grad, enabled)
print(torch.is_grad_enabled())
with torch.no_grad():
    z = tracked(x)
print(z.requires_grad, z.grad_fn.name())
print(untracked(x).requires_grad, torch.is_grad_enabled())
print(predict.__name__)
