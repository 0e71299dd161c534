# RMSprop (plain, with momentum, centered, with weight decay) and Adagrad
# (with lr_decay, an initial accumulator, maximize) training a linear
# regression (d2l 3.3's model, whose forward and backward are PyTorch's to the
# bit) for 100 steps: the losses, the parameters, the state, the errors.
# Printed as PyTorch prints them, not with .item()'s digits: PyTorch's float32
# sqrt is MKL's, which rounds about 1 in 6 results the other way, so the last
# bit of a step can differ (autograd_teach/optim/rmsprop.py).
import torch
from torch import nn


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, e)


torch.manual_seed(0)
X = torch.randn(64, 4)
y = X @ torch.tensor([[2.0], [-3.4], [0.5], [1.0]]) + 4.2 + 0.01 * torch.randn(64, 1)
makers = [
    lambda p: torch.optim.RMSprop(p, lr=0.01),
    lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.9),
    lambda p: torch.optim.RMSprop(p, lr=0.005, centered=True, weight_decay=1e-3),
    lambda p: torch.optim.Adagrad(p, lr=0.1),
    lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1, weight_decay=1e-3),
]
for make_opt in makers:
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(4, 1))
    opt = make_opt(net.parameters())
    loss_fn = nn.MSELoss()
    print(opt)
    for step in range(100):
        loss = loss_fn(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0 or step == 99:
            print(step, loss)
    print(net[0].weight, net[0].bias)
    print(sorted(opt.state_dict()["state"][1].keys()), opt.state_dict()["state"][1]["step"])
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.Adagrad([w], lr=0.5, maximize=True)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
print(w, opt.state[w]["sum"])
attempt(lambda: torch.optim.RMSprop([w], lr=-1))
attempt(lambda: torch.optim.RMSprop([w], alpha=-0.5))
attempt(lambda: torch.optim.RMSprop([w], momentum=-1))
attempt(lambda: torch.optim.Adagrad([w], lr_decay=-1))
attempt(lambda: torch.optim.Adagrad([w], initial_accumulator_value=-1))
attempt(lambda: torch.optim.Adagrad([w], eps=-1))
