# softplus, elu, selu, silu, hardtanh, relu6, hardsigmoid: values (float32 and
# float64), grad_fn names and saved values, gradients at and between the kinks,
# in-place forms, second derivatives, module reprs and errors.
# (float32 values are printed at print precision, where the last-bit
# differences of PyTorch's vectorized exp do not show: ops/activations.py.)
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-4.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 7.0], requires_grad=True)
for name, f in [("softplus", F.softplus), ("softplus(beta=2, threshold=1)", lambda t: F.softplus(t, beta=2, threshold=1)),
                ("elu", F.elu), ("elu(alpha=0.5)", lambda t: F.elu(t, alpha=0.5)), ("selu", F.selu),
                ("silu", F.silu), ("hardtanh", F.hardtanh), ("hardtanh(-2, 2.5)", lambda t: F.hardtanh(t, -2, 2.5)),
                ("relu6", F.relu6), ("hardsigmoid", F.hardsigmoid)]:
    y = f(x)
    x.grad = None
    y.sum().backward()
    print(name, y, x.grad, sep="\n")

y = F.softplus(x, 2, 1)
print(y.grad_fn, y.grad_fn._saved_beta, y.grad_fn._saved_threshold, y.grad_fn._saved_self is x)
y = F.elu(x, 0.5)
print(y.grad_fn, y.grad_fn._saved_alpha, y.grad_fn._saved_scale, y.grad_fn._saved_input_scale)
print(F.selu(x).grad_fn._saved_alpha, F.selu(x).grad_fn._saved_scale)
y = F.hardtanh(x, -2, 2.5)
print(y.grad_fn, y.grad_fn._saved_min_val, y.grad_fn._saved_max_val)
y = F.relu6(x)
print(y.grad_fn, y.grad_fn._saved_min_val, y.grad_fn._saved_max_val)
print(F.silu(x).grad_fn, F.hardsigmoid(x).grad_fn)

d = torch.tensor([-2.5, -0.75, 0.0, 0.25, 1.5], dtype=torch.float64, requires_grad=True)
for f in (F.softplus, F.elu, F.selu, F.silu, F.hardtanh, F.relu6, F.hardsigmoid):
    y = f(d)
    g, = torch.autograd.grad(y.sum(), d, create_graph=True)
    print(y.tolist())
    print(g.tolist(), g.requires_grad)
    if f is not F.hardsigmoid:      # hardsigmoid's has no derivative (tests/test_gradcheck_nn.py)
        print(torch.autograd.grad(g.sum(), d)[0].tolist())
g, = torch.autograd.grad(F.hardtanh(d).sum(), d, create_graph=True)
print(g.grad_fn, g.grad_fn._saved_min_val, g.grad_fn._saved_max_val)
g, = torch.autograd.grad(F.hardsigmoid(d).sum(), d, create_graph=True)
print(g.grad_fn)

# in place: elu_ saves its result (EluBackward1); silu_, hardtanh_, relu6_, hardsigmoid_ keep their node
for f in (lambda t: F.elu(t, inplace=True), lambda t: F.selu(t, inplace=True), lambda t: F.silu(t, inplace=True),
          lambda t: F.hardtanh(t, inplace=True), lambda t: F.relu6(t, inplace=True),
          lambda t: F.hardsigmoid(t, inplace=True)):
    h = x * 1
    out = f(h)
    x.grad = None
    out.sum().backward()
    print(out is h, h.grad_fn, h.grad_fn.next_functions[0][0], x.grad)
e = F.elu(x * 1, inplace=True)
print(e.grad_fn._saved_result, e.grad_fn._saved_alpha)

print(nn.Softplus(), nn.Softplus(2, 10), nn.Softplus(beta=0.5))
print(nn.ELU(), nn.ELU(0.5), nn.ELU(inplace=True), nn.SELU(), nn.SELU(True))
print(nn.SiLU(), nn.SiLU(inplace=True), nn.Hardsigmoid(), nn.Hardsigmoid(inplace=True))
print(nn.Hardtanh(), nn.Hardtanh(-2, 2, True), nn.Hardtanh(-0.5, 0.5), nn.ReLU6(), nn.ReLU6(inplace=True))
torch.manual_seed(0)
mlp = nn.Sequential(nn.Linear(3, 4), nn.SiLU(), nn.Linear(4, 4), nn.ELU(), nn.Linear(4, 2), nn.Softplus())
print(mlp)
out = mlp(torch.ones(2, 3))
print(out)
out.sum().backward()
print(mlp[0].weight.grad)
r = nn.ReLU6()
print(r.min_val, r.max_val, r.inplace)
print(F.softplus(torch.ones(0)), F.silu(torch.zeros(2, 0)), F.hardtanh(torch.tensor(5.0)))

for bad in (lambda: F.hardtanh(x, 2, -2), lambda: nn.Hardtanh(1, -1), lambda: nn.Hardtanh(1, 1),
            lambda: F.elu(x, inplace=True), lambda: F.silu(x, inplace=True)):
    try:
        bad()
    except (RuntimeError, ValueError, AssertionError) as e:
        print(type(e).__name__ + ":", e)

# F.one_hot: int64, no graph
print(F.one_hot(torch.tensor([0, 2, 1])))
o = F.one_hot(torch.tensor([[0, 2], [1, 0]]), 4)
print(o, o.dtype, o.requires_grad, o.grad_fn)
print(F.one_hot(torch.tensor(3), 5), F.one_hot(torch.tensor([], dtype=torch.long), 3))
for bad in (lambda: F.one_hot(torch.tensor([0, -1])), lambda: F.one_hot(torch.tensor([0, 3]), 3),
            lambda: F.one_hot(torch.tensor([0.0, 1.0])), lambda: F.one_hot(torch.tensor([0, 1], dtype=torch.int32)),
            lambda: F.one_hot(torch.tensor([], dtype=torch.long)), lambda: F.one_hot(torch.tensor([0, 1]), 0)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)

# F.pad, mode 'constant': negative pads crop
p = torch.arange(6.0).reshape(2, 3).requires_grad_()
y = F.pad(p, (1, 2))
print(y, y.grad_fn._saved_pad)
y.sum().backward()
print(p.grad)
print(F.pad(p, (1, 1, 2, 0), value=-1.5))
y = F.pad(p, (-1, 1))
print(y)
p.grad = None
(y * torch.arange(3.0)).sum().backward()
print(p.grad)
print(F.pad(p, [0, 0, -1, 0]), F.pad(p, (-3, 0)))
print(F.pad(torch.arange(3), (1, 1)), F.pad(torch.arange(3), (1, 1), value=2.7))
print(F.pad(torch.ones(2, 2, dtype=torch.float64), (1, 0), value=0.1), F.pad(p, ()))
g, = torch.autograd.grad(F.pad(p, (1, 1)).sum(), p, create_graph=True)
print(g)
for bad in (lambda: F.pad(p, (1,)), lambda: F.pad(p, (1, 1, 1, 1, 1, 1)), lambda: F.pad(p, (-2, -2))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
print("end")
