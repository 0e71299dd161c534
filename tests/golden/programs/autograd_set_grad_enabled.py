# set_grad_enabled as a context manager and as a plain call.
import torch

x = torch.tensor([1.0], requires_grad=True)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
with torch.set_grad_enabled(True):
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
