# zh.d2l.ai 6.2, 图像卷积 (pytorch tab), unchanged except: a seed added,
# d2l.X replaced by what d2l's torch module means by it (d2l.zeros is
# torch.zeros, d2l.reduce_sum(x) is x.sum(), d2l.transpose(x) is x.t(),
# d2l.reshape(x, s) is x.reshape(s)), and the cells' displayed values printed.
# Then the same edge detector learned by nn.Conv2d, and corr2d's result
# checked against F.conv2d, with its graph.
import torch
from torch import nn

torch.manual_seed(0)


def corr2d(X, K):  #@save
    """计算二维互相关运算"""
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i: i + h, j: j + w] * K).sum()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))


class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(kernel_size))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return corr2d(x, self.weight) + self.bias


layer = Conv2D((2, 2))
print(layer.weight, layer(X))

X = torch.ones((6, 8))
X[:, 2:6] = 0
print(X)
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)
print(corr2d(X.t(), K))

# 构造一个二维卷积层，它具有1个输出通道和形状为（1，2）的卷积核
conv2d = nn.Conv2d(1,1, kernel_size=(1, 2), bias=False)
print(conv2d, conv2d.weight)

# 这个二维卷积层使用四维输入和输出格式（批量大小、通道、高度、宽度），
# 其中批量大小和通道数都为1
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2  # 学习率

for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    # 迭代卷积核
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i+1}, loss {l.sum():.3f}')

print(conv2d.weight.data.reshape((1, 2)))
print(conv2d.weight)
print(Y_hat.grad_fn, Y_hat.grad_fn.next_functions, l.grad_fn)

# corr2d is what nn.Conv2d computes (a cross-correlation, the kernel not flipped)
Xs = torch.rand(5, 6)
Ks = torch.rand(2, 3)
print(torch.nn.functional.conv2d(Xs.reshape(1, 1, 5, 6), Ks.reshape(1, 1, 2, 3)).reshape(4, 4))
print(corr2d(Xs, Ks))
