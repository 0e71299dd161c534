# nn.Dropout / F.dropout: the mask is drawn from the generator (bit for bit,
# printed with tolist), train vs eval, inplace, p=0 and p=1, empty input,
# the graph (MulBackward0) and gradients, and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
x = torch.randn(4, 5)
y = F.dropout(x, 0.3)
print(y)
print(y.tolist())
print(F.dropout(x.double(), 0.3).tolist())
print(F.dropout(x.to(torch.float16), 0.3).tolist())
print(torch.rand(2).tolist())            # the stream goes on where the mask left it

w = torch.ones(8, requires_grad=True)
out = F.dropout(w, 0.5)
print(out, out.grad_fn, out.grad_fn.next_functions[1])
out.sum().backward()
print(w.grad)
print(F.dropout(w, 0.5, False) is w, F.dropout(w, 0.0) is w, F.dropout(w, 0) is w)
z = F.dropout(w, 1.0)
print(z, z.grad_fn)
empty = torch.ones(0, 3)
print(F.dropout(empty, 0.5) is empty, F.dropout(empty, 0.5))

a = torch.ones(3, requires_grad=True)
b = a * 2
c = F.dropout(b, 0.5, inplace=True)
print(c is b, c, b._version)
c.sum().backward()
print(a.grad)

d = nn.Dropout(0.2)
print(d, nn.Dropout(), nn.Dropout(0.1, inplace=True), nn.Dropout(p=1))
print(d.training, d(torch.ones(10)))
d.eval()
print(d.training, d(x) is x)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4, 1))
print(net)
inp = torch.ones(2, 3)
print(net(inp))
net.eval()
print(net(inp), net(inp))
net.train()
print(net[2].training, net(inp))

for bad in (1.5, -0.1, 2):
    try:
        F.dropout(x, bad)
    except ValueError as e:
        print("ValueError:", e)
    try:
        nn.Dropout(bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    F.dropout(torch.ones(3, requires_grad=True), 0.5, inplace=True)
except RuntimeError as e:
    print("RuntimeError:", e)
F.dropout(torch.arange(6), 0.5)
