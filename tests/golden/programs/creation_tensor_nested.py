# torch.tensor from nested lists; one float makes the whole tensor float.
import torch

a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(a)
print(a.dtype, a.shape)
b = torch.tensor([1, 2.5, 3])
print(b, b.dtype)
c = torch.tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]])
print(c)
print(c.shape, c.dim())
d = torch.tensor([[True, False], [False, True]])
print(d, d.dtype)
e = torch.tensor([[1.0], [2.0]])
print(e, e.shape)
