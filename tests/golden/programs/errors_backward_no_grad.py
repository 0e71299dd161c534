# backward on a tensor that is not part of any graph.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0])
attempt("sum of plain tensor", lambda: (x * 2).sum().backward())
attempt("leaf without grad", lambda: torch.tensor(1.0).backward())
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = (w * 2).sum()
attempt("computed under no_grad", lambda: y.backward())
attempt("detached", lambda: w.sum().detach().backward())
