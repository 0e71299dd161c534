# Method and torch.* function forms agree.
import torch

x = torch.tensor([0.5, 1.0, 2.0])
pairs = [
    (x.exp(), torch.exp(x)), (x.log(), torch.log(x)), (x.sqrt(), torch.sqrt(x)),
    (x.sin(), torch.sin(x)), (x.tanh(), torch.tanh(x)), (x.mul(3), torch.mul(x, 3)),
    (x.add(1), torch.add(x, 1)), (x.sum(), torch.sum(x)), (x.mean(), torch.mean(x)),
    (x.abs(), torch.abs(x)), (x.sigmoid(), torch.sigmoid(x)), (x.pow(2), torch.pow(x, 2)),
]
for a, b in pairs:
    print((a == b).tolist())
