# nn.Module: registration by attribute, names, repr, modes, state_dict; Linear's default init.
import torch
from torch import nn

torch.manual_seed(0)
lin = nn.Linear(2, 1)
print(lin.weight)
print(lin.bias)
print(lin)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(net)
print(len(net), net[0], net[-1])
print(net[1:])
for name, p in net.named_parameters():
    print(name, p.shape, p.requires_grad)
print([type(m).__name__ for m in net.modules()])
print([type(m).__name__ for m in net.children()])
print(net.training, net[0].training)
net.eval()
print(net.training, net[0].training)
net.train()
sd = net.state_dict()
print(list(sd.keys()))
print(sd["0.bias"])


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(4, 8)
        self.act = nn.Tanh()
        self.out = nn.Linear(8, 2)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.out(self.act(self.hidden(x))) * self.scale


m = MLP()
print(m)
print([n for n, _ in m.named_parameters()])
print(sum(p.numel() for p in m.parameters()))
x = torch.randn(3, 4)
y = m(x)
print(y)
y.sum().backward()
print(m.scale.grad)
m.zero_grad()
print(m.scale.grad)
m2 = MLP()
print(m2.load_state_dict(m.state_dict()))
print(torch.equal(m2(x), m(x)))
try:
    m2.load_state_dict({"hidden.weight": torch.zeros(8, 4)})
except RuntimeError as e:
    print(str(e).splitlines()[1])
m.requires_grad_(False)
print(m.hidden.weight.requires_grad)
print(nn.Parameter(torch.tensor([1.0, 2.0])))
print(nn.Sequential(nn.Flatten(), nn.Sigmoid(), nn.Softmax(dim=1), nn.ReLU(inplace=True)))
print(nn.MSELoss(), nn.CrossEntropyLoss(), nn.L1Loss(reduction="sum"), nn.BCELoss())
print(nn.Linear(3, 2, bias=False))
