# In-place ops a learner reaches for beside add_ and mul_: a write through
# x.detach() seen by the views of x, masked_fill with a tensor value,
# index_add_, the in-place inverse hyperbolic functions (which PyTorch cannot
# differentiate) and the other in-place forms; div's nodes with rounding_mode.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0] if str(e) else "")


# -- x.detach() shares x's storage and version counter: the views of x see its writes
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = x[:2]
y = v * v
print(x._version, v._version)
x.detach().mul_(2)
print(x._version, v._version, x.detach()._version)
attempt("backward after x.detach().mul_", lambda: y.sum().backward())
print(v.grad_fn.name(), v)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
c = b[1:]
d = c.exp()
b.detach().mul_(2)
print(b._version, c._version, d._version, c.grad_fn.name())
attempt("exp saved its result, not c", lambda: (d.sum().backward(), a.grad)[1])
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = a.detach()[1:]
s = a.sigmoid()
p = a ** 2
w.mul_(3)
print(a._version, w._version, a)
attempt("sigmoid saved its result", lambda: (s.sum().backward(), a.grad)[1])
attempt("pow saved a", lambda: p.sum().backward())
q = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
qv = q[1:]
dq = qv.detach()
z = qv * qv
dq.add_(1)
attempt("a view's detach", lambda: z.sum().backward())

# -- masked_fill with a 0-dim tensor value: the value gets the gradients of the places it filled
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.tensor([True, False, True])
val = torch.tensor(5.0, requires_grad=True)
y = x.masked_fill(m, val)
print(y, y.grad_fn.name(), y.grad_fn.next_functions)
y.sum().backward()
print(x.grad, val.grad)
print(x.masked_fill(m, torch.tensor(2.0)).grad_fn.name(), torch.ones(3).masked_fill(m, val))
x2 = torch.ones(2, 3, requires_grad=True)
y2 = x2.masked_fill(torch.tensor([True, False, True]), val)
(y2 * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(val.grad, x2.grad)
z = x * 1
z.masked_fill_(m, val)
print(z, z.grad_fn.name())
print(torch.masked_fill(torch.zeros(2, 2), torch.tensor([[True], [False]]), torch.tensor(7, dtype=torch.int64)))
attempt("1-d value", lambda: x.masked_fill(m, torch.tensor([1.0, 2.0])))
attempt("int self, float value", lambda: torch.ones(3, dtype=torch.int64).masked_fill(m, torch.tensor(2.5)))

# -- index_add_: in place, on leaves and views, and PyTorch's checks
t = torch.zeros(3, 2)
print(t.index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 2)), t)
leaf = torch.zeros(3, 2, requires_grad=True)
attempt("on a leaf", lambda: leaf.index_add_(0, torch.tensor([0]), torch.ones(1, 2)))
src = torch.ones(2, 2, requires_grad=True)
base = torch.zeros(3, 2, requires_grad=True)
h = base * 1
r = h.index_add_(0, torch.tensor([1, 1]), src, alpha=2.0)
print(r is h, h, h.grad_fn.name())
(h * torch.arange(6.0).reshape(3, 2)).sum().backward()
print(base.grad, src.grad)
base2 = torch.zeros(4, 2, requires_grad=True)
h2 = base2 * 1
view = h2[1:3]
view.index_add_(0, torch.tensor([0, 1, 0]), torch.ones(3, 2) * src.sum())
print(h2.grad_fn.name(), view.grad_fn.name(), h2)
h2.sum().backward()
print(base2.grad, src.grad)
z = torch.zeros(3, 2)
attempt("dim", lambda: z.index_add_(2, torch.tensor([0]), torch.ones(1, 2)))
attempt("float index", lambda: z.index_add_(0, torch.tensor([0.0]), torch.ones(1, 2)))
attempt("2-d float index", lambda: z.index_add(0, torch.tensor([[0.0]]), torch.ones(1, 2)))
attempt("index out of range", lambda: z.index_add_(0, torch.tensor([5]), torch.ones(1, 2)))
attempt("negative index", lambda: z.index_add(0, torch.tensor([-1]), torch.ones(1, 2)))
attempt("source shape", lambda: z.index_add_(0, torch.tensor([0]), torch.ones(1, 3)))
attempt("index count", lambda: z.index_add_(0, torch.tensor([0, 1]), torch.ones(1, 2)))
attempt("index count and dtype", lambda: z.index_add(0, torch.tensor([0, 1]), torch.ones(1, 2, dtype=torch.float64)))
attempt("source dims", lambda: z.index_add(1, torch.tensor([0]), torch.ones(2)))
attempt("source dtype", lambda: z.index_add_(0, torch.tensor([0]), torch.ones(1, 2, dtype=torch.float64)))
attempt("expanded self", lambda: torch.zeros(1, 2).expand(3, 2).index_add_(0, torch.tensor([0]), torch.ones(1, 2)))
attempt("int32 index", lambda: z.index_add(0, torch.tensor([0], dtype=torch.int32), torch.ones(1, 2)))
attempt("0-dim index", lambda: z.index_add(0, torch.tensor(1), torch.ones(1, 2)))
attempt("0-dim source", lambda: z.index_add(0, torch.tensor([0]), torch.tensor(1.0)))
attempt("0-dim self", lambda: torch.zeros(()).index_add_(0, torch.tensor([0]), torch.ones(())))
attempt("integers, alpha", lambda: torch.zeros(3, dtype=torch.int64).index_add(0, torch.tensor([1, 1]),
                                                                                  torch.ones(2, dtype=torch.int64), alpha=3))
