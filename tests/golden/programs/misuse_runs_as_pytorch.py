# Programs PyTorch runs that are easy to get wrong: an in-place op on the base
# of an expand, masked_fill with a mask that broadcasts, flatten(start_dim,
# end_dim), clamp with tensor bounds.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


def name(t):
    return type(t.grad_fn).__name__


# -- an in-place op on the base of an expanded view ----------------------------
def expand_base():
    x = torch.tensor([1.0], requires_grad=True)
    a = x.clone()
    b = a.expand(3)
    a.mul_(4)
    b.sum().backward()
    return b, x.grad


def expand_then_t():
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    a = x.clone()
    c = a.expand(3, 2).t()
    a.mul_(4)
    (c * torch.arange(6.).view(2, 3)).sum().backward()
    return c, x.grad


def expand_double_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x.clone()
    b = a[:, None].expand(2, 3)
    a.add_(1)
    g, = torch.autograd.grad((b ** 2).sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x)
    return b, g, g2


def write_into_expand():
    a = torch.ones(1, requires_grad=True).clone()
    a.expand(3).add_(1)


attempt("expand, base mul_", expand_base)
attempt("expand.t, base mul_", expand_then_t)
attempt("expand, base add_, double backward", expand_double_backward)
attempt("write into an expand", write_into_expand)


# -- masked_fill with a mask that broadcasts ----------------------------------
def masked_fill_grad():
    a = torch.ones(3, requires_grad=True)
    y = a.masked_fill(torch.tensor([[True], [False]]), 2.0)
    y.backward(torch.arange(6.).view(2, 3))
    return y, a.grad


row = torch.tensor([True, False, True])
attempt("mask [3] on [2, 3]", lambda: torch.zeros(2, 3).masked_fill(row, 1.0))
attempt("mask [2, 1] on [2, 3]", lambda: torch.zeros(2, 3).masked_fill(torch.tensor([[True], [False]]), 1.0))
attempt("mask [1, 3] on [3]", lambda: torch.zeros(3).masked_fill(row[None], 1.0))
attempt("mask [3] on [2, 1]", lambda: torch.zeros(2, 1).masked_fill(row, 1.0))
attempt("masked_fill_ mask [1, 3] on [3]", lambda: torch.zeros(3).masked_fill_(row[None], 1.0))
attempt("masked_fill_ mask [3] on [2, 3]", lambda: torch.zeros(2, 3).masked_fill_(row, 1.0))
attempt("mask [2] on [3]", lambda: torch.zeros(3).masked_fill(torch.tensor([True, False]), 1.0))
attempt("masked_fill_ mask [2] on [3]", lambda: torch.zeros(3).masked_fill_(torch.tensor([True, False]), 1.0))
attempt("masked_fill grad", masked_fill_grad)
for dtype in (torch.int64, torch.int32, torch.uint8, torch.float32, torch.float64):
    attempt(f"mask of {dtype}", lambda: torch.zeros(3).masked_fill(torch.tensor([1, 0, 1], dtype=dtype), 1.0))
attempt("value 0-d tensor", lambda: torch.zeros(3).masked_fill(row, torch.tensor(2.0)))
attempt("value 1-d tensor", lambda: torch.zeros(3).masked_fill(row, torch.tensor([2.0])))
attempt("long tensor, float value", lambda: torch.zeros(3, dtype=torch.long).masked_fill(row, 2.5))

# -- flatten(start_dim, end_dim) -----------------------------------------------
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
for args in [(), (1,), (0, 1), (1, 2), (-2,), (2, 1), (0, 0), (3,), (0, -4), (1, -1)]:
    attempt(f"flatten{args}", lambda: (x.flatten(*args).shape, name(x.flatten(*args)), x.flatten(*args) is x))
    attempt(f"torch.flatten(x.transpose(0, 2), *{args})", lambda: name(torch.flatten(x.transpose(0, 2), *args)))
attempt("flatten(start_dim=1)", lambda: x.flatten(start_dim=1).shape)
attempt("flatten(end_dim=1)", lambda: x.flatten(end_dim=1).shape)
attempt("0-d flatten()", lambda: torch.tensor(1.).flatten().shape)
attempt("0-d flatten(0, -1)", lambda: torch.tensor(1.).flatten(0, -1).shape)
attempt("0-d flatten(1)", lambda: torch.tensor(1.).flatten(1).shape)
attempt("nn.Flatten()", lambda: torch.nn.Flatten()(x).shape)
attempt("nn.Flatten(0, 1)", lambda: torch.nn.Flatten(0, 1)(x).shape)


# -- clamp with tensor bounds -------------------------------------------------
def clamp_case(kind):
    x = torch.tensor([0., 1, 2, 3, 4, float("nan")], requires_grad=True)
    lo = torch.tensor(1., requires_grad=True)
    hi = torch.tensor([3., 3, 3, 3, 0.5, 2], requires_grad=True)
    if kind == "min":
        y = x.clamp(min=lo)
    elif kind == "max":
        y = x.clamp(max=hi)
    elif kind == "both":
        y = x.clamp(min=lo, max=hi)
    elif kind == "crossed":
        y = torch.clamp(x, min=hi, max=lo)
    else:           # a min that makes the output larger than x
        lo = torch.zeros(2, 1, requires_grad=True)
        y = x.clamp(min=lo, max=hi)
    print(" ", y, name(y), [fn is not None for fn, _ in y.grad_fn.next_functions])
    (y * torch.arange(1., 7)).sum().backward()
    return x.grad, lo.grad, hi.grad


for kind in ("min", "max", "both", "crossed", "broadcast"):
    attempt(f"clamp {kind}", lambda: clamp_case(kind))
v = torch.arange(5.)
attempt("int tensor, float bounds", lambda: torch.arange(6).clamp(min=torch.tensor(2), max=torch.tensor([3.5] * 6)))
attempt("tensor and number", lambda: v.clamp(min=torch.ones(5), max=3))
attempt("0-d tensor and number", lambda: v.clamp(min=torch.tensor(1.), max=3))
attempt("0-d tensor needing grad and number", lambda: v.clamp(min=torch.tensor(1., requires_grad=True), max=3))
attempt("bounds that do not broadcast", lambda: v.clamp(min=torch.ones(2)))
attempt("bounds that do not broadcast 2", lambda: v.clamp(min=torch.ones(5), max=torch.ones(4)))
attempt("clamp_", lambda: torch.arange(5.).clamp_(min=torch.tensor(1.), max=torch.tensor([3., 3, 3, 3, 2])))
attempt("clamp_ to a larger shape", lambda: torch.arange(5.).clamp_(min=torch.zeros(2, 5)))
attempt("clip", lambda: v.clip(torch.tensor(1.), torch.tensor(2.)))
