# When the range is wide, or values very large or small: scientific notation.
import torch

print(torch.tensor([1e-5, 1.0]))
print(torch.tensor([123456789.0]))
print(torch.tensor([1e10, 1.0]))
print(torch.tensor([0.0001, 1000.0]))
print(torch.tensor([1e-4]))
print(torch.tensor([1e-5]))
print(torch.tensor([1.0, 999.0]))
print(torch.tensor([1.0, 1001.0]))
print(torch.tensor([-1e-6, 2.0]))
print(torch.tensor([100000000.0]))
print(torch.tensor([[1e-5, 1.0], [2.0, 3.0]]))
print(torch.tensor([1e8, 1.0], requires_grad=True))
