# Gradients of a matrix product: dA = G @ B.T and dB = A.T @ G.
import torch

A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
B = torch.tensor([[1.0, -1.0], [2.0, 0.0], [0.0, 3.0]], requires_grad=True)
C = A @ B
print(C)
C.sum().backward()
print(A.grad)
print(B.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(M @ x).backward(torch.tensor([1.0, 10.0]))
print(x.grad)
print(M.grad)
