# numpy scalars and arrays on either side of every binary operator.
# PyTorch's Tensor sets __array_priority__ = 1000, so numpy defers to it.
import operator

import numpy as np
import torch


def attempt(label, fn):
    try:
        r = fn()
        print(label, "->", type(r).__name__, r)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.ones(3, requires_grad=True)
t = torch.tensor([1.0, 2.0, 4.0])
OPS = ("add", "sub", "mul", "truediv", "pow", "eq", "ne", "lt", "le", "gt", "ge")
SCALARS = (("np.float64(2)", np.float64(2)), ("np.float32(2)", np.float32(2)),
           ("np.int64(2)", np.int64(2)), ("np.sqrt(2.)", np.sqrt(2.0)), ("np.bool_(True)", np.bool_(True)))
for sname, s in SCALARS:
    for name in OPS:
        f = getattr(operator, name)
        for tname, tt in (("x", x), ("t", t)):
            attempt(f"{sname} {name} {tname}", lambda: f(s, tt))
            attempt(f"{tname} {name} {sname}", lambda: f(tt, s))
for sname, s in SCALARS[:2]:
    attempt(f"{sname} @ t", lambda: s @ t)
y = np.sqrt(2.0) * x + np.float32(3) * x
y.sum().backward()
print(y, x.grad)
arr = np.array([1.0, 2.0, 3.0])
for name in ("add", "sub", "mul", "truediv", "pow", "matmul"):
    f = getattr(operator, name)
    attempt(f"t {name} arr", lambda: f(t, arr))
for name in ("sub", "mul", "pow", "matmul"):
    f = getattr(operator, name)
    attempt(f"arr {name} t", lambda: f(arr, t))
    attempt(f"arr {name} x", lambda: f(arr, x))
print(type(np.float64(2) * torch.ones(3)).__name__, type(np.float32(2) * torch.ones(3)).__name__)
attempt("np.sqrt(t)", lambda: np.sqrt(t))
attempt("np.sqrt(torch.tensor(4.))", lambda: np.sqrt(torch.tensor(4.0)))
attempt("np.sqrt(x)", lambda: np.sqrt(x))
attempt("np.greater(t, 2)", lambda: np.greater(t, 2))
attempt("np.add(t, t)", lambda: np.add(t, t))
attempt("np.asarray(t)", lambda: np.asarray(t))
attempt("arr + t", lambda: arr + t)
attempt("arr / t", lambda: arr / t)
attempt("arr == t", lambda: arr == t)
attempt("np.array(2.) * t", lambda: np.array(2.0) * t)
attempt("bool tensor - np.bool_", lambda: torch.tensor([True]) - np.bool_(True))
attempt("bool tensor * np.bool_", lambda: torch.tensor([True]) * np.bool_(True))
attempt("bool tensor * np.int64", lambda: torch.tensor([True]) * np.int64(1))
