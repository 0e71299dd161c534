# copy.deepcopy, copy.copy and pickle of tensors and of a model: each copy is
# a leaf of its own. A deep copy made while the original is in a graph must
# send its gradients to itself, never into the original's .grad.
import copy
import pickle

import torch

x = torch.ones(2, requires_grad=True)
y = x * 1                                  # x is in a graph now
x2 = copy.deepcopy(x)
(x2 * 3).sum().backward()
print(x.grad, x2.grad)
x3 = copy.copy(x)                          # shares the data, a leaf of its own
(x3 * 5).sum().backward()
print(x.grad, x3.grad)
with torch.no_grad():
    x3[0] = 9.0
print(x, x3)
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
out = m(torch.ones(1, 2))
m2 = copy.deepcopy(m)
m2(torch.ones(1, 2)).sum().backward()
print(m[0].weight.grad, m2[0].weight.grad)
print(type(m2[0].weight).__name__, m2[0].weight is m[0].weight, torch.equal(m2[0].weight, m[0].weight))
tied = torch.nn.Linear(2, 2)
net = torch.nn.Sequential(tied, tied)
net2 = copy.deepcopy(net)
print(net2[0].weight is net2[1].weight, net2[0].weight is tied.weight)
x.grad = torch.tensor([7.0, 7.0])
x.label = "weights"
x4 = copy.deepcopy(x)
print(x4, x4.grad, x4.grad is x.grad, x4.label)
try:
    copy.deepcopy(y)
except RuntimeError as e:
    print("deepcopy of a non-leaf:", e)
for t in (x, y, torch.arange(6.0)[1:4], torch.nn.Parameter(torch.ones(2))):
    r = pickle.loads(pickle.dumps(t))
    print(type(r).__name__, r, r.requires_grad, r.is_leaf, r.grad)
c = copy.copy(y)
print(c, c.requires_grad, c.is_leaf)
