# A custom Function whose forward returns its input unchanged (a naive
# gradient-reversal layer): PyTorch hands back a view with its own grad_fn and
# leaves the input a leaf, so the gradient is the same on every step.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return -grad


w = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(3):
    out = GradReverse.apply(w)
    print(out, out is w, w.is_leaf, w.grad_fn, out.is_leaf)
    (out * 3).sum().backward()
    print("step", step, w.grad)
    w.grad = None
attempt("w.add_(1)", lambda: w.add_(1))
print(w)


class PassFirst(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a

    @staticmethod
    def backward(ctx, grad):
        return 2 * grad, grad


a = torch.tensor([1.0, 1.0], requires_grad=True)
b = torch.tensor([5.0, 5.0], requires_grad=True)
y = PassFirst.apply(a, b)
print(y, a.is_leaf, a.grad_fn)
y.sum().backward()
print(a.grad, b.grad)
c = torch.tensor([4.0])
z = GradReverse.apply(c)     # nothing requires grad: still a new tensor
print(z is c, z, c)
# an in-place op on the returned view would override the custom backward: refused
attempt("GradReverse.apply(w).add_(1)", lambda: GradReverse.apply(w).add_(1))
attempt("GradReverse.apply(w)[0].add_(1)", lambda: GradReverse.apply(w)[0].add_(1))
attempt("GradReverse.apply(c).add_(1)", lambda: GradReverse.apply(c).add_(1))


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y


# its saved output changed in place: the error names the Function that saved it
e = MyExp.apply(torch.tensor([1.0, 2.0], requires_grad=True))
e.add_(2)
attempt("backward through a changed saved output", lambda: e.sum().backward())
