# Seed 001, 四、代码介绍detach (reconstructed from the squashed text): a
# detached tensor shares storage; z2 has no graph, so its backward fails
# (the program ends on that error, as in the tutorial).
# id() and data_ptr() are addresses that differ from run to run:
# golden-mask: ^\d+$
import torch
x=torch.tensor(2.0,requires_grad=True)
y=x.detach()
print(x)
print(y)
print(id(x))
print(id(y))
print("-------------")
#use tensor.untyped_storage() instead of tensor.storage()
# print(x.storage().data_ptr())
# print(y.storage().data_ptr())
#数据共享
print(x.untyped_storage().data_ptr())
print(y.untyped_storage().data_ptr())
# added: the deterministic facts behind the masked numbers above
print(id(x) == id(y))
print(x.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())

#分别对x,y进行后续计算
z1=x**2
z2=y**2
print(z1)
print(z2)
#用sum当损失函数,可以反向传播
z1.sum().backward()
#z2 报错 element 0 of tensors does not require grad and does not have a grad_fn
z2.sum().backward()
