# zh.d2l.ai 7.5 (批量规范化): the from-scratch batch_norm function and
# BatchNorm module, then the concise nn.BatchNorm1d/2d, on seeded random data
# (no Fashion-MNIST): a 4-D batch, small fully connected nets, then the
# chapter's two LeNets themselves on a random batch of 28x28 images.
# A few SGD steps, printing outputs, moving statistics and gradients. The data
# and the models are float64: in float32 the scratch version's mean and sum
# (the core's reductions, not BatchNorm) round differently from PyTorch's in
# the last place, which the step-by-step comparison of tests/test_viz_torch_golden.py sees.
import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    # 通过is_grad_enabled来判断当前模式是训练模式还是预测模式
    if not torch.is_grad_enabled():
        # 如果是在预测模式下，直接使用传入的移动平均所得的均值和方差
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            # 使用全连接层的情况，计算特征维上的均值和方差
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            # 使用二维卷积层的情况，计算通道维上（axis=1）的均值和方差。
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        # 训练模式下，用当前的均值和方差做标准化
        X_hat = (X - mean) / torch.sqrt(var + eps)
        # 更新移动平均的均值和方差
        moving_mean = momentum * moving_mean + (1.0 - momentum) * mean
        moving_var = momentum * moving_var + (1.0 - momentum) * var
    Y = gamma * X_hat + beta  # 缩放和移位
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    # num_features：完全连接层的输出数量或卷积层的输出通道数。
    # num_dims：2表示完全连接层，4表示卷积层
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        # 参与求梯度和迭代的拉伸和偏移参数，分别初始化成1和0
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        # 非模型参数的变量初始化为0和1
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        # 保存更新过的moving_mean和moving_var
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.9)
        return Y


torch.manual_seed(0)
X = torch.randn(4, 3, 5, 5, dtype=torch.float64) * 2 + 1
bn4 = BatchNorm(3, num_dims=4)
Y = bn4(X)
print(Y[0, 0], Y.grad_fn)
print(bn4.moving_mean.reshape(-1), bn4.moving_var.reshape(-1))
(Y * torch.arange(Y.numel(), dtype=torch.float64).reshape(Y.shape) / 100).sum().backward()
print(bn4.gamma.grad.reshape(-1), bn4.beta.grad.reshape(-1))
with torch.no_grad():
    print(bn4(X)[0, 0, 0])

concise4 = nn.BatchNorm2d(3).double()
Z = concise4(X)
print(Z[0, 0], Z.grad_fn)
print((Y - Z).abs().max() < 1e-5)
print(concise4.running_mean, concise4.running_var)   # momentum 0.1 and the unbiased variance, unlike d2l's

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(8, 6), BatchNorm(6, num_dims=2), nn.Sigmoid(),
                    nn.Linear(6, 4), BatchNorm(4, num_dims=2), nn.Sigmoid(), nn.Linear(4, 3))
concise = nn.Sequential(nn.Linear(8, 6), nn.BatchNorm1d(6), nn.Sigmoid(),
                        nn.Linear(6, 4), nn.BatchNorm1d(4), nn.Sigmoid(), nn.Linear(4, 3))
net.double()
concise.double()
print(concise.load_state_dict({k.replace("gamma", "weight").replace("beta", "bias"): v.reshape(-1) if
                               k.endswith(("gamma", "beta")) else v for k, v in net.state_dict().items()},
                              strict=False))
print(net)
print(concise)
print(net[1].gamma.reshape((-1,)), net[1].beta.reshape((-1,)))
loss = nn.CrossEntropyLoss()
features = torch.randn(16, 8, dtype=torch.float64)
labels = torch.randint(0, 3, (16,))
for model in (net, concise):
    trainer = torch.optim.SGD(model.parameters(), lr=0.5)
    for step in range(5):
        trainer.zero_grad()
        l = loss(model(features), labels)
        l.backward()
        trainer.step()
        print(step, f"{l.item():.10f}")    # float64 sums may differ from PyTorch's in the last bit
    print(model[1].weight.grad if isinstance(model[1], nn.BatchNorm1d) else model[1].gamma.grad)
print(net[1].gamma.reshape((-1,)), net[1].beta.reshape((-1,)))
print(concise[1].weight, concise[1].bias)
print(net[1].moving_mean.reshape(-1), concise[1].running_mean, concise[1].num_batches_tracked)
net.eval()
concise.eval()
with torch.no_grad():
    print(net(features[:3]))          # d2l's BatchNorm: no_grad selects its prediction mode
    print(concise(features[:3]))      # the concise one: eval() does
# the chapter's LeNet with the scratch BatchNorm, and its concise version
torch.manual_seed(2)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), BatchNorm(16, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(16*4*4, 120), BatchNorm(120, num_dims=2), nn.Sigmoid(),
    nn.Linear(120, 84), BatchNorm(84, num_dims=2), nn.Sigmoid(),
    nn.Linear(84, 10)).double()
concise = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.BatchNorm2d(16), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(256, 120), nn.BatchNorm1d(120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.BatchNorm1d(84), nn.Sigmoid(),
    nn.Linear(84, 10)).double()
print(concise)
images = torch.rand(8, 1, 28, 28, dtype=torch.float64)
classes = torch.randint(0, 10, (8,))
for model in (net, concise):
    trainer = torch.optim.SGD(model.parameters(), lr=1.0)
    for step in range(2):
        trainer.zero_grad()
        l = loss(model(images), classes)
        l.backward()
        trainer.step()
        print(step, f"{l.item():.10f}")
print(net[1].gamma.reshape((-1,)), net[1].beta.reshape((-1,)))
print(concise[1].weight, concise[1].running_mean, concise[10].running_var[:5])
print("done")
