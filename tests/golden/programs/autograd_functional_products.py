# torch.autograd.functional's vector products: vjp and vhp (one backward each),
# jvp and hvp (the double-backward trick), with tuples, create_graph, strict
# mode and PyTorch's errors for a bad v.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def cube_sum(x):
    return (x ** 3).sum()


def two(x, y):
    return x * y.sum(), (x ** 2).exp()


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([0.5, -1.0])
v3 = torch.tensor([1.0, 0.0, -1.0])

print(vjp(cube_sum, x))
print(vjp(lambda t: t.exp() * 2, x, v3))
print(jvp(lambda t: t.exp() * 2, x, v3))
print(vhp(cube_sum, x, v3))
print(hvp(cube_sum, x, v3))
print(hessian(cube_sum, x) @ v3)
print(jacobian(lambda t: t.exp() * 2, x) @ v3)

outs, prods = vjp(two, (x, y), (torch.ones(3), torch.ones(3)))
print(outs, prods)
outs, prods = jvp(two, (x, y), (v3, torch.tensor([1.0, 1.0])))
print(outs, prods)
print(vhp(lambda a, b: (a * b.sum()).sum() + (a ** 3).sum(), (x, y), (v3, torch.ones(2))))
print(hvp(lambda a, b: (a * b.sum()).sum() + (a ** 3).sum(), (x, y), (v3, torch.ones(2))))

# create_graph: the product has a graph and can be differentiated again
xg = x.clone().requires_grad_()
out, hv = hvp(cube_sum, xg, v3, create_graph=True)
print(hv, hv.requires_grad)
hv.sum().backward()
print(xg.grad)
out, jv = jvp(lambda t: t.sin(), xg, v3, create_graph=True)
print(jv.requires_grad, torch.autograd.grad(jv.sum(), xg)[0])

# a scalar input and output: v may be left out
print(jvp(lambda t: t * t, torch.tensor(3.0)))
print(hvp(lambda t: t ** 4, torch.tensor(2.0)))

# strict mode and bad v
attempt("vjp strict, independent", lambda: vjp(lambda a, b: a * 2, (x, y), torch.ones(3), strict=True))
attempt("vjp not strict, independent", lambda: vjp(lambda a, b: a * 2, (x, y), torch.ones(3)))
attempt("jvp strict, linear", lambda: jvp(lambda a: a * 2, x, v3, strict=True))
attempt("hvp strict, linear", lambda: hvp(lambda a: (a * 2).sum(), x, v3, strict=True))
attempt("vhp strict, quadratic", lambda: vhp(lambda a: (a * a).sum(), x, v3, strict=True))
attempt("vhp strict, create_graph", lambda: vhp(lambda a: (a * a).sum(), x, v3, create_graph=True, strict=True))
attempt("v missing", lambda: vjp(lambda a: a * 2, x))
attempt("jvp v missing", lambda: jvp(lambda a: a * 2, x))
attempt("v wrong size", lambda: vjp(lambda a: a * 2, x, torch.ones(2)))
attempt("v wrong size in a tuple", lambda: jvp(two, (x, y), (v3, torch.ones(3))))
attempt("v tuple too short", lambda: vjp(two, (x, y), (torch.ones(3),)))
attempt("v two tensors for one", lambda: vjp(lambda a: a * 2, x, (v3, v3)))
attempt("v not a tensor", lambda: vjp(lambda a: a * 2, x, [1.0, 2.0, 3.0]))
attempt("inputs not tensors", lambda: jvp(lambda a: a, (x, 2.0), (v3, v3)))
attempt("hvp of two outputs", lambda: hvp(lambda a: (a.sum(), a.sum()), x, v3))
attempt("hvp of a vector", lambda: hvp(lambda a: a * 2, x, v3))
attempt("output not a tensor", lambda: vjp(lambda a: 3.0, x, v3))
