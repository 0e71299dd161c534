# Adadelta (d2l 12.9's concise version: torch.optim.Adadelta) training d2l
# 3.3's linear regression: plain, with rho and weight decay, with maximize;
# the losses, the parameters, the state and the errors.
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
    lambda p: torch.optim.Adadelta(p),
    lambda p: torch.optim.Adadelta(p, rho=0.5, weight_decay=1e-3),
    lambda p: torch.optim.Adadelta(p, lr=0.5, eps=1e-4),
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
    state = opt.state_dict()["state"][1]
    print(list(state.keys()), state["step"], state["square_avg"], state["acc_delta"])
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.Adadelta([w], maximize=True)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
print(w, opt.state[w]["acc_delta"])
attempt(lambda: torch.optim.Adadelta([w], lr=-1))
attempt(lambda: torch.optim.Adadelta([w], rho=1.5))
attempt(lambda: torch.optim.Adadelta([w], eps=-1))
attempt(lambda: torch.optim.Adadelta([w], weight_decay=-1))
