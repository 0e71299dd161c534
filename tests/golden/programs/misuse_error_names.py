# Which node PyTorch names when a saved tensor was changed in place (a view gone
# since, copy_), and when a view made in a custom Function (or by a module with
# full backward hooks) is changed in place; save_for_backward of a non-tensor.
import torch
def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])
def c1():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    y = b.t() ** 2
    b.add_(1)
    y.sum().backward()
attempt("temp t view saved, base add_", c1)
def c2():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    x = b.t()
    y = x ** 2
    b.add_(1)
    y.sum().backward()
attempt("live t view saved, base add_", c2)
def c3():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    x = b.t()
    y = x ** 2
    x.add_(1)
    y.sum().backward()
attempt("t view saved, view add_", c3)
def c4():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    y = b.t() ** 2
    b.t().add_(1)
    y.sum().backward()
attempt("temp t view saved, other t view add_", c4)
def c5():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    y = b[0] ** 2
    b.add_(1)
    y.sum().backward()
attempt("temp select view saved, base add_", c5)
def c6():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    y = b ** 2
    b.t().add_(1)
    y.sum().backward()
attempt("base saved, view add_", c6)
def c7():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    y = b.t().exp()
    b.add_(1)
    y.sum().backward()
attempt("exp of t (saves result), base add_", c7)
def c8():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    x = b.t()
    y = x.exp()
    y.add_(1)
    y.sum().backward()
attempt("exp result add_", c8)
def c9():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    x = b.t()
    y = x.exp()
    del x
    b.add_(1)
    (y * 1).sum().backward()
attempt("del view then base add_", c9)
def c10():
    a = torch.ones(4, requires_grad=True)
    b = a * 1
    y = b[1:] * b[1:]
    b[0] = 5
    y.sum().backward()
attempt("setitem on base, temp slice saved", c10)
def c11():
    a = torch.ones(4, requires_grad=True)
    b = a.clone()
    v = b.view(2, 2)
    y = v ** 2
    b.mul_(2)
    y.sum().backward()
attempt("view of clone saved, base mul_", c11)
def c12():
    a = torch.ones(4, requires_grad=True)
    b = a.clone()
    y = b ** 2
    b[0] = 3
    y.sum().backward()
attempt("clone saved, setitem", c12)
def c13():
    a = torch.ones(4, requires_grad=True)
    b = a.clone()
    y = b ** 2
    b[:2].mul_(3)
    y.sum().backward()
attempt("clone saved, view mul_", c13)
def c1():
    a = torch.ones(2, requires_grad=True)
    b = a * 1
    y = b ** 2
    b.copy_(torch.zeros(2, requires_grad=True))
    y.sum().backward()
attempt("copy_ on saved", c1)
def c2():
    a = torch.ones(2, requires_grad=True)
    b = a * 1
    y = b ** 2
    b.copy_(torch.zeros(2))
    y.sum().backward()
attempt("copy_ (no grad src) on saved", c2)
def c3():
    a = torch.ones(2, requires_grad=True)
    b = a.clone()
    y = b ** 2
    b.zero_()
    y.sum().backward()
attempt("zero_ on saved", c3)
def c4():
    a = torch.ones(2, requires_grad=True)
    b = a.clone()
    y = b ** 2
    b.fill_(2)
    y.sum().backward()
attempt("fill_ on saved", c4)
def c5():
    a = torch.ones(2, requires_grad=True)
    b = a.clone()
    y = b ** 2
    b.normal_()
    y.sum().backward()
attempt("normal_ on saved", c5)
def c6():
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    y = b ** 2
    b.max(1)
    b.clamp_(0, 1)
    y.sum().backward()
attempt("clamp_ on saved", c6)
class ViewOf(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g.view(2, 2)
class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0], x[1]
    @staticmethod
    def backward(ctx, g1, g2):
        return torch.stack([g1, g2])
class MarkDirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2); ctx.mark_dirty(x); return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
for name, F in [("view", ViewOf), ("same", Same), ("two", Two)]:
    for src in ("leaf", "nonleaf", "nograd"):
        def f(F=F, src=src):
            a = torch.ones(2, 2, requires_grad=src != "nograd")
            x = a if src in ("leaf", "nograd") else a * 1
            y = F.apply(x)
            y = y[0] if isinstance(y, tuple) else y
            print("   ", y.grad_fn, y.requires_grad)
            y.add_(1)
            return y
        attempt(f"{name} of {src}, add_", f)
        def g(F=F, src=src):
            a = torch.ones(2, 2, requires_grad=src != "nograd")
            x = a if src in ("leaf", "nograd") else a * 1
            y = F.apply(x)
            y = y[0] if isinstance(y, tuple) else y
            with torch.no_grad():
                y.add_(1)
            return y
        attempt(f"{name} of {src}, add_ under no_grad", g)
        def h(F=F, src=src):
            a = torch.ones(2, 2, requires_grad=src != "nograd")
            x = a if src in ("leaf", "nograd") else a * 1
            y = F.apply(x)
            y = y[0] if isinstance(y, tuple) else y
            y[:1].add_(1)
            return y
        attempt(f"{name} of {src}, view of it add_", h)
def d():
    a = torch.ones(2, requires_grad=True)
    b = a * 1
    y = MarkDirty.apply(b)
    y.add_(1)
    return y
attempt("mark_dirty then add_", d)
def h1():
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    y = m(torch.ones(1, 2, requires_grad=True))
    print("  ", y.grad_fn.name(), type(y.grad_fn).__name__)
    y.add_(1)
    return y
attempt("output of hooked module add_", h1)
def h2():
    m = nn.ReLU()
    m.register_full_backward_hook(lambda mod, gi, go: None)
    x = torch.ones(1, 2, requires_grad=True) * 1
    y = m(x)
    x.add_(1)
    return y.grad_fn
attempt("input changed after hooked module", h2)
def h3():
    m = nn.ReLU(inplace=True)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    x = torch.ones(1, 2, requires_grad=True) * 1
    return m(x)
attempt("inplace relu hooked", h3)
def h4():
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    x = torch.ones(1, 2, requires_grad=True) * 1
    y = m(x)
    return x.grad_fn.name(), y.grad_fn.next_functions[0][0].name()
attempt("names", h4)
class F1(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
attempt("save_for_backward(x, 3)", lambda: F1.apply(torch.ones(2, requires_grad=True)))
class F2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None, [x])
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
attempt("save_for_backward(x, None, [x])", lambda: F2.apply(torch.ones(2, requires_grad=True)))
class F3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward("a")
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
attempt("save_for_backward('a')", lambda: F3.apply(torch.ones(2, requires_grad=True)))
