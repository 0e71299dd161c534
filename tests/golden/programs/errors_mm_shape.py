# Matrix product shape errors.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

A = torch.ones(2, 3)
attempt("mm (2x3)(2x3)", lambda: torch.mm(A, A))
attempt("@ (2x3)(2x3)", lambda: A @ A)
attempt("matmul (2x3)(2,)", lambda: torch.matmul(A, torch.ones(2)))
attempt("mm with a vector", lambda: torch.mm(A, torch.ones(3)))
attempt("dot 3 and 2", lambda: torch.dot(torch.ones(3), torch.ones(2)))
attempt("(2x3) @ (3x4)", lambda: print((A @ torch.ones(3, 4)).shape))
