# Seed 004 (自动求梯度), notebook cells up to 分离计算: they share x, so one
# program; each cell's displayed last expression is wrapped in print().
import torch

x = torch.arange(4.0)
print(x)

x.requires_grad_(True)  # 等价于 x = torch.arange(4.0, requires_grad=True)
print(x.grad)  # 默认值是 None

y = 2 * torch.dot(x, x)
print(y)

y.backward()
print(x.grad)

print(x.grad == 4 * x)

# PyTorch 默认积累梯度，我们需要清楚之前的梯度值
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

# 非标量变量的反向传播
# 在非标量上调用 backward 需要传入一个 gradient 的梯度参数，指定关于 self （即调用对象）的微分梯度函数
# 在下面的例子中，我们只是简单地想要求偏导数的和，所以我们传入了 ones 的梯度是合适的
x.grad.zero_()
y = x * x
# 下面的语句等价于 y.backward(torch.ones(len(x)))
y.sum().backward()
print(x.grad)

# 分离计算
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x

z.sum().backward()
print(x.grad == u)
