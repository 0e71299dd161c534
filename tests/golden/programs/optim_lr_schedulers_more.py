# The schedulers beyond StepLR & co (optim_lr_scheduler.py): MultiplicativeLR,
# ConstantLR, PolynomialLR, CyclicLR, OneCycleLR, CosineAnnealingWarmRestarts,
# SequentialLR and ChainedScheduler. A small model trained under each, printing
# get_last_lr() (and the momentum or beta1 the cyclic ones move) at every step:
# Python floats, so every digit of PyTorch's own arithmetic shows. Then
# state_dict round trips, resuming with last_epoch, an lr that is a Tensor,
# the step-order warning, and the errors.
import torch
from torch import nn
from torch.optim import lr_scheduler


def attempt(f):
    try:
        result = f()
        print(type(result).__name__ if isinstance(result, lr_scheduler.LRScheduler) else result)
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, str(e).splitlines()[0])


def momenta(opt):
    return [g["betas"][0] if "betas" in g else g.get("momentum") for g in opt.param_groups]


def train(make, steps=12, lr=0.1, groups=False, optim="SGD"):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    params = ([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.03}] if groups
              else model.parameters())
    opt = (torch.optim.SGD(params, lr=lr, momentum=0.9) if optim == "SGD"
           else getattr(torch.optim, optim)(params, lr=lr))
    sched = make(opt)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    print(type(sched).__name__, getattr(sched, "last_epoch", None), sched.get_last_lr(), momenta(opt))
    for step in range(steps):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        sched.step()
        print(step, getattr(sched, "last_epoch", None), sched.get_last_lr(), momenta(opt))
    print("weights", model.weight.tolist(), model.bias.tolist())
    return opt, sched


train(lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.95))
train(lambda o: lr_scheduler.MultiplicativeLR(o, [lambda e: 0.9, lambda e: 1.0 + e / 10]), groups=True)
train(lambda o: lr_scheduler.ConstantLR(o, factor=0.3, total_iters=4), steps=7)
train(lambda o: lr_scheduler.ConstantLR(o), steps=7, groups=True)
train(lambda o: lr_scheduler.PolynomialLR(o, total_iters=6, power=2.0), steps=9)
train(lambda o: lr_scheduler.PolynomialLR(o), steps=7, groups=True)
train(lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3), steps=14)
train(lambda o: lr_scheduler.CyclicLR(o, base_lr=[0.01, 0.001], max_lr=0.1, step_size_up=2, step_size_down=4,
                                      mode="triangular2"), steps=20, groups=True)
train(lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.2, step_size_up=3, mode="exp_range",
                                      gamma=0.9, base_momentum=0.7, max_momentum=0.95), steps=14)
train(lambda o: lr_scheduler.CyclicLR(o, 0.001, 0.01, step_size_up=2, scale_fn=lambda x: 1 / (x + 1),
                                      scale_mode="iterations", cycle_momentum=False), steps=9, optim="Adam")
train(lambda o: lr_scheduler.CyclicLR(o, 0.001, 0.01, step_size_up=2), steps=5, optim="Adam")
train(lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=15), steps=15)
train(lambda o: lr_scheduler.OneCycleLR(o, max_lr=[0.5, 0.2], epochs=3, steps_per_epoch=4, pct_start=0.25,
                                        anneal_strategy="linear", three_phase=True), steps=12, groups=True)
train(lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.01, total_steps=10, div_factor=10.0, final_div_factor=100.0,
                                        base_momentum=0.8, max_momentum=0.99), steps=10, optim="AdamW")
train(lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4), steps=13)
train(lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.001), steps=16, groups=True)
train(lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3),
                                              lr_scheduler.ExponentialLR(o, gamma=0.8)], milestones=[3]), steps=10)
train(lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
                                              lr_scheduler.CosineAnnealingLR(o, T_max=4),
                                              lr_scheduler.StepLR(o, step_size=2, gamma=0.5)],
                                          milestones=[2, 6]), steps=12, groups=True)
train(lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2),
                                               lr_scheduler.ExponentialLR(o, gamma=0.9)]), steps=6)
train(lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=3),
                                               lr_scheduler.MultiStepLR(o, milestones=[2, 4], gamma=0.5),
                                               lr_scheduler.PolynomialLR(o, total_iters=8)], optimizer=o),
      steps=9, groups=True)

