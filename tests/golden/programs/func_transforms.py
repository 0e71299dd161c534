# torch.func: grad, vjp, jvp, vmap, jacrev, jacfwd, hessian, and how they compose.
import torch
from torch.func import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap

x = torch.tensor([1.0, 2.0, 3.0])


def f(x):
    return (x.sin() * x).sum()


print(grad(f)(x))
print(grad_and_value(f)(x))
print(grad(grad(torch.sin))(torch.tensor(1.0)))
print(grad(grad(grad(lambda t: t ** 4)))(torch.tensor(2.0)))
print(grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x + 1))
print(grad(lambda a, b: (a * b).sum(), argnums=1)(x, x + 1))
print(grad(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True)(x))
print(grad(lambda p: (p["w"] * p["b"]).sum())({"w": x, "b": torch.ones(3)}))
w = torch.tensor([1.0, 2.0], requires_grad=True)
print(grad(f)(w))                               # differentiable again: w requires grad
print(grad(lambda t: (t * w).sum())(torch.ones(2)))   # a closure's parameter keeps its graph

out, fn = vjp(torch.sin, x)
print(out, fn(torch.ones(3)), fn(torch.tensor([1.0, 0.0, 2.0])))
out, fn = vjp(lambda a, b: (a * b, a), x, x)
print(fn((torch.ones(3), torch.ones(3))))
print(jvp(torch.sin, (x,), (torch.ones(3),)))
print(jvp(lambda a, b: a * b, (x, x), (torch.ones(3), torch.zeros(3))))
print(jvp(lambda a: jvp(torch.sin, (a,), (torch.ones(3),))[1], (x,), (torch.ones(3),)))

m = torch.arange(6.0).reshape(2, 3)
print(vmap(torch.dot)(torch.ones(2, 3), m))
print(vmap(lambda r: r.sum(), in_dims=1)(m))
print(vmap(lambda r, s: r * s, in_dims=(0, None))(m, torch.ones(3)))
print(vmap(lambda r: r * 2, out_dims=1)(m))
print(vmap(lambda r: (r, r.sum()))(m))
print(vmap(lambda r: (r, 3), out_dims=(0, None))(m))
print(vmap(vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))
print(vmap(lambda a: a @ a.T)(torch.arange(8.0).reshape(2, 2, 2)))
print(vmap(lambda d: d["a"] + d["b"])({"a": torch.ones(2), "b": torch.zeros(2)}))
print(vmap(grad(f))(m))
print(vmap(jacrev(torch.sin))(m).shape)

print(jacrev(torch.sin)(x))
print(jacfwd(torch.sin)(x))
print(jacrev(lambda a, b: a * b, argnums=(0, 1))(x, x))
print(jacrev(lambda a: (a, a.sum()))(torch.ones(2)))
print(jacrev(lambda a: a.outer(a))(torch.ones(2)).shape, jacfwd(lambda a: a.outer(a))(torch.ones(2)).shape)
print(hessian(f)(x) + 0)                        # + 0: the signs of the zeros are the engine's business
print(hessian(lambda a: (a ** 3).sum())(torch.tensor([1.0, 2.0])))
print(torch.allclose(jacfwd(jacrev(f))(x), jacrev(jacrev(f))(x)))

for bad in (lambda: grad(torch.sin)(x),
            lambda: grad(lambda a: 3)(torch.ones(2)),
            lambda: grad(f)(torch.tensor([1, 2])),
            lambda: grad(lambda a: a.sum(), argnums=2)(x),
            lambda: grad(lambda a: (a.sum(),), has_aux=True)(x),
            lambda: grad(lambda a: a.sum())(3.0),
            lambda: vjp(torch.sin, x)[1](torch.ones(2)),
            lambda: jvp(lambda a: a, x, x),
            lambda: jvp(lambda a: a, (x,), (torch.ones(2),)),
            lambda: jvp(lambda a: a, (x,), [torch.ones(3)]),
            lambda: jvp(lambda a: 3, (x,), (torch.ones(3),)),
            lambda: vmap(lambda a: a)(torch.tensor(1.0)),
            lambda: vmap(lambda a, b: a + b)(torch.ones(2), torch.ones(3)),
            lambda: vmap(lambda a: a, in_dims=(0, 0))(torch.ones(2)),
            lambda: vmap(lambda a: a, in_dims=2)(torch.ones(2)),
            lambda: vmap(lambda a: a, in_dims="a")(torch.ones(2)),
            lambda: vmap(lambda a: 3)(torch.ones(2)),
            lambda: vmap(lambda a, n: a * n)(torch.ones(2), 3),
            lambda: vmap(lambda a: (a, a), out_dims=(0,))(torch.ones(2)),
            lambda: vmap(lambda a: a, in_dims=None)(torch.ones(2)),
            lambda: vmap(lambda a: a)(),
            lambda: vmap(torch.sin, chunk_size=0)(torch.ones(2))):
    try:
        print(bad())
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
