# Integer and bool results never require grad in PyTorch: a cast to them cuts
# the graph, and backward through it is refused instead of giving a gradient.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.tensor([1.5, 2.5], requires_grad=True)
for name in ("long", "int", "bool", "double", "float"):
    t = getattr(x, name)()
    print(name, t, t.requires_grad, t.is_leaf)
print(x.to(torch.int64), x.to(dtype=torch.int32), x.type(torch.int64))
print(x.to(torch.float64))
attempt("(x.long() * 3).float().sum().backward()", lambda: (x.long() * 3).float().sum().backward())
print(x.grad)
(x.double() * 3).sum().backward()
print(x.grad)
# an integer sum or mean of a tensor in a graph is refused, not cut silently
attempt("x.sum(dtype=torch.int64)", lambda: x.sum(dtype=torch.int64))
attempt("x.sum(0, dtype=torch.int32)", lambda: x.sum(0, dtype=torch.int32))
attempt("x.mean(dtype=torch.int64)", lambda: x.mean(dtype=torch.int64))
attempt("x.sum(dtype=torch.float64)", lambda: x.sum(dtype=torch.float64))
attempt("ones(2).sum(dtype=torch.int64)", lambda: torch.ones(2).sum(dtype=torch.int64))
with torch.no_grad():
    print(x.sum(dtype=torch.int64))
