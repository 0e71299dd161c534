# item() on many elements, impossible view/reshape, bad dims.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.arange(6.0)
attempt("item of 2 elements", lambda: torch.tensor([1.0, 2.0]).item())
attempt("view(4)", lambda: x.view(4))
attempt("reshape(4, 2)", lambda: x.reshape(4, 2))
attempt("sum(dim=2)", lambda: x.sum(dim=2))
attempt("size(3)", lambda: x.size(3))
attempt("index 6", lambda: x[6])
