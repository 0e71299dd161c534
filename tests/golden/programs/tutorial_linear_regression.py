# Linear regression by hand on fixed data: y = 2x + 1.
import torch

X = torch.tensor([[0.0], [1.0], [2.0], [3.0]])
Y = 2 * X + 1
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1

for epoch in range(31):
    pred = X @ w + b
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d}  loss {loss.item():.6f}")

print(w)
print(b)
print(w.grad, b.grad)
print(w.is_leaf, b.is_leaf, w.requires_grad)
with torch.no_grad():
    print(torch.tensor([[4.0]]) @ w + b)
