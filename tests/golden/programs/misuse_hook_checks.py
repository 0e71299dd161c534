# A hook may replace a gradient, but not with one of another dtype or shape.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


def on_leaf(ret):
    a = torch.ones(2, requires_grad=True)
    a.register_hook(lambda g: ret)
    (a * 2).sum().backward()
    return a.grad


def on_nonleaf(ret):
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.register_hook(lambda g: ret)
    (b * 2).sum().backward()
    return a.grad


for where, fn in (("leaf", on_leaf), ("non-leaf", on_nonleaf)):
    attempt(where + " float64", lambda: fn(torch.ones(2, dtype=torch.float64)))
    attempt(where + " int64", lambda: fn(torch.ones(2, dtype=torch.int64)))
    attempt(where + " shape [3]", lambda: fn(torch.ones(3)))
    attempt(where + " shape [1]", lambda: fn(torch.ones(1)))
    attempt(where + " list", lambda: fn([1.0, 2.0]))
    attempt(where + " good", lambda: fn(torch.full((2,), 5.0)))


def named_hook(g):
    return g.double()


a = torch.ones(2, requires_grad=True)
a.register_hook(named_hook)
attempt("named hook", lambda: (a * 2).sum().backward())
