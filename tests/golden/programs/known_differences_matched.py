# What used to differ from PyTorch in small ways: the sign of a zero that
# clamp and the ELUs pass through, which of tied values kthvalue picks, the
# dtype of .grad after .data changed dtype mid-graph, float16 arange's digits.
import torch
import torch.nn.functional as F


def signs(t):
    return "".join("-" if v < 0 or (v == 0 and str(v).startswith("-")) else "+" for v in t.tolist())


# -- a -0.0 passes through clamp with number bounds and the ELUs, as it does in PyTorch's kernels
for dtype in (torch.float32, torch.float64):
    x = torch.tensor([-0.0, 0.0, -1.0, 1.0, -2.0] * 4, dtype=dtype, requires_grad=True)
    for name, f in [("clamp", lambda t: t.clamp(-0.5, 0.5)), ("clamp min", lambda t: t.clamp(min=0.0)),
                    ("clamp max", lambda t: t.clamp(max=-0.0)), ("clamp_min", lambda t: t.clamp_min(0.0)),
                    ("clamp_max", lambda t: t.clamp_max(0.0)), ("elu", F.elu), ("selu", F.selu),
                    ("celu", lambda t: F.elu(t, 0.5)), ("relu", F.relu), ("hardtanh", F.hardtanh), ("relu6", F.relu6)]:
        y = f(x)
        g, = torch.autograd.grad(y, x, torch.tensor([1.0, -1.0, -1.0, 1.0, -0.0] * 4, dtype=dtype))
        print(dtype, name, signs(y.detach()[:5]), y.detach()[:5].tolist(), signs(g[:5]), g[:5].tolist())
    z = x.detach().clone()
    z.clamp_(min=0.0)
    print(signs(z[:5]))

# -- kthvalue: among ties, the index PyTorch's quick select leaves at place k
t = torch.tensor([[3.0, 1.0, 1.0, 2.0, 1.0], [5.0, 5.0, 5.0, 5.0, 5.0]])
for k in (1, 2, 3, 5):
    v, i = t.kthvalue(k, 1)
    print("kthvalue", k, v.tolist(), i.tolist())
print(t.kthvalue(2, 0), t.kthvalue(1, 0, keepdim=True).indices)
u = torch.tensor([2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.0])
print([u.kthvalue(k).indices.item() for k in range(1, 8)], u.median(0).indices.item())
torch.manual_seed(0)
r = torch.randint(0, 4, (6, 40)).float()
r[1, ::7] = float("nan")
print(r.kthvalue(13, 1).indices.tolist(), r.kthvalue(40, 1).indices.tolist(), r.kthvalue(2, 0).indices.tolist())
w = torch.tensor([1.0, 1.0, 0.0, 1.0], requires_grad=True)
v, i = w.kthvalue(3)
v.backward()
print(i, w.grad)

# -- .grad keeps the dtype the leaf had when the graph was made (PyTorch's AccumulateGrad metadata)
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
w.data = torch.tensor([1.0, 2.0], dtype=torch.float64)
y.backward()
print(w.grad, w.grad.dtype, w.dtype)
w = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = (w * w).sum()
w.data = torch.tensor([1.0, 2.0])
y.backward()
print(w.grad, w.grad.dtype, w.dtype)
(w * 2).sum().backward()      # a new graph: the leaf's new dtype, added into the old .grad
print(w.grad, w.grad.dtype)
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
w.data = torch.tensor([1.0, 2.0], dtype=torch.float16)
y.backward()
print(w.grad, w.grad.dtype, w.dtype)

# -- float16 arange: PyTorch computes it in float32, 16 values per vector
print(torch.arange(0, 1, 0.1, dtype=torch.float16))
print(torch.arange(0, 1, 0.01, dtype=torch.float16)[15:25])
print(torch.arange(0, 10, 0.1, dtype=torch.float16)[15:25])
print(torch.arange(-2.25, 50.3, 0.7, dtype=torch.float16))
print(torch.arange(100, 300, 1.3, dtype=torch.float16)[30:40], torch.arange(3, 7, 0.25, dtype=torch.float16))
