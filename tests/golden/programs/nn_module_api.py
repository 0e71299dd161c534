# nn.Module API of d2l chapters 4-5: apply, named_modules, named_children,
# buffers (persistent or not), add_module, ModuleList, Identity, LeakyReLU,
# Dropout in a model, and the registration errors.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.LeakyReLU(0.2), nn.Dropout(0.1))
        self.heads = nn.ModuleList([nn.Linear(3, 1), nn.Identity()])
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("tmp", torch.ones(2), persistent=False)
        self.add_module("act", nn.Tanh())

    def forward(self, x):
        return self.act(self.heads[0](self.body(x)))


torch.manual_seed(0)
net = Net()
print(net)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print([n for n, _ in net.named_buffers()], [b.shape for b in net.buffers()])
print(list(net.state_dict().keys()))


def init(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 0.5)
        print("init", m)


print(net.apply(init) is net)
print(net.body[0].weight)
net.register_buffer("none", None)
print(net.none, [n for n, _ in net.named_buffers()])
net.steps = torch.ones(1) * 3
print(net.steps, net.state_dict()["steps"])
net.eval()
print(net.body[2].training, net.training)
out = net(torch.ones(1, 2))
print(out)
out.sum().backward()
print(net.body[0].weight.grad, net.heads[0].bias.grad)
print(nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.Identity(3, x=4))
ml = nn.ModuleList([nn.ReLU() for _ in range(3)])
ml.append(nn.Tanh())
print(ml, len(ml))
x = torch.tensor([-2.0, 0.5], requires_grad=True)
y = nn.LeakyReLU(0.1)(x)
print(y)
y.sum().backward()
print(x.grad)

tries = [lambda: net.register_buffer("a.b", torch.ones(1)),
         lambda: net.register_buffer("x", 3),
         lambda: net.register_buffer("", torch.ones(1)),
         lambda: net.register_buffer("act", torch.ones(1)),
         lambda: net.register_buffer(1, torch.ones(1)),
         lambda: net.add_module("x.y", nn.Tanh()),
         lambda: net.add_module("q", 3),
         lambda: net.add_module("", nn.Tanh()),
         lambda: net.add_module("steps", nn.Tanh()),
         lambda: net.add_module(3, nn.Tanh()),
         lambda: setattr(net, "steps", 5),
         lambda: net.body[0].register_parameter("p", torch.ones(1))]
for t in tries:
    try:
        t()
    except (KeyError, TypeError) as e:
        print(type(e).__name__ + ":", e)
