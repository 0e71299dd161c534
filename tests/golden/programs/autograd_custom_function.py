# torch.autograd.Function: your own op, forward and backward, as a node in the graph.
import torch


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        y = x.exp() * k
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        print("needs_input_grad:", ctx.needs_input_grad)
        return grad * y, None


x = torch.tensor([0.0, 1.0], requires_grad=True)
y = MyExp.apply(x, 2.0)
print(y)
print(y.grad_fn.name(), type(y.grad_fn).__name__, y.grad_fn.next_functions)
z = (y * x).sum()
print(z.grad_fn.next_functions[0][0].next_functions)
z.backward()
print(x.grad)
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0][:60])
print(MyExp.apply(torch.ones(2), 1.0).grad_fn)


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, grad


try:
    Twice.apply(x).sum().backward()
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
