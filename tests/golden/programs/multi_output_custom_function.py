# A custom Function may return a tuple: every tensor in it is an output of the
# same node, and backward receives one gradient per output.
import warnings

import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2, x * x

    @staticmethod
    def backward(ctx, ga, gb):
        x, = ctx.saved_tensors
        print("backward got", ga, gb)
        return ga * 2 + gb * 2 * x


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a, b = Two.apply(x)
print(a, b)
print(a.grad_fn.name(), a.grad_fn is b.grad_fn, a.output_nr, b.output_nr)
print((b * 1).grad_fn.next_functions)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Two.apply(x)
(a.sum() + b.sum() * 10).backward()
print(x.grad)


class NoMaterialize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, ga, gb):
        print("no materialize got", ga, gb)
        return ga * 2 if ga is not None else gb * 3


x.grad = None
a, b = NoMaterialize.apply(x)
b.sum().backward()
print(x.grad)


class NonDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        m = x * 5
        ctx.mark_non_differentiable(m)
        return x * 2, x.argmax(), m, 7

    @staticmethod
    def backward(ctx, gy, gi, gm, g7):
        print("non-differentiable got", gy, gi, gm, g7)
        return gy * 2


y, i, m, seven = NonDiff.apply(x)
print(y.requires_grad, i.requires_grad, m.requires_grad, i.grad_fn, m.grad_fn, seven)
x.grad = None
y.sum().backward()
print(x.grad)


class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


z = x * 1
w = Dirty.apply(z)
print(w is z, z.grad_fn.name(), z._version, z)
x.grad = None
z.sum().backward()
print(x.grad)
attempt("dirty leaf", lambda: Dirty.apply(x))
plain = torch.tensor([1.0, 2.0])
print(Dirty.apply(plain), plain._version)


class DirtyTwo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        y.add_(1)
        ctx.mark_dirty(y)
        return x * 2, y

    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 2, gb


p, q = x * 1, x * 1
a, b = DirtyTwo.apply(p, q)
print(b is q, q.grad_fn.name(), q.output_nr)
x.grad = None
(a.sum() + b.sum() * 3).backward()
print(x.grad)


class ReturnsInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x, x * 2

    @staticmethod
    def backward(ctx, ga, gb):
        return ga + 2 * gb


p = x * 1
a, b = ReturnsInput.apply(p)
print(a is p, a._base is p, a.grad_fn.name(), a.output_nr, b.output_nr)
attempt("returned input in place", lambda: a.mul_(2))
print(b.mul_(2).grad_fn.name(), b.output_nr)


class Bad(torch.autograd.Function):
    def forward(self, x):
        return x

    def backward(self, g):
        return g


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    attempt("legacy call", lambda: Bad()(x))
print([(w.category.__name__, str(w.message)) for w in caught])
