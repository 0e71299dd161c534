# Logistic regression by hand: sigmoid and a hand-written cross-entropy.
import torch

X = torch.tensor([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [0.5, -1.0]])
y = torch.tensor([1.0, 1.0, 0.0, 0.0])
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(3):
    p = torch.sigmoid(X @ w + b)
    loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
    loss.backward()
    print(epoch, loss, w.grad, b.grad)
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
print(w, b)
with torch.no_grad():
    print((torch.sigmoid(X @ w + b) > 0.5) == (y > 0.5))
