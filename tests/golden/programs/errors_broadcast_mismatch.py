# Shapes that cannot broadcast.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

a = torch.ones(3)
b = torch.ones(2)
attempt("(3,) + (2,)", lambda: a + b)
attempt("(2,3) * (3,2)", lambda: torch.ones(2, 3) * torch.ones(3, 2))
attempt("(2,3) - (2,)", lambda: torch.ones(2, 3) - torch.ones(2))
attempt("(2,3) + (3,)", lambda: torch.ones(2, 3) + torch.ones(3))
attempt("(2,1) * (1,4)", lambda: print((torch.ones(2, 1) * torch.ones(1, 4)).shape))
