# A Hessian-vector product without the Hessian: differentiate (grad . v).
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([1.0, 0.0, -1.0])
y = (x ** 2).sum() * x[0] + x.exp().sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
(hv,) = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
print(hv)
(hv2,) = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
print(torch.equal(hv, hv2))
(hv3,) = torch.autograd.grad((g * v).sum(), x)
print(hv3)

# the same through a matrix product and tanh
torch.manual_seed(0)
W = torch.randn(3, 3)
w = torch.tensor([0.5, -0.5, 1.0], requires_grad=True)
loss = torch.tanh(W @ w).pow(2).sum()
(gw,) = torch.autograd.grad(loss, w, create_graph=True)
print(gw)
(hvp,) = torch.autograd.grad(gw @ v, w)
print(hvp)

# through a custom Function whose backward is recorded
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * 3 * a ** 2

(gc,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
print(gc)
print(torch.autograd.grad(gc, x, v))
