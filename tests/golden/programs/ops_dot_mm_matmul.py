# dot, mm, matmul and @ (matrix-matrix, matrix-vector, vector-vector).
import torch

v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
B = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
print(torch.dot(v, w), v.dot(w))
print(torch.mm(A, B))
print(A.mm(B))
print(A @ B)
print(torch.matmul(A, v))
print(A @ v)
print(v @ w)
print(v.matmul(B))
for r in (torch.dot(v, w), A.mm(B), A @ B, A @ v, v @ w, v @ B):
    print(r.grad_fn.name(), r.shape)
torch.dot(v, w).backward()
print(v.grad, w.grad)
