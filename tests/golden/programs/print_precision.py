# Four decimals by default; integral floats print as "1.".
import torch

print(torch.tensor([1 / 3, 2 / 3]))
print(torch.tensor([0.12345, 1.00005, 2.99999]))
print(torch.tensor([1.0, 2.5]))
print(torch.tensor([1.0, 2.0]))
print(torch.tensor([1.1, 2.2, 3.3]))
print(torch.tensor([0.5]))
print(torch.tensor([1e-3, 1.0]))
print(torch.tensor([0.015625, 3.0]))
print(torch.tensor([5.0, 0.25, 128.0]))
