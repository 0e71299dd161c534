# zh.d2l.ai 2.3 (norms) and 4.5 (weight decay's L2 penalty), in the
# torch.linalg spelling the English edition uses: linalg.norm, vector_norm,
# matrix_norm, their gradients and their errors.
import torch

u = torch.tensor([3.0, -4.0])
print(torch.linalg.norm(u), torch.linalg.vector_norm(u, 1), torch.abs(u).sum(), torch.norm(u))
print(torch.linalg.norm(torch.ones((4, 9))), torch.linalg.matrix_norm(torch.ones((4, 9))))
A = torch.arange(6.0).reshape(2, 3).requires_grad_()
print(torch.linalg.norm(A), torch.linalg.vector_norm(A, 1), torch.linalg.matrix_norm(A))
print(torch.linalg.norm(A, "fro"), torch.linalg.norm(A[0]), torch.linalg.norm(A, dim=1))
print(torch.linalg.vector_norm(A, float("inf"), dim=0, keepdim=True), torch.linalg.vector_norm(A, 3, dim=(0, 1)))
print(torch.linalg.norm(A, 1, dim=0), torch.linalg.matrix_norm(A, keepdim=True))
print(torch.linalg.vector_norm(A, dtype=torch.float64))
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
l2 = torch.linalg.norm(w) ** 2 / 2
l2.backward()
print(l2, w.grad)
B = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
r = torch.linalg.matrix_norm(B)
print(r)
r.sum().backward()
print(B.grad[1])
for bad in [lambda: torch.linalg.norm(torch.arange(3)), lambda: torch.linalg.norm(A[0], "fro"),
            lambda: torch.linalg.matrix_norm(A[0]), lambda: torch.linalg.norm(A.detach(), ord=3),
            lambda: torch.linalg.norm(torch.ones(2, 2, 2), "fro")]:
    try:
        print(bad())
    except RuntimeError as e:
        print(type(e).__name__, e)
