# Negative numbers get room for the sign in every column.
import torch

print(torch.tensor([-1.0, 2.0, 3.0]))
print(torch.tensor([[1.0, -2.0], [-30.0, 4.0]]))
print(torch.tensor([-1, 20, -300]))
print(torch.tensor([[0.5, -0.25], [1.0, 2.0]]))
print(torch.tensor([-0.5, -1.5]))
print(torch.tensor([[-1.0], [10.0]]))
