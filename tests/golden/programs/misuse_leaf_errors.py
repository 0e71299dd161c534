# Misusing leaves, views and .data: PyTorch raises where a wrong gradient would follow.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2


def set_rg(t, v):
    t.requires_grad = v
    return t


attempt("nonleaf.requires_grad = True", lambda: set_rg(y, True))
attempt("nonleaf.requires_grad = False", lambda: set_rg(y, False))
attempt("nonleaf.requires_grad_(True)", lambda: y.requires_grad_(True))
attempt("torch.ones(3)[1:].detach_()", lambda: torch.ones(3)[1:].detach_())
attempt("x[:1].detach_()", lambda: x[:1].detach_())
attempt("y.view(2).detach_()", lambda: y.view(2).detach_())
attempt("y.detach_()", lambda: y.detach_())
print(y, y.is_leaf)


def set_data(t, v):
    t.data = v
    return t


attempt(".data = int, requires grad", lambda: set_data(torch.ones(2, requires_grad=True), torch.tensor([1, 2])))
attempt(".data = int, no grad", lambda: set_data(torch.ones(2), torch.tensor([1, 2])))
attempt(".data = other shape", lambda: set_data(torch.ones(2, requires_grad=True), torch.ones(3)))
attempt(".data = float64", lambda: set_data(torch.ones(2, requires_grad=True), torch.ones(2, dtype=torch.float64)))
attempt("float(ones(2))", lambda: float(torch.ones(2)))
attempt("int(ones(2))", lambda: int(torch.ones(2)))
attempt("float(ones(0))", lambda: float(torch.ones(0)))
attempt("float(ones(1, 1))", lambda: float(torch.ones(1, 1)))
attempt("ones(2).item()", lambda: torch.ones(2).item())
