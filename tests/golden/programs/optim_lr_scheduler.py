# torch.optim.lr_scheduler: a small model trained a few steps under each
# schedule, printing get_last_lr() at every step. The schedules are chainable
# (each lr is computed from the last one), so the printed floats show PyTorch's
# own rounding, not the closed form's; then state_dict, resuming, the warning
# for calling scheduler.step() first, and the errors.
import torch
from torch import nn
from torch.optim import lr_scheduler


def train(make, steps=12, lr=0.1, groups=False):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    params = ([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.03}] if groups
              else model.parameters())
    opt = torch.optim.SGD(params, lr=lr, momentum=0.9)
    sched = make(opt)
    x = torch.randn(8, 3)
    y = torch.randn(8, 1)
    print(type(sched).__name__, sched.last_epoch, sched.get_last_lr())
    for step in range(steps):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        sched.step()
        print(step, sched.last_epoch, sched.get_last_lr(), [g["lr"] for g in opt.param_groups])
    print("weights", model.weight, model.bias)
    print("initial_lr", [g["initial_lr"] for g in opt.param_groups])
    return opt, sched


train(lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
train(lambda o: lr_scheduler.StepLR(o, step_size=2), groups=True)
train(lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3))
train(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9), steps=20)
train(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5), steps=25, lr=0.07)
train(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=7, eta_min=0.001), steps=16, groups=True)
train(lambda o: lr_scheduler.LambdaLR(o, lambda epoch: 0.95 ** epoch))
train(lambda o: lr_scheduler.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: e // 3]), groups=True)
train(lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=6), steps=9, lr=0.3)
train(lambda o: lr_scheduler.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=4), steps=6)

opt, sched = train(lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.7), steps=5)
state = sched.state_dict()
print(state)
print(sorted(state))
opt2 = torch.optim.SGD(nn.Linear(3, 1).parameters(), lr=0.1)
sched2 = lr_scheduler.StepLR(opt2, step_size=1, gamma=0.1)
sched2.load_state_dict(state)
print(sched2.last_epoch, sched2.step_size, sched2.gamma, sched2.get_last_lr())
opt, sched = train(lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.5), steps=1)
print(sched.state_dict())
print(lr_scheduler.CosineAnnealingLR(opt, T_max=4).state_dict())

print("-- the constructor's step sets lr, initial_lr is kept")
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=1.0)
s = lr_scheduler.LinearLR(opt, start_factor=0.5)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"], s.base_lrs)
s2 = lr_scheduler.ExponentialLR(opt, gamma=0.5)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"], s2.base_lrs)

print("-- scheduler.step() before optimizer.step()")
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=1.0)
s = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
s.step()
print("after the first step", s.get_last_lr())
s.step()
print("no warning the second time", s.get_last_lr())
opt.step()
s = lr_scheduler.ExponentialLR(opt, gamma=0.5)
s.step()
print("optimizer stepped once before: no warning", s.get_last_lr())
print(s.get_lr())
s.step(5)
print("closed form at epoch 5", s.get_last_lr(), s.last_epoch)

print("-- resuming with last_epoch")
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.2)
for g in opt.param_groups:
    g["initial_lr"] = 0.2
s = lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=3)
print(s.get_last_lr(), s.last_epoch)
opt.step()
s.step()
print(s.get_last_lr(), s.last_epoch)

print("-- errors")
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.2)
for make in [lambda: lr_scheduler.StepLR(opt, 2, last_epoch=3),
             lambda: lr_scheduler.StepLR("not an optimizer", 2),
             lambda: lr_scheduler.LambdaLR(opt, [lambda e: 1, lambda e: 2]),
             lambda: lr_scheduler.LinearLR(opt, start_factor=0),
             lambda: lr_scheduler.LinearLR(opt, end_factor=1.5)]:
    try:
        make()
    except (KeyError, TypeError, ValueError) as e:
        print("caught", type(e).__name__, str(e).splitlines()[0])

print("-- optimizer.step replaced after the scheduler was made")
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=1.0)
s = lr_scheduler.MultiStepLR(opt, milestones=[1])
opt.step = lambda closure=None: None
s.step()
print(s.get_last_lr())
