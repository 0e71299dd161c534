# Seed 000, 取消追踪运算: tensor.detach().
import torch

x=torch.ones(2,2,requires_grad=True)
print(x.requires_grad)
y = x.detach()
print(x.requires_grad)
print(y.requires_grad)
