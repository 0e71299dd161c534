# Empty tensors.
import torch

print(torch.tensor([]))
print(torch.tensor([]).shape, torch.tensor([]).dtype)
print(torch.zeros(0))
print(torch.zeros(0, 3))
print(torch.arange(0))
print(torch.ones(2, 0))
