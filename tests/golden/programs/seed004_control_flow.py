# Seed 004, 计算关于 Python 控制流的梯度: f is piecewise linear, so
# a.grad == d / a.  a comes from torch.randn; when the negative branch runs,
# d / a can miss 100 * 2**k by an ulp, so the tutorial's exact comparison
# depends on the draw; the runner seeds 0 and autograd_teach draws PyTorch's
# stream, so the draw, and the answer, are the same on both sides.
import torch

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()

print(a.grad == d / a)

# added: deterministic checks of the same facts
print(a.shape, a.grad.shape, d.grad_fn.name())
print(((a.grad - d / a).abs() / a.grad.abs()).item() < 1e-6)
