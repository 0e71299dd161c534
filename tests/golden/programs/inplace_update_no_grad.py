# Updating a leaf parameter in place is allowed under no_grad; it stays a leaf.
import torch

w = torch.tensor([1.0, -1.0], requires_grad=True)
(w * w).sum().backward()
print(w.grad, w._version)
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w._version, w.is_leaf, w.grad_fn)
with torch.no_grad():
    w.add_(1)
    w.mul_(2)
print(w, w._version)
w.grad.zero_()
print(w.grad)
