# Hooks on a node with several outputs (chunk, a custom Function returning
# two tensors): the pre-hook sees every output's gradient (None where none
# came) and may change one; the post hook sees what went in and out.
import torch
x = torch.arange(6., requires_grad=True)
a, b, c = (x * 1).chunk(3)
n = a.grad_fn
n.register_prehook(lambda go: print('pre', go) or (go[0], go[1] * 5 if go[1] is not None else None, go[2]))
n.register_hook(lambda gi, go: print('post', gi, go))
(a.sum() + 2 * b.sum()).backward()
print(x.grad)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, u): return u * 2, u * 3
    @staticmethod
    def backward(ctx, g1, g2): return g1 * 2 + g2 * 3
u = torch.ones(2, requires_grad=True)
p, q = F.apply(u)
p.grad_fn.register_hook(lambda gi, go: print('F post', gi, go))
p.grad_fn.register_prehook(lambda go: print('F pre', go))
q.sum().backward(); print(u.grad)
