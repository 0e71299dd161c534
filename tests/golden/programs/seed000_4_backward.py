# Seed 000, 梯度计算: scalar backward, then y.backward(x) accumulates into x.grad.
import torch

x=torch.ones(2,2,requires_grad=True)
y = x+2
z = y*y*3
out = z.mean()

out.backward()
print(x.grad)

y.backward(x)
print(x.grad)
