# PyTorch's recommended custom Function: forward without ctx, then
# setup_context(ctx, inputs, output); and @once_differentiable.
import torch
from torch.autograd.function import once_differentiable

verbose = True


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(x, k=3.0):
        if verbose:
            print("forward sees grad mode", torch.is_grad_enabled())
        return x.exp() * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        if verbose:
            print("setup_context:", type(ctx).__name__, len(inputs), k, output.requires_grad, output.grad_fn,
                  torch.is_grad_enabled())
        ctx.save_for_backward(output)
        ctx.k = k

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y, None


x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x, 2.0)
print(y, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
print(Exp.apply(x))                 # the default k, filled in as PyTorch binds forward's signature
print(Exp.apply(x, k=0.5))
g, = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
print(g)
verbose = False   # gradcheck calls forward as often as it likes
xd = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, (xd,)), torch.autograd.gradgradcheck(Exp.apply, (xd,)))


class CtxAndSetup(torch.autograd.Function):    # forward takes ctx although setup_context is defined
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 2


class NoCtxNoSetup(torch.autograd.Function):   # forward without ctx, and no setup_context
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


for bad in (CtxAndSetup, NoCtxNoSetup):
    try:
        bad.apply(x)
    except TypeError as e:
        print(bad.__name__, "TypeError:", e)
try:
    torch.autograd.Function.setup_context(None, (), None)
except NotImplementedError as e:
    print("NotImplementedError:", e)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print("once_differentiable backward: grad mode", torch.is_grad_enabled(), "g requires grad", g.requires_grad)
        return 2 * x * g


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Square.apply(x)
print(torch.autograd.grad(y.sum(), x))
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)     # the incoming gradient needs no graph
print(g, g.grad_fn)
z = (Square.apply(x) ** 2).sum()
g, = torch.autograd.grad(z, x, create_graph=True)           # it does: the result hangs from an Error node
print(g, g.grad_fn.name(), len(g.grad_fn.next_functions), type(g.grad_fn.next_functions[0][0]).__name__)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(g.sum(), x)
except RuntimeError as e:
    print("RuntimeError:", e)


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(x, w):
        return x * w, x + w

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        ctx.save_for_backward(x, w)
        ctx.mark_non_differentiable(output[1])

    @staticmethod
    @once_differentiable
    def backward(ctx, ga, gb):
        x, w = ctx.saved_tensors
        print("gb", gb)
        return ga * w, None


w = torch.tensor([3.0, 4.0], requires_grad=True)
a, b = TwoOut.apply(x, w)
print(a, b, b.requires_grad)
print(torch.autograd.grad((a * a).sum(), (x, w), create_graph=True, allow_unused=True))
