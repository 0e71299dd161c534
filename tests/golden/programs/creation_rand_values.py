# Printing random tensors, as tutorials do.  The values are torch's stream,
# which autograd_teach does not reproduce, so each number is masked (with its
# alignment padding, which depends on the sign):
# golden-mask: \s*-?\d+\.\d{4}(e[+-]\d+)?
import torch

torch.manual_seed(0)
print(torch.rand(2, 2))
print(torch.randn(3))
print(torch.rand(1, 3, requires_grad=True))
print(torch.randn(2, 1, requires_grad=True) * 2)
