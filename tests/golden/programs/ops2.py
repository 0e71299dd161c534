# The tensor functions a learner reaches for next: gather, scatter, scatter_add,
# take; lerp, addcmul, addcdiv; the logical ops; clamp_min/max, fmod, fmax/fmin,
# isclose, the *_as methods, repeat_interleave, meshgrid. Their values, nodes,
# saved values, errors, gradients and reprs.
import torch
def show(name, f):
    try:
        y = f()
        if isinstance(y, (tuple, list)):
            print(name, [(t.grad_fn.name() if t.grad_fn else None, t.dtype, tuple(t.shape), t.tolist()) for t in y])
            return
        print(name, y.grad_fn.name() if y.grad_fn else None, y.dtype, tuple(y.shape), y.tolist(),
              [n[0].name() if n[0] else None for n in y.grad_fn.next_functions] if y.grad_fn else "")
    except Exception as e:
        print(name, "!!", type(e).__name__, str(e).splitlines()[0])
x = torch.arange(12.).reshape(3, 4).requires_grad_()
src = torch.arange(100., 112.).reshape(3, 4).requires_grad_()
i = torch.tensor([[0, 2, 1, 0], [2, 2, 0, 1]])
u = torch.tensor([[0, 2, 1, 0], [2, 0, 0, 1]])
# -- gather, scatter, scatter_add, take
show("gather", lambda: x.gather(0, i))
show("gather fn", lambda: torch.gather(x, 1, i[:, :3]))
show("gather neg dim", lambda: x.gather(-1, i))
show("gather int32", lambda: x.gather(0, i.int()))
show("gather larger", lambda: x.gather(1, torch.zeros(3, 5, dtype=torch.long)))
show("gather transpose", lambda: x.t().gather(-1, torch.tensor([[0], [2], [1], [0]])))
show("gather 0d", lambda: torch.tensor(3., requires_grad=True).gather(0, torch.tensor([0, 0])))
show("gather empty", lambda: x.gather(0, torch.zeros(0, 4, dtype=torch.long)))
show("gather bool", lambda: torch.tensor([True, False]).gather(0, torch.tensor([1, 1, 0])))
show("gather float idx", lambda: x.gather(0, i.float()))
show("gather 1d idx", lambda: x.gather(0, i[0]))
show("gather oob", lambda: x.gather(0, i + 1))
show("gather neg idx", lambda: x.gather(0, i - 1))
show("gather too big", lambda: x.gather(1, torch.zeros(4, 2, dtype=torch.long)))
show("gather bad dim", lambda: x.gather(2, i))
show("scatter", lambda: x.scatter(0, u, src))
show("scatter fn", lambda: torch.scatter(x, 0, u, src))
show("scatter value", lambda: x.scatter(0, u, 7.0))
show("scatter value=", lambda: torch.scatter(x, 1, i, value=-1))
show("scatter int self", lambda: torch.zeros(3, dtype=torch.long).scatter(0, torch.tensor([1]), 2.5))
show("scatter 0d", lambda: torch.tensor(1., requires_grad=True).scatter(0, torch.tensor(0), torch.tensor(5.)))
show("scatter src larger", lambda: x.scatter(0, torch.zeros(4, 4, dtype=torch.long), torch.ones(5, 5)))
show("scatter empty", lambda: x.scatter(0, torch.zeros(0, 4, dtype=torch.long), src))
show("scatter float idx", lambda: x.scatter(0, u.float(), src))
show("scatter 1d idx", lambda: x.scatter(0, u[0], 1.0))
show("scatter dtype", lambda: x.scatter(0, u, src.double()))
show("scatter src small", lambda: x.scatter(0, u, src[:1]))
show("scatter 0d src", lambda: x.scatter(0, u, torch.tensor(7.)))
show("scatter oob", lambda: x.scatter(0, u + 1, src))
show("scatter too big", lambda: x.scatter(1, torch.zeros(4, 4, dtype=torch.long), 1.0))
show("scatter_add", lambda: x.scatter_add(0, i, src))
show("scatter_add fn", lambda: torch.scatter_add(x, 1, i, src))
show("scatter_add number", lambda: x.scatter_add(0, i, 1.0))
show("scatter_add neg idx", lambda: x.scatter_add(0, u - 3, src))
show("scatter_add too big", lambda: x.scatter_add(1, torch.zeros(4, 4, dtype=torch.long), torch.ones(5, 5)))
show("take", lambda: x.take(torch.tensor([[0, 11], [5, 5]])))
show("take fn neg", lambda: torch.take(x, torch.tensor([-1, 3])))
show("take transpose", lambda: x.t().take(torch.tensor([1, 2])))
show("take 0d", lambda: torch.tensor(5., requires_grad=True).take(torch.tensor(0)))
show("take empty", lambda: x.take(torch.tensor([], dtype=torch.long)))
show("take oob", lambda: x.take(torch.tensor([12])))
show("take oob neg", lambda: x.take(torch.tensor([-13])))
show("take int32", lambda: x.take(torch.tensor([1], dtype=torch.int32)))
show("take from empty", lambda: torch.zeros(0).take(torch.tensor([0])))
g = x.gather(0, i)
print(g.grad_fn._saved_dim, g.grad_fn._saved_index.tolist(), g.grad_fn._saved_sparse_grad, g.grad_fn._saved_self.shape)
print(x.scatter(0, u, 2.).grad_fn._saved_index.tolist(), x.take(u).grad_fn._saved_index.tolist())
y = x * 1
y.scatter_(0, u, src[:2]); print("scatter_", y.grad_fn.name(), y._version)
y.scatter_(0, u, 3.0); print("scatter_ value", y.grad_fn.name(), y._version)
y.scatter_add_(0, i, src[:2]); print("scatter_add_", y.grad_fn.name(), y._version)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad.tolist(), src.grad.tolist())
x.grad = None
x.gather(0, i).backward(torch.tensor([[1., 10., 100., 1000.], [2., 20., 200., 2000.]]))
print(x.grad.tolist())
xd = torch.tensor([[0.5, -1.0, 2.0, 3.0], [1.5, 2.5, -0.5, 4.0], [1.0, 0.0, 3.5, -2.0]], dtype=torch.float64,
                  requires_grad=True)
sd = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], dtype=torch.float64, requires_grad=True)
for name, f in [("gather", lambda: xd.gather(0, i)), ("scatter", lambda: xd.scatter(0, u, sd)),
                ("scatter value", lambda: xd.scatter(0, u, 1.)), ("scatter_add", lambda: xd.scatter_add(0, i, sd)),
                ("take", lambda: xd.take(u))]:
    out = f()
    gg = torch.ones_like(out, requires_grad=True)
    gs = torch.autograd.grad(out, (xd, sd), gg, create_graph=True, allow_unused=True)
    print(name, "double backward", [(gr.grad_fn.name() if gr.grad_fn else None, gr.tolist()) if gr is not None
                                    else None for gr in gs])
print(x.gather(1, i[:, :2]))
print(x.scatter(0, u, 2.))
