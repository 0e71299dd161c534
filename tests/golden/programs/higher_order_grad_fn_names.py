# The grad_fn of a gradient computed with create_graph=True: the backward's
# own nodes, named as PyTorch names them (its double-backward nodes).
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)


def show(name, f):
    out = f(x)
    g = torch.ones_like(out, requires_grad=True)
    (gx,) = torch.autograd.grad(out, x, g, create_graph=True)
    print(name, gx)
    if gx.grad_fn is not None:    # clone's gradient is g itself, a leaf
        print("   ", [type(n).__name__ if n is not None else None for n, _ in gx.grad_fn.next_functions])


show("mul", lambda t: t * t)
show("exp", lambda t: t.exp())
show("sin", lambda t: t.sin())
show("abs", lambda t: t.abs())
show("select", lambda t: t[1])
show("select2", lambda t: t[:, 1])
show("slice", lambda t: t[:, 1:])
show("index", lambda t: t[[0, 0, 1]])
show("max dim", lambda t: t.max(1).values)
show("view", lambda t: t.view(6))
show("permute", lambda t: t.permute(1, 0))
show("t", lambda t: t.t())
show("pow tensor", lambda t: t ** torch.tensor([1.0, 2.0, 3.0]))
show("where", lambda t: torch.where(t > 0, t * t, t))
show("div", lambda t: 1 / t)
show("clone", lambda t: t.clone())
show("sum", lambda t: t.sum())

v = torch.ones(3, requires_grad=True)


def setitem(t):
    y = t * 1
    y[0] = v * v
    return y


show("setitem", setitem)
print(torch.where(x > 0, x, 0.0))
print(torch.where(x > 0, 1.0, 0.0))
print(torch.where(x > 0))
print(x.sgn())

# activations: their backward is an op of its own
show("tanh", lambda t: t.tanh())
show("sigmoid", lambda t: t.sigmoid())
show("relu", lambda t: t.relu())
(g1,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True)
print(g1)
print(torch.autograd.grad(g1.sum(), x))

# losses
target = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])
show("mse", lambda t: torch.nn.functional.mse_loss(t, target))
show("mse sum", lambda t: torch.nn.functional.mse_loss(t, target, reduction="sum"))
(gm,) = torch.autograd.grad(torch.nn.functional.mse_loss(x, target), x, create_graph=True)
print(gm)
print(torch.autograd.grad(gm.sum(), x))

# reductions and squeezes put the dims back with unsqueeze, as PyTorch's sum_backward and unsqueeze_to
show("sum dim", lambda t: t.sum(1))
show("sum dims", lambda t: t.sum((0, 1)))
show("sum keepdim", lambda t: t.sum(1, keepdim=True))
show("squeeze", lambda t: t.unsqueeze(0).squeeze())
show("squeeze dim", lambda t: t.unsqueeze(0).squeeze(0))
show("expand", lambda t: t.sum(0).expand(2, 3))
