# Forgetting w.grad.zero_() makes the gradients pile up.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])
for i in range(3):
    loss = (w * x).sum()
    loss.backward()
    print(i, w.grad)
w.grad.zero_()
for i in range(2):
    (w * x).sum().backward()
    print(i, w.grad)
    w.grad = None
print(w.grad)
