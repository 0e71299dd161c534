# d2l 14.10 (transposed convolution) and 14.11 (fully convolutional networks):
# nn.ConvTranspose2d with its weight set through .data, padding and stride,
# the shape that undoes a convolution, the convolution as a matrix product
# and its transpose, and FCN's bilinear-kernel initialisation and its
# 64 x 64 kernel with stride 32.
import torch
from torch import nn
from torch.nn import functional as F


def trans_conv(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] + h - 1, X.shape[1] + w - 1))
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            Y[i: i + h, j: j + w] += X[i, j] * K
    return Y


X = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(trans_conv(X, K))
X, K = X.reshape(1, 1, 2, 2), K.reshape(1, 1, 2, 2)
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, bias=False)
tconv.weight.data = K
print(tconv(X))
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, padding=1, bias=False)
tconv.weight.data = K
print(tconv(X))
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, stride=2, bias=False)
tconv.weight.data = K
print(tconv(X))

torch.manual_seed(0)
X = torch.rand(size=(1, 10, 16, 16))
conv = nn.Conv2d(10, 20, kernel_size=5, padding=2, stride=3)
tconv = nn.ConvTranspose2d(20, 10, kernel_size=5, padding=2, stride=3)
print(tconv(conv(X)).shape == X.shape)


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


X = torch.arange(9.0).reshape(3, 3)
K = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
Y = corr2d(X, K)
print(Y)


def kernel2matrix(K):
    k, W = torch.zeros(5), torch.zeros((4, 9))
    k[:2], k[3:5] = K[0, :], K[1, :]
    W[0, :5], W[1, 1:6], W[2, 3:8], W[3, 4:] = k, k, k, k
    return W


W = kernel2matrix(K)
print(W)
print(Y == torch.matmul(W, X.reshape(-1)).reshape(2, 2))
Z = trans_conv(Y, K)
print(Z == torch.matmul(W.T, Y.reshape(-1)).reshape(3, 3))


# 14.11: the bilinear kernel, and upsampling with it
def bilinear_kernel(in_channels, out_channels, kernel_size):
    factor = (kernel_size + 1) // 2
    if kernel_size % 2 == 1:
        center = factor - 1
    else:
        center = factor - 0.5
    og = (torch.arange(kernel_size).reshape(-1, 1),
          torch.arange(kernel_size).reshape(1, -1))
    filt = (1 - torch.abs(og[0] - center) / factor) * \
           (1 - torch.abs(og[1] - center) / factor)
    weight = torch.zeros((in_channels, out_channels,
                          kernel_size, kernel_size))
    weight[range(in_channels), range(out_channels), :, :] = filt
    return weight


num_classes = 21
head = nn.Sequential(nn.Conv2d(512, num_classes, kernel_size=1),
                     nn.ConvTranspose2d(num_classes, num_classes, kernel_size=64, padding=16, stride=32))
W = bilinear_kernel(num_classes, num_classes, 64)
head[1].weight.data.copy_(W)
feats = torch.rand(size=(1, 512, 2, 3))
out = head(feats)
print(out.shape, out.grad_fn)
print(torch.round(out[0, 3, ::16, ::16], decimals=3))


def loss(inputs, targets):
    return F.cross_entropy(inputs, targets, reduction='none').mean(1).mean(1)


targets = torch.randint(0, num_classes, (1, 64, 96))
l = loss(out, targets)
print(l.shape, round(l.item(), 3))
l.sum().backward()
print(head[0].weight.grad.shape, round(head[0].bias.grad.abs().sum().item(), 4),
      round(head[1].weight.grad.abs().sum().item(), 2), round(head[1].bias.grad.abs().sum().item(), 4))
