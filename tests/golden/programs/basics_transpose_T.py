# .T on a matrix.
import torch

x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x.T)
print(x.T.shape, x.shape)
print(x.T.T)
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(w.T)
print(w.T.is_leaf)
