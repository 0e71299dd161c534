# nn.LeakyReLU and F.leaky_relu: values, gradient, repr, in place.
import torch
from torch import nn
import torch.nn.functional as F
x = torch.tensor([-2.0, -0.5, 0.0, 1.5], requires_grad=True)
act = nn.LeakyReLU()
print(act, nn.LeakyReLU(0.2), nn.LeakyReLU(0.1, inplace=True))
y = act(x)
print(y)
(y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)
print(F.leaky_relu(x, 0.3))
z = x.detach().clone()
F.leaky_relu(z, 0.5, inplace=True)
print(z)
w = x * 1
F.leaky_relu(w, 0.5, inplace=True)
print(w)
try:
    F.leaky_relu(torch.tensor([-1, 2]))
except NotImplementedError as e:
    print("caught", e)
