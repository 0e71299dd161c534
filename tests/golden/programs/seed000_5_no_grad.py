# Seed 000, 取消追踪运算: with torch.no_grad().
import torch

x=torch.ones(2,2,requires_grad=True)
print((x**2).requires_grad)
with torch.no_grad():
    print(x.requires_grad)
    print((x**2).requires_grad)