print("-- the deprecated step(epoch): the closed forms")
for make in [lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3),
             lambda o: lr_scheduler.PolynomialLR(o, total_iters=5, power=0.5),
             lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.5)]:
    opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.2)
    s = make(opt)
    opt.step()
    for epoch in [2, 4, 7]:
        s.step(epoch)
        print(type(s).__name__, epoch, s.get_last_lr())
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.2)
s = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
for epoch in [0.5, 1, 2.75, 3, 8.5, 9, 20, 4]:
    s.step(epoch)
    print("warm restarts", epoch, s.last_epoch, s.T_cur, s.T_i, s.get_last_lr())
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.2)
s = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3)
for i in range(7):       # a step per batch: epoch + i / batches
    s.step(1 + i / 7)
print("per batch", s.last_epoch, s.T_cur, s.get_last_lr())
attempt(lambda: s.step(-1))

print("-- state_dict and load_state_dict")
opt, s = train(lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=20), steps=5)
state = s.state_dict()
print(sorted(state), state["total_steps"], state["_schedule_phases"])
opt2 = torch.optim.SGD(nn.Linear(3, 1).parameters(), lr=0.1, momentum=0.9)
s2 = lr_scheduler.OneCycleLR(opt2, max_lr=0.9, total_steps=30)
s2.load_state_dict(state)
opt2.load_state_dict(opt.state_dict())
for _ in range(3):
    opt.step(), opt2.step()
    s.step(), s2.step()
    print(s.get_last_lr(), s2.get_last_lr(), momenta(opt), momenta(opt2))
opt, s = train(lambda o: lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="exp_range", gamma=0.8), steps=4)
state = s.state_dict()
print(sorted(state), state["_scale_fn_custom"])
s3 = lr_scheduler.CyclicLR(torch.optim.SGD(nn.Linear(3, 1).parameters(), lr=0.1, momentum=0.9), 0.01, 0.1)
s3.load_state_dict(state)
print(s3.mode, s3.scale_mode, s3.last_epoch, s3.scale_fn(2))


class Halve:
    def __init__(self):
        self.factor = 0.5

    def __call__(self, x):
        return self.factor


opt = torch.optim.SGD(nn.Linear(3, 1).parameters(), lr=0.1, momentum=0.9)
fn = Halve()
s = lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=2, scale_fn=fn)
fn.factor = 0.25
state = s.state_dict()
print(state["_scale_fn_custom"])
fn2 = Halve()
s4 = lr_scheduler.CyclicLR(torch.optim.SGD(nn.Linear(3, 1).parameters(), lr=0.1, momentum=0.9), 0.01, 0.1,
                           scale_fn=fn2)
s4.load_state_dict(state)
print(fn2.factor, "_scale_fn_custom" in state)
opt, s = train(lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
                                                       lr_scheduler.ExponentialLR(o, gamma=0.9)], [2]), steps=4)
state = s.state_dict()
print(sorted(state), [sorted(d) for d in state["_schedulers"]], state["_milestones"], state["last_epoch"])
opt, s = train(lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.ExponentialLR(o, gamma=0.9),
                                                        lr_scheduler.StepLR(o, 2)]), steps=3)
state = s.state_dict()
print(sorted(state), [d["last_epoch"] for d in state["_schedulers"]])
opt, s = train(lambda o: lr_scheduler.MultiplicativeLR(o, Halve()), steps=2)
print(s.state_dict()["lr_lambdas"])

print("-- resuming with last_epoch")
for make in [lambda o, e: lr_scheduler.PolynomialLR(o, total_iters=8, last_epoch=e),
             lambda o, e: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4, last_epoch=e),
             lambda o, e: lr_scheduler.MultiplicativeLR(o, lambda k: 0.9, last_epoch=e),
             lambda o, e: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4, last_epoch=e),
             lambda o, e: lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=3, last_epoch=e)]:
    opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.05, momentum=0.9)
    for g in opt.param_groups:
        g["initial_lr"] = 0.2
    s = make(opt, 3)
    print(type(s).__name__, s.last_epoch, s.get_last_lr())
    for _ in range(3):
        opt.step()
        s.step()
    print("   ", s.last_epoch, s.get_last_lr())
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.05, momentum=0.9)
for g in opt.param_groups:
    g["initial_lr"], g["max_lr"], g["min_lr"] = 0.02, 0.5, 2e-6
    g["max_momentum"], g["base_momentum"] = 0.95, 0.85
s = lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=10, last_epoch=4)
print("OneCycleLR", s.last_epoch, s.get_last_lr(), momenta(opt))
attempt(lambda: lr_scheduler.OneCycleLR(torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.05, momentum=0.9),
                                        max_lr=0.5, total_steps=10, last_epoch=4))

print("-- an lr that is a Tensor")
w = nn.Parameter(torch.ones(2))
lr = torch.tensor(0.1)
opt = torch.optim.SGD([w], lr=lr)
s = lr_scheduler.PolynomialLR(opt, total_iters=4)
for _ in range(3):
    w.grad = torch.ones(2)
    opt.step()
    s.step()
    print(opt.param_groups[0]["lr"] is lr, lr, s.get_last_lr(), s.get_last_lr()[0] is lr, w)
w = nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=torch.tensor(0.01))
s = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
for _ in range(3):
    w.grad = torch.ones(2)
    opt.step()
    s.step()
    print(opt.param_groups[0]["lr"], s.get_last_lr(), opt.param_groups[0]["initial_lr"], w)

print("-- scheduler.step() before optimizer.step()")
for make in [lambda o: lr_scheduler.ConstantLR(o),
             lambda o: lr_scheduler.CyclicLR(o, 0.01, 0.1),
             lambda o: lr_scheduler.OneCycleLR(o, 0.1, total_steps=5),
             lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, 3),
             lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o), lr_scheduler.StepLR(o, 2)], [2]),
             lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.ConstantLR(o), lr_scheduler.StepLR(o, 2)])]:
    opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
    s = make(opt)
    s.step()
    s.step()
    print(type(s).__name__, s.get_last_lr())
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1)
s = lr_scheduler.PolynomialLR(opt)
print(s.get_lr())
s = lr_scheduler.OneCycleLR(torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9), 0.1, total_steps=2)
opt = s.optimizer
opt.step()
s.step()
s.step()
attempt(lambda: s.step())

print("-- errors")
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1)
adam = torch.optim.Adam(nn.Linear(2, 1).parameters(), lr=0.1)
other = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1)
rop = lr_scheduler.ReduceLROnPlateau(opt)
for make in [lambda: lr_scheduler.MultiplicativeLR(opt, 0.5),
             lambda: lr_scheduler.MultiplicativeLR(opt, [lambda e: 1, lambda e: 2]),
             lambda: lr_scheduler.ConstantLR(opt, factor=1.5),
             lambda: lr_scheduler.ConstantLR(opt, factor=-0.1),
             lambda: lr_scheduler.PolynomialLR(opt, total_iters=0, last_epoch=-1),
             lambda: lr_scheduler.CyclicLR(opt, 0.01, 0.1),
             lambda: lr_scheduler.CyclicLR(opt, 0.01, 0.1, mode="sawtooth", cycle_momentum=False),
             lambda: lr_scheduler.CyclicLR(adam, [0.01, 0.02], 0.1),
             lambda: lr_scheduler.CyclicLR("sgd", 0.01, 0.1),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=0),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=2.5),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=3),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=-3),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5, pct_start=1.5, cycle_momentum=False),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5, pct_start=1, cycle_momentum=False),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5, anneal_strategy="exp"),
             lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5),
             lambda: lr_scheduler.OneCycleLR(adam, [0.1, 0.2], total_steps=5),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2.0),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0"),
             lambda: lr_scheduler.SequentialLR(opt, [], []),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2)], [3]),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2), rop], [3]),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2), "x"], [3]),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2), lr_scheduler.StepLR(other, 2)], [3]),
             lambda: lr_scheduler.ChainedScheduler([]),
             lambda: lr_scheduler.ChainedScheduler([rop]),
             lambda: lr_scheduler.ChainedScheduler([lr_scheduler.StepLR(opt, 2), lr_scheduler.StepLR(other, 2)]),
             lambda: lr_scheduler.PolynomialLR(opt, last_epoch=2)]:
    attempt(make)
