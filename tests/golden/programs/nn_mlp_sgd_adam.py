# A three-layer Sequential MLP on a small classification task, trained with
# SGD(momentum=0.9) and with Adam: the losses, and the grad_fn chain PyTorch records.
import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(64, 4)
y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).long() + (X[:, 3] > 1).long()


def make_net():
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 3))


def names(fn, depth=0, out=None):
    out = [] if out is None else out
    out.append("  " * depth + (fn.name() if fn is not None else "None"))
    if fn is not None:
        for child, _ in fn.next_functions:
            names(child, depth + 1, out)
    return out


for make_opt in (lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
                 lambda p: torch.optim.Adam(p, lr=0.01)):
    torch.manual_seed(1)
    net = make_net()
    opt = make_opt(net.parameters())
    loss_fn = nn.CrossEntropyLoss()
    print(type(opt).__name__)
    for step in range(100):
        loss = loss_fn(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0 or step == 99:
            print(step, f"{loss.item():.6f}", loss)
    print("\n".join(names(loss.grad_fn)))
    with torch.no_grad():
        acc = (net(X).argmax(dim=1) == y).float().mean()
    print("accuracy", acc)
    print(net[0].weight[0])
    print(opt.state_dict()["state"][5])
