# torch.nan_to_num(x, out=y): the result written into y, which is returned.
# PyTorch's checks, in its order: y is a tensor; no graph is asked for (with
# grad mode on, neither x nor y may require grad); y's dtype is x's; y holds no
# element twice and shares no memory with x in another layout; then y is
# resized if its shape differs (warning unless it was empty), and written:
# its version moves on, as for any in-place op.
import warnings
import torch


def attempt(label, fn):
    try:
        r = fn()
        print(label, "->", r)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0] if str(e) else "")


nan, inf = float("nan"), float("inf")
x = torch.tensor([1.5, nan, inf, -inf])
o = torch.empty(4)
r = torch.nan_to_num(x, out=o)
print(r is o, o, o._version, o.grad_fn, o.requires_grad)
print(torch.nan_to_num(x, 1.0, 2.0, -2.0, out=o), torch.nan_to_num(x, nan=1.0, posinf=2.0, out=o), o._version)
for shape in ((2,), (0,), (2, 2), (1, 4), (5,)):
    o = torch.zeros(shape)
    attempt(f"out of shape {list(shape)}", lambda: (torch.nan_to_num(x, out=o), o.shape, o._version))
attempt("0-d input, out of 3", lambda: torch.nan_to_num(torch.tensor(nan), out=torch.empty(3)))
attempt("0-d into 0-d", lambda: torch.nan_to_num(torch.tensor(-inf), out=torch.empty(())))
attempt("empty input, out of 2", lambda: torch.nan_to_num(torch.empty(0, 3), out=torch.empty(2)))
for dt in (torch.float64, torch.float16, torch.int64, torch.bool):
    attempt(f"out {dt}", lambda: torch.nan_to_num(x, out=torch.empty(4, dtype=dt)))
    attempt(f"out {dt}, shape 5", lambda: torch.nan_to_num(x, out=torch.empty(5, dtype=dt)))
for dt in (torch.float32, torch.int32, torch.int64, torch.uint8):
    attempt(f"int64 input, out {dt}", lambda: torch.nan_to_num(torch.tensor([1, 2]), out=torch.empty(2, dtype=dt)))
attempt("bool input, out bool", lambda: torch.nan_to_num(torch.tensor([True, False]), out=torch.empty(2, dtype=torch.bool)))
attempt("float64", lambda: torch.nan_to_num(x.double(), posinf=1e300, out=torch.empty(4, dtype=torch.float64)))
attempt("float16", lambda: torch.nan_to_num(x.half(), neginf=-1e10, out=torch.empty(4, dtype=torch.float16)))

# requires grad: refused with grad mode on, allowed under no_grad (no graph)
xr = torch.tensor([1.0, nan], requires_grad=True)
attempt("input requires grad", lambda: torch.nan_to_num(xr, out=torch.empty(2)))
attempt("out requires grad", lambda: torch.nan_to_num(x, out=torch.empty(4, requires_grad=True)))
attempt("... and a wrong dtype", lambda: torch.nan_to_num(xr, out=torch.empty(2, dtype=torch.float64)))
attempt("int input, out requires grad", lambda: torch.nan_to_num(torch.tensor([1, 2]), out=torch.empty(2, requires_grad=True)))
leaf = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
attempt("out a leaf requiring grad", lambda: torch.nan_to_num(x, out=leaf))
with torch.no_grad():
    o = torch.empty(2)
    attempt("no_grad: input requires grad", lambda: (torch.nan_to_num(xr, out=o), o.requires_grad, o.grad_fn))
    attempt("no_grad: out a leaf", lambda: (torch.nan_to_num(x, out=leaf), leaf._version, leaf.is_leaf, leaf.grad_fn))
    v = leaf[:]
attempt("out a view made under no_grad", lambda: torch.nan_to_num(x, out=v))
with torch.no_grad():
    attempt("no_grad: out a view of a leaf", lambda: (torch.nan_to_num(-x, out=leaf[:4]), leaf, leaf._version))

# the graph around an out= write (made under no_grad): the node stays, the version moves on
w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
h = w * 2
s = h.sin()                    # saves h
with torch.no_grad():
    torch.nan_to_num(x, out=h)
print(h, h.grad_fn, h._version, [f[0].name() if f[0] else None for f in h.grad_fn.next_functions])
(h * h).sum().backward()
print(w.grad)
attempt("backward through sin, whose saved h changed", lambda: s.sum().backward())

# memory: out may be the input itself or a view in the same layout, not another layout
y = torch.tensor([nan, 1.0, inf, 2.0])
attempt("out is the input", lambda: (torch.nan_to_num(y, out=y), y._version))
y = torch.tensor([nan, 1.0, inf, 2.0])
attempt("out overlaps the input", lambda: torch.nan_to_num(y[:3], out=y[1:]))
attempt("out overlaps, another shape", lambda: torch.nan_to_num(y[:3], out=y[1:3]))
attempt("out grows over the input", lambda: torch.nan_to_num(y[:2], out=y))
y = torch.tensor([nan, 1.0, inf, 2.0])
attempt("input and out strided", lambda: (torch.nan_to_num(y[:2], out=y[::2]), y))
attempt("out expanded", lambda: torch.nan_to_num(x, out=torch.zeros(1).expand(4)))
attempt("out expanded, another shape", lambda: torch.nan_to_num(x, out=torch.zeros(1).expand(2)))
attempt("out expanded, another dtype", lambda: torch.nan_to_num(x, out=torch.zeros(1, dtype=torch.int64).expand(4)))
z = torch.zeros(4, 2)
attempt("out a column", lambda: (torch.nan_to_num(x, out=z[:, 0]), z))
z = torch.zeros(2, 4)
m = torch.tensor([[nan, 1.0], [2.0, inf], [3.0, -inf], [4.0, 5.0]])
attempt("transposed input and out", lambda: (torch.nan_to_num(m.t(), out=z), z.is_contiguous()))

# the argument parser
attempt("out a list", lambda: torch.nan_to_num(x, out=[1.0]))
attempt("out None", lambda: torch.nan_to_num(x, out=None))
attempt("nan a str, out a list", lambda: torch.nan_to_num(x, nan="a", out=[1.0]))
attempt("input a list", lambda: torch.nan_to_num([1.0], out=torch.empty(1)))
with torch.inference_mode():
    made_in_inference = torch.empty(4)
attempt("out an inference tensor", lambda: torch.nan_to_num(x, out=made_in_inference))
attempt("... of another dtype", lambda: torch.nan_to_num(x, out=made_in_inference.long()))
with torch.inference_mode():
    attempt("inside inference_mode", lambda: torch.nan_to_num(x, out=made_in_inference))
