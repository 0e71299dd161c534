# Printing random tensors, as tutorials do.  autograd_teach draws PyTorch's
# exact stream (autograd_teach/compat/random.py), so the values are compared too.
import torch

torch.manual_seed(0)
print(torch.rand(2, 2))
print(torch.randn(3))
print(torch.rand(1, 3, requires_grad=True))
print(torch.randn(2, 1, requires_grad=True) * 2)
