# ReduceLROnPlateau: the lr drops when a validation metric stops improving.
# A scripted metric drives every mode and threshold mode, patience, cooldown,
# min_lr (one or per group), eps, NaN and inf metrics, a tensor metric; then a
# model trained with it, state_dict round trips, a group added later, errors.
import math

import torch
from torch import nn
from torch.optim import lr_scheduler


def attempt(f):
    try:
        result = f()
        print(type(result).__name__ if isinstance(result, lr_scheduler.LRScheduler) else result)
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, str(e).splitlines()[0])


def opt_with(groups=1, lr=0.1):
    return torch.optim.SGD([{"params": [nn.Parameter(torch.ones(2))], "lr": lr * (i + 1)} for i in range(groups)])


def drive(metrics, groups=1, **kwargs):
    opt = opt_with(groups)
    s = lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    print(kwargs, s.last_epoch, s.get_last_lr(), s.best)
    for m in metrics:
        opt.step()
        s.step(m)
        print("   ", m, s.last_epoch, s.get_last_lr(), s.best, s.num_bad_epochs, s.cooldown_counter, s.in_cooldown)
    return opt, s


falling_then_flat = [1.0, 0.9, 0.85, 0.8499, 0.85, 0.86, 0.84, 0.84, 0.84, 0.83, 0.9, 0.9, 0.9, 0.9]
drive(falling_then_flat, patience=2)
drive(falling_then_flat, patience=1, threshold=0.01, threshold_mode="abs")
drive(falling_then_flat, patience=1, cooldown=2, factor=0.5, groups=2)
drive(falling_then_flat, patience=0, factor=0.2, min_lr=0.01, groups=2)
drive(falling_then_flat, patience=0, factor=0.5, min_lr=[0.05, 0.0], groups=2)
drive(falling_then_flat, patience=0, factor=0.99, eps=1e-3)
drive([0.5, 0.6, 0.6001, 0.7, 0.65, 0.66, 0.7, 0.8], mode="max", patience=1)
drive([0.5, 0.6, 0.6001, 0.7, 0.65, 0.66, 0.7, 0.8], mode="max", patience=1, threshold=0.05, threshold_mode="abs")
drive([-1.0, -0.5, -2.0, -2.0001, -2.1], patience=0, threshold=0.1)
drive([float("nan"), 1.0, float("nan"), float("nan"), 0.5, math.inf, -math.inf, 0.0], patience=1)
drive([torch.tensor(0.5), torch.tensor([0.4]), 0.45, 1, True], patience=1)
drive([1.0] * 6, patience=0, factor=0.0)
drive([2.0, 1.0, 1.0], patience=0, cooldown=1, mode="max")

print("-- a model: the lr drops when the validation loss stops falling")
torch.manual_seed(0)
X, y = torch.randn(64, 4), torch.randn(64, 1)
Xv, yv = torch.randn(32, 4), torch.randn(32, 1)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
s = lr_scheduler.ReduceLROnPlateau(opt, patience=2, factor=0.5)
for epoch in range(25):
    opt.zero_grad()
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = ((model(Xv) - yv) ** 2).mean()
    s.step(val)
    print(epoch, f"{loss.item():.6f}", f"{val.item():.6f}", s.get_last_lr(), s.num_bad_epochs)

print("-- state_dict and load_state_dict")
opt, s = drive([1.0, 1.0, 1.0, 0.5, 0.6], mode="max", patience=1, cooldown=1, threshold_mode="abs", min_lr=[0.001])
state = s.state_dict()
print(state)
s2 = lr_scheduler.ReduceLROnPlateau(opt_with())
s2.load_state_dict(state)
print(s2.mode, s2.threshold_mode, s2.mode_worse, s2.best, s2.num_bad_epochs, s2.cooldown_counter, s2.min_lrs,
      s2.last_epoch, s2.get_last_lr())
s2.step(0.4)
s2.step(0.4)
print(s2.get_last_lr(), s2.optimizer.param_groups[0]["lr"])

print("-- a group added after the scheduler")
opt = opt_with()
s = lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=0.001)
opt.add_param_group({"params": [nn.Parameter(torch.ones(1))], "lr": 0.5})
s.step(1.0)
s.step(1.0)
print(s.get_last_lr(), s.min_lrs)
opt = opt_with()
s = lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=[0.001])
opt.add_param_group({"params": [nn.Parameter(torch.ones(1))], "lr": 0.5})
s.step(1.0)
attempt(lambda: s.step(1.0))

print("-- an lr that is a Tensor, the deprecated epoch, no step-order warning")
lr = torch.tensor(0.1)
opt = torch.optim.SGD([nn.Parameter(torch.ones(2))], lr=lr)
s = lr_scheduler.ReduceLROnPlateau(opt, patience=0)
s.step(1.0)
s.step(2.0)
print(lr, opt.param_groups[0]["lr"] is lr, s.get_last_lr(), s.get_last_lr()[0] is lr)
s.step(3.0, epoch=10)
print(s.last_epoch, s.get_last_lr())
print(hasattr(s, "_step_count"), "initial_lr" in opt.param_groups[0], isinstance(s, lr_scheduler.LRScheduler))

print("-- errors")
opt = opt_with(2)
for make in [lambda: lr_scheduler.ReduceLROnPlateau(opt, factor=1.0),
             lambda: lr_scheduler.ReduceLROnPlateau("opt"),
             lambda: lr_scheduler.ReduceLROnPlateau(opt, mode="up"),
             lambda: lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="relative"),
             lambda: lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1]),
             lambda: lr_scheduler.ReduceLROnPlateau(opt).step("low"),
             lambda: lr_scheduler.ReduceLROnPlateau(opt).step(None),
             lambda: lr_scheduler.ReduceLROnPlateau(opt).step(torch.tensor([1.0, 2.0])),
             lambda: lr_scheduler.ReduceLROnPlateau(opt).step()]:
    attempt(make)
