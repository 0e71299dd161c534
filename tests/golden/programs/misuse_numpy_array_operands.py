# A numpy array on either side of a Tensor operator. PyTorch's operators
# refuse an array (NotImplemented), so numpy computes: with the tensor's values
# (numpy(), refused for a tensor that requires grad), by numpy's type promotion,
# wrapped back into a Tensor (bools as uint8). Only == reads the array as a
# tensor; != falls back to identity, < to Python's TypeError. Reflected forms
# are refused by numpy except /, which PyTorch computes as reciprocal() * array.
import operator
import numpy as np
import torch


def attempt(label, fn):
    try:
        r = fn()
        print(label, "->", type(r).__name__, r)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


OPS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "eq", "ne", "lt", "ge", "and_", "or_", "matmul")
x = torch.tensor([1.5, -2.0], requires_grad=True)
tensors = {"f32": torch.tensor([1.5, -2.0]), "f64": torch.tensor([1.5, -2.0], dtype=torch.float64),
           "i64": torch.tensor([3, -2]), "bool": torch.tensor([True, False]), "0-d": torch.tensor(2.5),
           "f16": torch.tensor([1.5, -2.0], dtype=torch.float16)}
arrays = {"f64": np.array([2.0, 4.0]), "f32": np.array([2.0, 4.0], dtype=np.float32), "i64": np.array([2, 3]),
          "bool": np.array([True, True]), "0-d": np.array(2.0), "empty": np.zeros((0, 2))}
for name in OPS:
    f = getattr(operator, name)
    for an, a in arrays.items():
        attempt(f"x {name} {an}", lambda: f(x, a))
        attempt(f"{an} {name} x", lambda: f(a, x))
for name in OPS:
    f = getattr(operator, name)
    for tn, t in tensors.items():
        for an, a in arrays.items():
            attempt(f"{tn} {name} {an}", lambda: f(t, a))
            attempt(f"{an} {name} {tn}", lambda: f(a, t))
for other in ([1, 2], (1, 2), None, "a"):
    for name in OPS:
        f = getattr(operator, name)
        if name not in ("eq", "ne", "matmul"):
            attempt(f"f32 {name} {type(other).__name__}", lambda: f(tensors["f32"], other))
with torch.no_grad():
    attempt("x.detach() + f64", lambda: x.detach() + arrays["f64"])
y = x * np.float32(2) + np.float64(1) / x       # numpy scalars are numbers: the graph is PyTorch's
y.sum().backward()
print(y, x.grad)
