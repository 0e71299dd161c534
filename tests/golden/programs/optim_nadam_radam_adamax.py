# NAdam, RAdam and Adamax (torch.optim) over 30 steps with every option, the
# parameters to the last float32 bit. The gradient is elementwise
# (p - target) * scale, so only the optimizers' own arithmetic is compared;
# 37 elements cover PyTorch's vectorized blocks and a scalar tail. NAdam and
# RAdam take a sqrt, which PyTorch's float32 kernel (MKL's) does not round
# correctly, so for the bit-for-bit part both sides use a correctly rounded
# sqrt (numpy's), also in the model trained after (so that its gradients agree
# at every step too); with PyTorch's own sqrt the values agree at printed precision.
# Then state_dict round trips, param groups, a parameter without grad, errors.
import copy

import numpy as np
import torch
from torch import nn


def bits(t):
    return t.detach().reshape(-1).tolist()


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, e)


torch.manual_seed(0)
target = torch.randn(37)
scale = torch.rand(37) + 0.5


def train(name, kwargs, steps=30):
    torch.manual_seed(1)
    model = nn.Linear(37, 1)
    opt = getattr(torch.optim, name)(model.parameters(), **kwargs)
    for _ in range(steps):
        opt.zero_grad()
        w = model.weight.detach()[0]
        model.weight.grad = ((w - target) * scale).reshape(1, 37)
        model.bias.grad = model.bias.detach() - 1.0
        opt.step()
    return model, opt


configs = [
    ("NAdam", dict(lr=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.01, maximize=True, betas=(0.8, 0.99), eps=1e-3)),
    ("NAdam", dict(lr=torch.tensor(0.01), weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.01)),
    ("RAdam", dict(lr=0.01, weight_decay=0.01, betas=(0.5, 0.9))),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=torch.tensor([0.01]), maximize=True, eps=1e-4)),
    ("Adamax", dict(lr=0.01)),
    ("Adamax", dict(lr=0.01, weight_decay=0.01, betas=(0.5, 0.9), eps=1e-3)),
    ("Adamax", dict(lr=0.01, maximize=True)),
    ("Adamax", dict(lr=torch.tensor(0.01))),
]

print("-- with PyTorch's own sqrt, at printed precision")
for name, kwargs in configs:
    model, opt = train(name, kwargs)
    print(name, model.weight[0, :5], model.bias)

print("-- bit for bit, with a correctly rounded sqrt on both sides")
own_sqrt = torch.Tensor.sqrt
torch.Tensor.sqrt = lambda self: torch.from_numpy(np.sqrt(self.numpy()).copy())
try:
    for name, kwargs in configs:
        model, opt = train(name, kwargs)
        print(name, bits(model.weight), bits(model.bias))
        for key, value in opt.state_dict()["state"][0].items():
            print("   ", key, bits(value)[:4])

    print("-- state_dict round trip: 10 steps, save, load into a new optimizer, 10 more")
    for name, kwargs in [configs[2], configs[7], configs[10]]:
        model, opt = train(name, kwargs, steps=10)
        saved = copy.deepcopy(opt.state_dict())
        model2 = nn.Linear(37, 1)
        with torch.no_grad():
            model2.weight.copy_(model.weight)
            model2.bias.copy_(model.bias)
        opt2 = getattr(torch.optim, name)(model2.parameters(), lr=0.5)
        opt2.load_state_dict(saved)
        print(name, opt2.param_groups[0]["lr"], sorted(opt2.state_dict()["param_groups"][0]))
        for m, o in [(model, opt), (model2, opt2)]:
            for _ in range(10):
                o.zero_grad()
                w = m.weight.detach()[0]
                m.weight.grad = ((w - target) * scale).reshape(1, 37)
                m.bias.grad = m.bias.detach() - 1.0
                o.step()
            print("   ", bits(m.weight)[:6], bits(m.bias))
        print("    the loaded state is the dict's tensors:", opt2.state[model2.weight]["exp_avg"] is saved["state"][0]["exp_avg"])
    # without a copy, the loaded optimizer shares the state tensors of the one it came from
    model, opt = train("Adamax", {}, steps=3)
    opt2 = torch.optim.Adamax([nn.Parameter(torch.zeros(1, 37)), nn.Parameter(torch.zeros(1))])
    opt2.load_state_dict(opt.state_dict())
    print("shared", opt2.state[opt2.param_groups[0]["params"][0]]["exp_inf"] is opt.state[model.weight]["exp_inf"],
          opt2.state[opt2.param_groups[0]["params"][0]]["step"] is opt.state[model.weight]["step"])
    print("-- a model, two param groups, a parameter without grad, zero grads")
    torch.manual_seed(2)
    X = torch.randn(32, 4)
    y = X @ torch.tensor([[2.0], [-3.4], [0.5], [1.0]]) + 4.2
    for name in ["NAdam", "RAdam", "Adamax"]:
        torch.manual_seed(3)
        net = nn.Sequential(nn.Linear(4, 1))
        frozen = nn.Parameter(torch.ones(3))
        opt = getattr(torch.optim, name)([{"params": [net[0].weight]},
                                          {"params": [net[0].bias, frozen], "lr": 0.05}], lr=0.02)
        print(opt)
        for step in range(40):
            loss = ((net(X) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 10 == 0 or step == 39:
                print(step, f"{loss.item():.5f}")
        print(len(opt.state), frozen.grad, frozen in opt.state, sorted(opt.state_dict()["state"]))
        z = nn.Parameter(torch.tensor([1.0, -2.0]))
        opt = getattr(torch.optim, name)([z])
        for _ in range(3):
            z.grad = torch.zeros(2)
            opt.step()
        print("zero grads", z, opt.state[z]["step"], opt.state[z]["exp_avg"])
finally:
    torch.Tensor.sqrt = own_sqrt

print("-- errors")
w = nn.Parameter(torch.ones(2))
for name in ["NAdam", "RAdam", "Adamax"]:
    make = getattr(torch.optim, name)
    attempt(lambda: make([w], lr=-1))
    attempt(lambda: make([w], lr=torch.tensor([0.1, 0.2])))
    attempt(lambda: make([w], eps=-1e-8))
    attempt(lambda: make([w], betas=(1.0, 0.999)))
    attempt(lambda: make([w], betas=(0.9, -0.1)))
    attempt(lambda: make([w], weight_decay=-0.5))
    attempt(lambda: make([]))
attempt(lambda: torch.optim.NAdam([w], momentum_decay=-1))