attempt("empty", lambda: z.index_add(0, torch.tensor([], dtype=torch.int64), torch.ones(0, 2)))
attempt("dim -1", lambda: z.index_add(-1, torch.tensor([1, 1, 0]), torch.ones(3, 3)))
with torch.no_grad():
    leaf2 = torch.zeros(3, 2, requires_grad=True)
    print(leaf2.index_add_(0, torch.tensor([0]), torch.ones(1, 2)))
h3 = torch.zeros(3, 2, requires_grad=True) * 1
sq = h3 * h3
h3.index_add_(0, torch.tensor([0]), torch.ones(1, 2))
attempt("saved self changed", lambda: sq.sum().backward())

# -- asinh_, acosh_, atanh_: each its own node, and PyTorch has no derivative for it
x = torch.tensor([0.5, -0.25, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
print(x.asinh(), torch.arcsinh(x), (x + 1.5).acosh(), torch.arccosh(x + 1.5), (x / 4).atanh(), x.arctanh())
print(torch.tensor([1.0, 0.5, -1.0, 3.0]).acosh(), torch.tensor([1.0, -1.0, 2.0, 0.0]).atanh(),
      torch.tensor([1, 2]).asinh())
for fn in ("asinh", "acosh", "atanh"):
    shift, scale = (1.5 if fn == "acosh" else 0.0), (4.0 if fn == "atanh" else 1.0)
    y = x * 1 / scale + shift
    out = getattr(y, fn + "_")()
    print(fn, out is y, y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
    attempt(fn + "_ backward", lambda: torch.autograd.grad(y.sum(), x))
    attempt(fn + "_ double backward", lambda: torch.autograd.grad(y.sum(), x, create_graph=True))
    z = x * 1 / scale + shift
    w = getattr(z, fn)()
    z.mul_(0.5)
    attempt(fn + " saved self changed", lambda: w.sum().backward())
    attempt(fn + "_ on a leaf", lambda: getattr(x, fn + "_")())
    attempt(fn + "_ on integers", lambda: getattr(torch.tensor([1, 2]), fn + "_")())
    g, = torch.autograd.grad(getattr(x / 4 + shift, fn)().sum(), x, create_graph=True)
    print(g.grad_fn.name(), torch.autograd.grad(g.sum(), x)[0])
xs = torch.tensor([0.5, 2.0])
xs.arcsinh_()
print(xs, xs._version)

# -- the other in-place forms
a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
b = a * 1; b.atan2_(torch.tensor([1.0, 1.0, -1.0])); print(b, b.grad_fn.name())
b = a * 1; b.arctan2_(torch.tensor(2.0)); print(b)
b = a * 1; b.clamp_min_(0.5); print(b, b.grad_fn.name())
b = a * 1; b.clamp_max_(torch.tensor([0.0, 0.0, 5.0])); print(b, b.grad_fn.name())
b = a * 1; b.fmod_(2); print(b, b.grad_fn.name())
b = a * 1; b.cumsum_(0); print(b, b.grad_fn.name())
b = a * 1; b.cumprod_(dim=0); print(b, b.grad_fn.name())
b.sum().backward(); print(a.grad)
b = a * 1; b.multiply_(2); b.subtract_(1, alpha=2); b.divide_(2, rounding_mode="floor"); print(b, b.grad_fn.name())
b = a * 1; b.true_divide_(4); print(b, b.multiply(3), b.subtract(1), b.divide(2), b.true_divide(2))
attempt("cumsum_ of integers", lambda: torch.tensor([1, 2]).cumsum_(0))
attempt("cumprod_ on a leaf", lambda: a.cumprod_(0))
c = torch.tensor([1.0, 2.0, 3.0]); d = c[1:]; d.cumprod_(0); print(c, c._version)

# -- div with rounding_mode: a number is wrapped as a tensor (DivBackward2), as PyTorch's binding does
for mode in (None, "floor", "trunc"):
    print(mode, a.div(2, rounding_mode=mode).grad_fn.name(), a.divide(-1.5, rounding_mode=mode),
          torch.div(a, 2, rounding_mode=mode).grad_fn.name())
b = a * 1; b.div_(2, rounding_mode="floor"); print(b.grad_fn.name())
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="floor"), torch.div(torch.tensor([7, -7]), 2.5, rounding_mode="floor"),
      torch.div(torch.tensor([7, -7]), 2, rounding_mode=None))
