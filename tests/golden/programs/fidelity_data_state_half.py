# What probes found wrong off the tutorials' paths: `.data =` on a tensor saved
# for backward, requires_grad_(False) after the forward, an optimizer given a
# parameter twice, state_dict of shared modules and of plain SGD, and float16
# reductions (PyTorch accumulates them in float32, but multiplies in float16).
import torch
from torch import nn


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])


print("-- .data")
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * w).sum()
w.data = torch.tensor([10., 20.])
y.backward()
print("leaf saved, new values:", w.grad, w, w._version)
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
y = (b * b).sum()
b.data = torch.tensor([5., 5.])
y.backward()
print("non-leaf saved, new values:", a.grad)
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * 3).exp().sum()          # exp saves its result, not w
w.data = torch.tensor([0., 0.])
y.backward()
print("result saved, unchanged:", w.grad)
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * w).sum()
attempt("another shape:", lambda: setattr(w, "data", torch.tensor([1., 2., 3.])))
attempt("backward:", lambda: y.backward())
print(w.grad, w)
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * 2).sum()
w.data = torch.tensor([1., 2., 3.])
y.backward()
print("another shape, not saved:", w.grad)

print("-- requires_grad_(False) after the forward")
w = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([3., 4.], requires_grad=True)
y = (w * w * u).sum()
w.requires_grad_(False)
y.backward()
print(w.grad, u.grad, w.requires_grad)
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * w).sum()
w.requires_grad = False
attempt("autograd.grad:", lambda: torch.autograd.grad(y, w))
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * w).sum()
w.requires_grad_(False)
w.requires_grad_(True)
y.backward()
print("off then on:", w.grad)
m = nn.Linear(2, 1)
torch.manual_seed(0)
m = nn.Linear(2, 1)
loss = m(torch.ones(3, 2)).sum()
m.bias.requires_grad_(False)
loss.backward()
print("frozen bias:", m.weight.grad, m.bias.grad)

print("-- a parameter listed twice")
for make in (lambda p: torch.optim.SGD(p, lr=0.1), lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
             lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
             lambda p: torch.optim.Adam(p, lr=0.1), lambda p: torch.optim.RMSprop(p, lr=0.01)):
    w = torch.tensor([1., 2.], requires_grad=True)
    opt = make([w, w])
    for _ in range(3):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
    print(type(opt).__name__, w, sorted(opt.state_dict()["state"]), opt.state_dict()["param_groups"][0]["params"])

print("-- optimizer state_dict")
w = torch.tensor([1., 2.], requires_grad=True)
for make in (lambda p: torch.optim.SGD(p, lr=0.1), lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)):
    opt = make([w])
    print(opt.state_dict()["state"])
    (w * w).sum().backward()
    opt.step()
    print(opt.state_dict()["state"])
    opt2 = make([w])
    opt2.load_state_dict(opt.state_dict())
    print(opt2.state_dict()["state"])

print("-- shared modules")
torch.manual_seed(0)
shared = nn.Linear(2, 2)
model = nn.Sequential(shared, nn.ReLU(), shared)
print(list(model.state_dict()), [n for n, _ in model.named_parameters()], len(list(model.parameters())))
other = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2))
print(other.load_state_dict(model.state_dict()))
print(torch.equal(other[0].weight, other[2].weight), other[2].bias)
print(model.load_state_dict(other.state_dict()))
bn = nn.Sequential(nn.BatchNorm1d(2))
bn_twice = nn.Sequential(bn, bn)
print(list(bn_twice.state_dict()))

print("-- float16")
h = torch.tensor([i / 100 for i in range(100)], dtype=torch.float16)
print(torch.ones(5000, dtype=torch.float16).cumsum(0)[-1], torch.ones(5000, dtype=torch.float16).sum())
print((torch.ones(3000, dtype=torch.float16) * 0.1).cumsum(0)[-3:])
print(h.sum(), h.mean(), h.cumsum(0)[-1], (h + 1).cumprod(0)[-5:])
print((torch.ones(50, dtype=torch.float16) * 1.1).prod(), (h + 1).prod(), (h[:30] + 1).prod())
print(h.var(), h.std(), h.norm(), h.logsumexp(0), h.nansum())
m = h.reshape(10, 10)
print(m.sum(1), m.sum(0), m.mean(0), m.mean(1), m.var(0), m.norm(dim=1), (m + 1).prod(1))
x = torch.tensor([i / 100 for i in range(100)], dtype=torch.float16, requires_grad=True)
(x.cumsum(0) * x).sum().backward()
print(x.grad[:5], x.grad[-5:])
x = torch.tensor([i / 100 for i in range(100)], dtype=torch.float16, requires_grad=True)
(x.std() + x.mean() + x.norm()).backward()
print(x.grad[:5])

print("-- binary_cross_entropy's double backward (PyTorch's closed form, eps added)")
F = torch.nn.functional
p = torch.tensor([0.2, 0.7, 0.999999, 1e-7], dtype=torch.float64, requires_grad=True)
t = torch.tensor([0.0, 1.0, 1.0, 0.5], dtype=torch.float64, requires_grad=True)
for reduction in ("mean", "sum", "none"):
    loss = F.binary_cross_entropy(p, t, reduction=reduction)
    g, = torch.autograd.grad(loss.sum(), p, create_graph=True)
    print(reduction, type(g.grad_fn).__name__, [f"{v:.15g}" for v in g.tolist()])
    hp, ht = torch.autograd.grad((g * torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)).sum(), (p, t))
    print(" ", [f"{v:.15g}" for v in hp.tolist()], [f"{v:.15g}" for v in ht.tolist()])
