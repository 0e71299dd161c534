# x += array (and -=, *=, /=, //=, %=, **=, &=, |=): PyTorch's in-place
# operators take a tensor or a number only; for an array they return
# NotImplemented, so Python falls back to x + array, which numpy computes
# (numpy's promotion, a new Tensor through __array_wrap__), and rebinds x.
# The tensor itself is left as it was, version and all. A number (numpy's
# scalars too) is written in place; a list or None is Python's TypeError.
import operator
import numpy as np
import torch


def attempt(label, t, fn):
    before = t.detach().clone() if t.requires_grad else t.clone()
    version = t._version
    try:
        r = fn()
        print(label, "->", type(r).__name__, getattr(r, "dtype", None), r, "| same object:", r is t,
              "| changed:", not torch.equal(before, t.detach()) if before.shape == t.shape else "?",
              "| version +", t._version - version)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0] if str(e) else "")


OPS = ("iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior")
def tensors():
    return {"f32": torch.tensor([1.5, -2.0]), "f64": torch.tensor([1.5, -2.0], dtype=torch.float64),
            "i64": torch.tensor([3, -2]), "bool": torch.tensor([True, False]), "0-d": torch.tensor(2.5),
            "f16": torch.tensor([1.5, -2.0], dtype=torch.float16), "empty": torch.zeros(0, 2)}


arrays = {"f64": np.array([2.0, 4.0]), "f32": np.array([2.0, 4.0], dtype=np.float32), "i64": np.array([2, 3]),
          "bool": np.array([True, True]), "0-d": np.array(2.0), "0-d i64": np.array(3), "empty": np.zeros((0, 2))}
for name in OPS:
    f = getattr(operator, name)
    for tn in tensors():
        for an, a in arrays.items():
            t = tensors()[tn]
            attempt(f"{tn} {name} {an}", t, lambda: f(t, a))
# numbers, numpy's scalars among them, are written in place (or refused when the result cannot be cast)
numbers = {"2": 2, "1.5": 1.5, "True": True, "np.int64": np.int64(2), "np.float32": np.float32(0.5),
           "np.float64": np.float64(2.0), "np.bool_": np.bool_(True)}
for name in OPS[:7]:
    f = getattr(operator, name)
    for tn in ("f32", "i64", "0-d"):
        for nn, n in numbers.items():
            t = tensors()[tn]
            attempt(f"{tn} {name} {nn}", t, lambda: f(t, n))
for other in ([1, 2], (1, 2), None, "a"):
    for name in OPS:
        t = tensors()["f32"]
        attempt(f"f32 {name} {type(other).__name__}", t, lambda: getattr(operator, name)(t, other))

# a tensor that requires grad: numpy's fallback refuses it (numpy()), a leaf refuses to change in place
x = torch.tensor([1.5, -2.0], requires_grad=True)
for name in OPS[:7]:
    attempt(f"leaf {name} f64", x, lambda: getattr(operator, name)(x, arrays["f64"]))
    attempt(f"leaf {name} 2", x, lambda: getattr(operator, name)(x, 2))
y = x * 1
for name in OPS[:7]:
    attempt(f"non-leaf {name} f64", y, lambda: getattr(operator, name)(y, arrays["f64"]))
with torch.no_grad():
    d = x.detach()
    attempt("no_grad x.detach() += f64", d, lambda: operator.iadd(d, arrays["f64"]))

# the augmented assignment statements themselves: the name is rebound, the old tensor kept
t = torch.tensor([1.0, 2.0])
kept = t
t += np.array([0.5, 0.5])
print(type(t).__name__, t, kept, t is kept, kept._version)
t = torch.tensor([1.0, 2.0])
kept = t
t **= np.float64(2)
t //= 3
t %= 2
print(t, kept, t is kept, kept._version)

# in a graph: numbers in place give PyTorch's nodes; the version counter moves on
w = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
h = w * 2
h += np.float32(1)
print(h.grad_fn.name(), [n[0].name() if n[0] else None for n in h.grad_fn.next_functions], h._version)
h *= np.int64(3)
h -= 1
h /= np.float64(2)
print(h.grad_fn.name(), h._version)
h **= 2
print(h.grad_fn.name(), h.grad_fn._saved_exponent, h._version)
h %= 5
print(h.grad_fn.name(), h._version)
h.sum().backward()
print(w.grad)
z = w * 1
z //= 2       # floor_divide_: PyTorch has no derivative for it
print(z, z.grad_fn)
m = torch.tensor([True, False])
m &= torch.tensor([True, True])
attempt("bool |= np.bool_", m, lambda: operator.ior(m, np.bool_(False)))   # a float to PyTorch: not castable to bool
print(m, m._version)
