# torch.matmul, torch.mm and their methods take tensors only: anything else
# is the argument parser's TypeError, naming the argument and its position
# (1 for the method, 2 for the function) and the type as Python's C API
# names it (numpy.ndarray); `@` leaves a number or list to Python's own
# TypeError and an array to numpy.
import numpy as np
import torch
def attempt(name, f):
    try: print(name, f())
    except Exception as e: print(name, type(e).__name__, e)
a = torch.tensor([[1., 2.], [3., 4.]])
for other in ([[1., 0.], [0., 1.]], 2, 2.5, np.eye(2, dtype=np.float32), np.float32(2), (1., 2.), None):
    kind = type(other).__name__
    attempt(f"a.matmul({kind})", lambda: a.matmul(other))
    attempt(f"a.mm({kind})", lambda: a.mm(other))
    attempt(f"torch.matmul(a, {kind})", lambda: torch.matmul(a, other))
    attempt(f"torch.mm(a, {kind})", lambda: torch.mm(a, other))
    if not isinstance(other, np.ndarray):
        attempt(f"a @ {kind}", lambda: a @ other)
b = torch.tensor([[0.5, -1.], [2., 0.]], requires_grad=True)
print(torch.matmul(a, b), torch.mm(a, b), a.matmul(b), a.mm(b))
attempt("a.mm(3x2)", lambda: a.mm(torch.ones(3, 2)))
attempt("torch.matmul(a, 3x2)", lambda: torch.matmul(a, torch.ones(3, 2)))
attempt("a @ float64", lambda: a @ b.double())
