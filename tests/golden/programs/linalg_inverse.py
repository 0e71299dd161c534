# torch.linalg: det, inv, solve, cholesky: values, nodes, gradients, errors.
import torch
A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
b = torch.tensor([[1.], [2.]], requires_grad=True)
for name, f in [("det", lambda: torch.linalg.det(A)), ("tdet", lambda: torch.det(A)), ("Adet", lambda: A.det()),
                ("inv", lambda: torch.linalg.inv(A)), ("inverse", lambda: torch.inverse(A)), ("Ainv", lambda: A.inverse()),
                ("solve", lambda: torch.linalg.solve(A, b)), ("chol", lambda: torch.linalg.cholesky(A)),
                ("cholU", lambda: torch.linalg.cholesky(A, upper=True))]:
    r = f(); print(name, r)
    print(torch.autograd.grad(r.sum(), A))
for bad in (lambda: torch.linalg.inv(torch.zeros(2, 2)), lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2)),
            lambda: torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]])), lambda: torch.linalg.det(torch.ones(2, 3)),
            lambda: torch.linalg.inv(torch.ones(2, 3)), lambda: torch.linalg.det(torch.ones(3, 3, dtype=torch.int64))):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, isinstance(e, torch.linalg.LinAlgError), e)
print(torch.linalg.solve(A, torch.tensor([1., 2.])))
B = torch.randn(3, 2, 2, dtype=torch.float64) + 3 * torch.eye(2, dtype=torch.float64)     # a batch
B.requires_grad_()
print(torch.autograd.grad(torch.linalg.det(B).sum(), B)[0].shape, torch.linalg.inv(B).shape)

A64 = A.detach().double().requires_grad_()
g, = torch.autograd.grad(torch.linalg.det(A64), A64, create_graph=True)
print(g.detach().round(decimals=10), g.grad_fn.name(),      # rounded: LAPACK's solve may differ in the last bit
      torch.autograd.grad(g.sum(), A64)[0].round(decimals=10))
x = torch.linalg.solve(A64, torch.tensor([1.0, 2.0], dtype=torch.float64))
print(x, torch.autograd.grad(x.sum(), A64))
