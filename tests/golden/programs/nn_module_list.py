# nn.ModuleList: registration, indexing, a model that loops over its layers,
# and PyTorch's repr that folds runs of identical modules.
import torch
from torch import nn
torch.manual_seed(0)
class Deep(nn.Module):
    def __init__(self, width, depth):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return self.head(x)

net = Deep(3, 4)
print(net)
print(len(net.layers), net.layers[-1], net.layers[1:3])
print([n for n, _ in net.named_parameters()][:4], len(list(net.parameters())))
out = net(torch.randn(2, 3))
print(out)
out.sum().backward()
print(net.layers[0].bias.grad)
ml = nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Linear(2, 2), nn.ReLU()])
ml.append(nn.Tanh())
ml += [nn.Tanh()]
print(ml)
print(nn.ModuleList())
try:
    ml[10]
except IndexError as e:
    print("caught", e)
