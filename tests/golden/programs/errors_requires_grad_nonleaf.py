# requires_grad can only be switched off on leaves.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

def set_attr():
    y.requires_grad = False

x = torch.tensor([1.0], requires_grad=True)
y = x * 2
attempt("requires_grad_(False)", lambda: y.requires_grad_(False))
attempt("requires_grad = False", set_attr)
attempt("requires_grad_(True)", lambda: y.requires_grad_(True))
attempt("detach then switch", lambda: y.detach().requires_grad_(False))
print(y.requires_grad)
