# Seed 001, 二、代码 (reconstructed from the squashed text): a one-layer net
# z = x*w + b with an MSE loss, leaf checks, backward(retain_graph=True).
# w and b come from torch.rand (seeded with 0 by the golden runner), whose
# stream autograd_teach reproduces, so every number is compared.
import torch
x=torch.tensor(10.0)
y=torch.tensor([[3.0]])
print(x)
print(y)
#初始化参数
w=torch.rand(1,1,requires_grad=True)
b=torch.rand(1,1,requires_grad=True)
#前向传播,得到输出
z=x*w+b
print(z)
#查看是否是叶子节点
print(x.is_leaf)
print(w.is_leaf)
print(b.is_leaf)
print(y.is_leaf)
print(z.is_leaf)
#设置损失函数
loss=torch.nn.MSELoss()
loss_value=loss(z,y)
print(loss_value)
print(loss_value.is_leaf)
#反向传播
loss_value.backward(retain_graph=True)
print(w.grad)
print(b.grad)
