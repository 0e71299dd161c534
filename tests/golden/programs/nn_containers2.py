# nn.ModuleDict, nn.ParameterList, nn.ParameterDict and nn.Unflatten: indexing,
# len, iteration, append/extend/update/pop, the names in named_parameters()
# and state_dict(), reprs (nested too), gradients through them, and the errors.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
md = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
print(md)
print(len(md), list(md.keys()), "lin" in md, "nope" in md, [type(v).__name__ for v in md.values()], list(md))
md["bn"] = nn.BatchNorm1d(3)
md.update({"drop": nn.Dropout(0.5)})
md.update([("z", nn.Tanh())])
md.update(OrderedDict([("y", nn.Sigmoid()), ("b", nn.Identity())]))
print(md)
print([n for n, _ in md.named_parameters()])
print(list(md.state_dict().keys()))
print(md.pop("act"), list(md.keys()), [k for k, _ in md.items()])
del md["drop"]
print(list(md), nn.ModuleDict())
x = torch.randn(4, 2)
for key in ["lin", "bn", "z"]:
    x = md[key](x)
x.sum().backward()
print(x, md["lin"].weight.grad)

pl = nn.ParameterList([nn.Parameter(torch.randn(2)), nn.Parameter(torch.randn(3, 2))])
print(pl)
pl.append(nn.Parameter(torch.randn(1, dtype=torch.float64)))
pl.extend([torch.zeros(2, 2)])
pl += [torch.ones(3)]
print(pl)
print(len(pl), [n for n, _ in pl.named_parameters()], list(pl.state_dict().keys()))
print(pl[0], pl[-1], pl[-2].requires_grad, type(pl[-2]).__name__)
print(pl[1:3], len(pl[::2]))
pl[0] = torch.full((2,), 5.0)
print(pl[0], [p.shape for p in pl])
print(nn.ParameterList(), nn.ParameterList([torch.ones(2, requires_grad=False)])[0].requires_grad)

pd = nn.ParameterDict({"b": nn.Parameter(torch.randn(2)), "a": nn.Parameter(torch.zeros(3, 3))})
print(pd, list(pd.keys()))
pd["c"] = torch.ones(1)
pd.update({"e": nn.Parameter(torch.ones(2, 2)), "d": torch.zeros(1)})
pd.update([("g", torch.ones(1)), ("f", torch.ones(1))])
print(pd)
print(list(pd.keys()), [n for n, _ in pd.named_parameters()], list(pd.state_dict().keys()))
print(pd["a"].shape, "a" in pd, len(pd), pd.get("a") is pd["a"], pd.get("zz"), pd.pop("b").shape, list(pd))
print(pd.setdefault("h", torch.ones(2)), list(pd.values())[0].shape, [k for k, _ in pd.items()])
print(nn.ParameterDict())


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = nn.ParameterList([nn.Parameter(torch.ones(2) * (i + 1)) for i in range(2)])
        self.pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(1))})
        self.layers = nn.ModuleDict({"a": nn.Linear(2, 1)})

    def forward(self, x):
        for p in self.ps:
            x = x * p
        return self.layers["a"](x) * self.pd["w"]


m = M()
print(m)
print([n for n, _ in m.named_parameters()], list(m.state_dict().keys()))
out = m(torch.tensor([[1.0, 2.0]]))
out.sum().backward()
print(out, m.ps[0].grad, m.ps[1].grad, m.pd["w"].grad)

u = nn.Unflatten(1, (2, 5))
print(u)
x = torch.randn(3, 10, requires_grad=True)
y = u(x)
print(y.shape, y.grad_fn.name())
(y * torch.arange(10.0).reshape(2, 5)).sum().backward()
print(x.grad)
print(nn.Unflatten(-1, torch.Size([2, 5])), nn.Unflatten(1, (2, -1))(x).shape, nn.Unflatten(0, [3, 1])(x).shape)
print(nn.Sequential(nn.Flatten(), nn.Unflatten(1, (4, 3))))
print(nn.Sequential(nn.Flatten(), nn.Unflatten(1, (4, 3)))(torch.ones(2, 3, 4)).shape)

for bad in [lambda: md["nope"], lambda: pl[10], lambda: pd["x"], lambda: nn.ModuleDict({"a": 1}),
            lambda: md.update(3), lambda: md.update([("a", nn.ReLU(), 1)]), lambda: pl.extend(torch.ones(2)),
            lambda: pl(1), lambda: pd(1), lambda: pd[1], lambda: nn.Unflatten(1, 5),
            lambda: nn.Unflatten(1, (2, 2.5)), lambda: nn.Unflatten(1, (2, 4))(torch.randn(3, 10))]:
    try:
        bad()
    except (KeyError, IndexError, AttributeError, TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
print("done")
