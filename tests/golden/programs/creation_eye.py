# eye: identity matrices, square or rectangular.
import torch

print(torch.eye(3))
print(torch.eye(2, 3))
print(torch.eye(2).dtype)
print(torch.eye(2, dtype=torch.int64))
I = torch.eye(2)
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(A @ I)
