# cross_entropy with class probabilities as target and with label_smoothing:
# the values, the gradients and the graph PyTorch's C++ builds for them; ~ on a bool mask.
import torch
import torch.nn.functional as F
from torch import nn
def names(fn, depth=0):
    print("  " * depth + (fn.name() if fn is not None else "None"))
    if fn is not None:
        for child, _ in fn.next_functions: names(child, depth + 1)
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True); p = torch.softmax(torch.randn(3, 4), 1)
for r in ("mean", "sum", "none"):
    l = F.cross_entropy(x, p, reduction=r); print(l); names(l.grad_fn)
    l.sum().backward(); print(x.grad); x.grad = None
t = torch.tensor([0, 1, 3])
for r in ("mean", "sum", "none"):
    l = F.cross_entropy(x, t, label_smoothing=0.1, reduction=r); print(l); names(l.grad_fn)
    l.sum().backward(); print(x.grad); x.grad = None
l = nn.CrossEntropyLoss(label_smoothing=0.2, ignore_index=1)(x, t); print(l)
l = F.cross_entropy(x, p, label_smoothing=0.1); print(l); names(l.grad_fn)
print(F.cross_entropy(x[0], p[0]))
print(x * 2, (x / 3).grad_fn)
print(~torch.tensor([True, False]), ~torch.tensor([1, 0]), torch.tensor([True]).logical_not())
try:
    ~torch.tensor([1.0])
except TypeError as e:
    print("caught", e)
