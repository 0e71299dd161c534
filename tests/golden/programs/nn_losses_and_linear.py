# Losses (MSELoss, L1Loss, CrossEntropyLoss, BCELoss, NLLLoss, with reduction=)
# and F.linear's graph for 1-D, 2-D and 3-D input, with and without bias.
import torch
import torch.nn.functional as F
from torch import nn


def names(fn, depth=0):
    print("  " * depth + (fn.name() if fn is not None else "None"))
    if fn is not None:
        for child, _ in fn.next_functions:
            names(child, depth + 1)


torch.manual_seed(0)
logits = torch.randn(4, 3, requires_grad=True)
target = torch.tensor([0, 2, 1, 2])
for reduction in ("mean", "sum", "none"):
    loss = nn.CrossEntropyLoss(reduction=reduction)(logits, target)
    print(reduction, loss)
loss = F.cross_entropy(logits, target)
loss.backward()
print(logits.grad)
names(loss.grad_fn)
print(F.cross_entropy(logits, target, ignore_index=2), F.nll_loss(logits.log_softmax(1), target, reduction="sum"))
print(F.cross_entropy(logits, target, weight=torch.tensor([1.0, 2.0, 0.5])))
print(F.cross_entropy(logits[0], target[0]))
try:
    F.cross_entropy(logits, torch.tensor([0, 3, 1, 1]))
except IndexError as e:
    print("IndexError:", e)
p = torch.sigmoid(torch.randn(5, requires_grad=True))
t = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
for reduction in ("mean", "sum", "none"):
    print(nn.BCELoss(reduction=reduction)(p, t))
bce = F.binary_cross_entropy(p, t)
names(bce.grad_fn)
a = torch.randn(3, 2, requires_grad=True)
b = torch.randn(3, 2)
for reduction in ("mean", "sum", "none"):
    print(nn.L1Loss(reduction=reduction)(a, b), nn.MSELoss(reduction=reduction)(a, b))
l1 = F.l1_loss(a, b)
l1.backward()
print(a.grad)
names(l1.grad_fn)
print(F.l1_loss(a, b[0]))

lin = nn.Linear(3, 2)
x2 = torch.randn(4, 3, requires_grad=True)
for x in (torch.randn(3), torch.randn(4, 3), torch.randn(2, 4, 3), x2):
    out = lin(x)
    print(out.shape)
    names(out.grad_fn)
nob = nn.Linear(3, 2, bias=False)
for x in (torch.randn(3), torch.randn(4, 3), torch.randn(2, 4, 3)):
    out = nob(x)
    print(out.shape, out.grad_fn)
    names(out.grad_fn)
out = lin(x2).sum()
out.backward()
print(lin.weight.grad, lin.bias.grad, x2.grad)
try:
    lin(torch.randn(4, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.addmm(torch.ones(2), torch.ones(2, 3), torch.ones(3, 2), beta=0.5, alpha=2))
