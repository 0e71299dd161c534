# Seed 000, 追踪计算历史: toggling requires_grad (values of rand are never printed).
import torch

a=torch.rand(2,2,requires_grad=True)
print(a.requires_grad)
a.requires_grad_(False)
print(a.requires_grad)
