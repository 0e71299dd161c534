# More than 1000 elements: only the edges are shown.
import torch

print(torch.arange(2000))
print(torch.arange(1500.0).reshape(30, 50))
print(torch.zeros(1001).shape)
