# torch.optim over 100 steps: each optimizer's settings, the parameters as
# printed. (SGD's and Adam's updates are bit-exact; PyTorch's float32 sqrt is
# not correctly rounded, so AdamW and amsgrad can differ in the last bit,
# below the printed digits: see tests/test_optim.py.) The gradient is elementwise (p - target) * scale, so the only
# arithmetic that differs between the settings is the optimizers' own; 37
# elements cover PyTorch's vectorized blocks of 16 and a scalar tail.
import torch
from torch import nn

torch.manual_seed(0)
target = torch.randn(37)
scale = torch.rand(37) + 0.5

configs = [
    ("SGD", dict(lr=0.01)),
    ("SGD", dict(lr=0.01, momentum=0.9)),
    ("SGD", dict(lr=0.01, momentum=0.9, dampening=0.5, weight_decay=0.01)),
    ("SGD", dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=0.001)),
    ("SGD", dict(lr=0.01, maximize=False, momentum=0.5)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), weight_decay=0.01)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, weight_decay=0.1, eps=1e-6)),
]
for name, kwargs in configs:
    torch.manual_seed(1)
    model = nn.Linear(37, 1)
    opt = getattr(torch.optim, name)(model.parameters(), **kwargs)
    for step in range(100):
        opt.zero_grad()
        w = model.weight.detach()[0]
        model.weight.grad = ((w - target) * scale).reshape(1, 37)
        model.bias.grad = model.bias.detach() - 1.0
        opt.step()
    print(name, kwargs)
    print(model.weight[0, :6], model.weight[0, -5:], model.bias)
print(opt)
print(opt.param_groups[0]["lr"], len(opt.state), sorted(opt.state_dict()["state"][0]))
print(opt.state_dict()["state"][1])
opt.zero_grad()
print(model.weight.grad)
opt2 = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.5}], lr=0.1)
print(opt2)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("caught", type(e).__name__, e)
try:
    torch.optim.Adam(model.parameters(), lr=-1)
except ValueError as e:
    print("caught", type(e).__name__, e)
