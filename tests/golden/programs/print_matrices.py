# Printing matrices and 3-d tensors.
import torch

print(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
print(torch.tensor([[1, 2], [30, 4]]))
print(torch.tensor([[-1.5, 2.0], [3.0, -40.25], [0.0, 1.0]]))
print(torch.tensor([[True, False], [False, True]]))
print(torch.arange(8.0).reshape(2, 2, 2))
print(torch.arange(12).reshape(2, 3, 2))
print(torch.tensor([[0.1234, 12.5]]))
print(torch.zeros(3, 1))
