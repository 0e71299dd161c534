# Printing vectors: common width, alignment, int and bool.
import torch

print(torch.tensor([1.0, 2.0, 3.0]))
print(torch.tensor([1.0, 10.5, -3.25]))
print(torch.tensor([0.5, 100.0]))
print(torch.tensor([1, 22, 333, -4]))
print(torch.tensor([True, False, True]))
print(torch.tensor([False]))
print(torch.tensor([1.0]))
print(torch.tensor([-1.0, -2.0]))
print(torch.tensor([0.0, 0.0]))
print(torch.tensor([1.5, 2.25, 1000.125]))
