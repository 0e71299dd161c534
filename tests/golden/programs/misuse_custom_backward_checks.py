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
