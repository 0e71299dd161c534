# torch.nn.init after a seed: each initializer draws PyTorch's numbers; the
# d2l pattern net.apply(init_weights).
import torch
from torch import nn

torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.uniform_(w, -0.1, 0.1))
print(nn.init.normal_(w, mean=1.0, std=0.01))
print(nn.init.xavier_uniform_(w))
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu")))
print(nn.init.kaiming_uniform_(w, a=5 ** 0.5))
print(nn.init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu"))
print(nn.init.zeros_(w), nn.init.ones_(torch.empty(2)), nn.init.constant_(torch.empty(2), 0.3))
print(nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2))
big = torch.empty(4, 8)
print(nn.init.normal_(big, std=0.01))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
        nn.init.zeros_(m.bias)


net = nn.Sequential(nn.Flatten(), nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 2))
print(net.apply(init_weights))
print(net[1].weight, net[3].bias)
print(net(torch.ones(2, 2, 3)))
p = nn.Linear(3, 2).weight
print(p.requires_grad, p.grad_fn, nn.init.uniform_(p).requires_grad)
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("caught", e)
