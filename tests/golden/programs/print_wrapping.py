# Long rows wrap at 80 characters.
import torch

print(torch.arange(30.0))
print(torch.arange(40))
print(torch.arange(24.0).reshape(2, 12) / 4)
print(torch.linspace(0, 1, 15))
