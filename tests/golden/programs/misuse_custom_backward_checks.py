# What a custom backward returns is checked, as PyTorch checks it: one gradient
# per forward input, a Tensor or None, of a shape that fits the input.
import numpy as np
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


def run(ret):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, g):
            return ret(g)

    a = torch.ones(2, requires_grad=True)
    F.apply(a).sum().backward()
    return a.grad


attempt("wrong shape", lambda: run(lambda g: torch.ones(5)))
attempt("shape [1]", lambda: run(lambda g: torch.ones(1)))
attempt("shape [1, 2]", lambda: run(lambda g: torch.ones(1, 2) * 4))
attempt("0-d", lambda: run(lambda g: torch.tensor(3.0)))
attempt("list", lambda: run(lambda g: [1.0, 1.0]))
attempt("ndarray", lambda: run(lambda g: np.ones(2)))
attempt("float", lambda: run(lambda g: 1.0))
attempt("two gradients", lambda: run(lambda g: (g, g)))
attempt("extra None", lambda: run(lambda g: (g * 7, None)))
attempt("float64", lambda: run(lambda g: g.double() * 5))
attempt("int64", lambda: run(lambda g: (g * 3).long()))
attempt("empty tuple", lambda: run(lambda g: ()))
attempt("None", lambda: run(lambda g: None))
attempt("list of two", lambda: run(lambda g: [g, g]))


def run2(ret):
    class G(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            return a * k

        @staticmethod
        def backward(ctx, g):
            return ret(g)

    a = torch.ones(2, requires_grad=True)
    G.apply(a, 2.0).sum().backward()
    return a.grad


attempt("gradient for a number", lambda: run2(lambda g: (g, g)))
attempt("one for two", lambda: run2(lambda g: g))
attempt("three for two", lambda: run2(lambda g: (g, None, None)))


# A backward that returns None for an input that needed a gradient: PyTorch still
# runs the nodes below it, with no gradient. A tensor hook there is called with
# None (and may not replace it), retain_grad keeps nothing, a leaf's .grad stays
# None, and a custom backward further down gets zeros (unless it asked for None).
class Drop(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, d):
        return a * 1 + d

    @staticmethod
    def backward(ctx, g):
        return g, None


class Below(torch.autograd.Function):
    @staticmethod
    def forward(ctx, c, materialize):
        ctx.set_materialize_grads(materialize)
        return c * 1

    @staticmethod
    def backward(ctx, g):
        print("  Below.backward got", g)
        return None if g is None else g * 2, None


def dropped(materialize):
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    seen = []
    c2 = c * 3
    c2.retain_grad()
    d = Below.apply(c2, materialize) * 2
    d.register_hook(lambda g: seen.append(g))
    d.retain_grad()
    c.register_hook(lambda g: seen.append(("leaf", g)))
    Drop.apply(a, d).sum().backward()
    return seen, a.grad, c.grad, d.grad, c2.grad


attempt("None below, materialized", lambda: dropped(True))
attempt("None below, not materialized", lambda: dropped(False))


def replaced():
    a = torch.ones(2, requires_grad=True)
    d = torch.ones(2, requires_grad=True) * 2
    d.register_hook(lambda g: torch.ones(2))
    Drop.apply(a, d).sum().backward()


attempt("hook replaces None", replaced)


def grad_of_dropped():
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    return torch.autograd.grad(Drop.apply(a, c * 2).sum(), [a, c], allow_unused=True)


attempt("autograd.grad through None", grad_of_dropped)
