# rand / randn: shapes, dtypes and ranges (creation_rand_values prints the
# values themselves).
import torch

r = torch.rand(2, 3)
print(r.shape, r.dtype, r.requires_grad)
print(r.min().item() >= 0.0, r.max().item() < 1.0)
n = torch.randn(4)
print(n.shape, n.dtype)
print(torch.randn(size=(2, 2)).shape)
print(torch.rand(size=(3,)).shape)
print(torch.randn(size=()).shape)
print(torch.rand((2, 2)).shape)
w = torch.randn(3, 1, requires_grad=True)
print(w.requires_grad, w.is_leaf, w.grad)
print(torch.rand(2, dtype=torch.float64).dtype)
