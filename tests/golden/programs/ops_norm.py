# norm (2-norm of a vector, Frobenius norm of a matrix) and its gradient x/|x|.
import torch

x = torch.tensor([3.0, 4.0], requires_grad=True)
n = x.norm()
print(n)
print(torch.norm(x))
print(n.grad_fn.name())
n.backward()
print(x.grad)
M = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
print(M.norm())
