# Forward-mode AD: dual tensors carry a tangent through every op (J·v in one pass).
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, 0.0, 0.5])
with fwAD.dual_level() as level:
    print("level", level)
    d = fwAD.make_dual(x, v)
    print(d, d._base is x, d.grad_fn)
    y = (d.sin() * d).sum()
    print(y)
    u = fwAD.unpack_dual(y)
    print(u)
    print(type(u).__name__, u.primal, u.tangent, u.tangent is u[1])
    print(fwAD.unpack_dual(x))
    # the ops of the lessons
    print(d + 2, 2 - d, d * d, d / (d + 1), d ** 2, 2 ** d, -d)
    print(d.exp(), d.log(), d.sqrt(), d.tanh(), d.sigmoid(), (d - 2).relu(), (d - 2).abs())
    print(d.sum(), d.mean(), d.max(), d.min(), d.norm(), d.var(), d.std(), d.prod(), d.logsumexp(0))
    m = fwAD.make_dual(torch.arange(6.0).reshape(2, 3), torch.ones(2, 3))
    print(m @ d, torch.dot(d, d), m.mm(m.t()), m.t(), m.view(3, 2), m.reshape(-1), m[1], m[:, 1:])
    print(m.sum(1), m.mean(0, keepdim=True), m.max(1), m.transpose(0, 1).unsqueeze(0).squeeze(0))
    print(torch.cat([d, d]), torch.stack([d, x]), d.unbind(0), m.split([1, 2], dim=1))
    print(F.softmax(m, dim=1), F.log_softmax(m, dim=1), torch.where(d > 1.5, d, x))
    print(F.mse_loss(d, x + 1), F.cross_entropy(m, torch.tensor([0, 2])))
    # in place: the tangent follows
    z = torch.zeros(3)
    zd = fwAD.make_dual(z, v)
    zd.mul_(3)
    print(zd)
    q = torch.ones(3) + zd
    q.add_(zd)
    print(q)
    k = torch.ones(3)
    k[1] = zd[2]
    print(k)
    row = m[0]
    row.mul_(10)
    print(m)
    # dtypes and shapes of the tangent
    print(fwAD.make_dual(torch.tensor(2.0), torch.tensor(3.0)))
    print(fwAD.make_dual(torch.tensor([2.0], dtype=torch.float64), torch.tensor([3.0], dtype=torch.float64)))
    # errors
    for make in (lambda: fwAD.make_dual(x, torch.ones(2)),
                 lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
                 lambda: fwAD.make_dual(x, torch.tensor([1, 2, 3])),
                 lambda: fwAD.make_dual(d, v),
                 lambda: fwAD.make_dual(x, v, level=5),
                 lambda: fwAD.unpack_dual(d, level=5)):
        try:
            make()
        except (RuntimeError, ValueError, NotImplementedError) as e:
            print(type(e).__name__ + ":", e)
    print(fwAD.unpack_dual(torch.ones(2), level=5))
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
print(d, fwAD.unpack_dual(d))
try:
    fwAD.make_dual(x, v)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    fwAD.exit_dual_level()
except RuntimeError as e:
    print("RuntimeError:", e)
print(fwAD.enter_dual_level())
fwAD.exit_dual_level(level=0)

# reverse over forward: the tangent is differentiable
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with fwAD.dual_level():
    dw = fwAD.make_dual(w, v)
    print(dw, fwAD.unpack_dual(dw).primal)
    y = dw * 2
    print(y)
    t = fwAD.unpack_dual((dw.sin() * dw).sum()).tangent
    print(t)
    t.backward()
print(w.grad)


# a custom Function with a jvp
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.x = inputs[0]

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g

    @staticmethod
    def jvp(ctx, t):
        return 3 * ctx.x ** 2 * t


class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    print(Cube.apply(d))
    try:
        NoJvp.apply(d)
    except NotImplementedError as e:
        print("NotImplementedError:", e)
