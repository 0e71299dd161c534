# zh.d2l.ai 4.2 (MLP from scratch, pytorch tab), the parts that need no
# dataset, unchanged except a seed and a random batch: relu through
# torch.max(X, zeros), nn.Parameter weights, CrossEntropyLoss(reduction='none'),
# SGD on the params; then torch.maximum / torch.minimum with ties.
import torch
from torch import nn

torch.manual_seed(0)
num_inputs, num_outputs, num_hiddens = 784, 10, 256

W1 = nn.Parameter(torch.randn(
    num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(
    num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))

params = [W1, b1, W2, b2]


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X@W1 + b1)  # 这里“@”代表矩阵乘法
    return (H@W2 + b2)


loss = nn.CrossEntropyLoss(reduction='none')
updater = torch.optim.SGD(params, lr=0.1)
X, y = torch.rand(8, 1, 28, 28), torch.tensor([0, 1, 2, 3, 4, 5, 6, 7])
for step in range(3):
    l = loss(net(X), y)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    print(step, l.mean(), l.grad_fn)
print(relu(torch.tensor([-1.0, 0.0, 2.0])))
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([3.0, 2.0, 1.0], requires_grad=True)
m = torch.maximum(a, b) + torch.minimum(a, b) * 10
print(m, torch.max(a, b), torch.min(a, b))
m.sum().backward()
print(a.grad, b.grad)
