# Seed 001, 五、detach实际应用 (reconstructed): u = y.detach() is a constant,
# so d(u*x)/dx is u, not 3x**2.
import torch
x=torch.ones(2,2,requires_grad=True)
y=x*x
print(x)
print(y)
#分离y
u=y.detach()
#让u参与新张量的计算
z=u*x
#反向传播,计算所有梯度
z.sum().backward()
print(x.grad)
print("------------")
print(x.grad==u)
