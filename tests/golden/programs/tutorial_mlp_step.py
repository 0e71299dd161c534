# One training step of a tiny 2-2-1 MLP with fixed weights.
import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
y = torch.tensor([[1.0], [0.0]])
W1 = torch.tensor([[0.1, -0.2], [0.3, 0.4]], requires_grad=True)
b1 = torch.tensor([0.0, 0.1], requires_grad=True)
W2 = torch.tensor([[0.5], [-0.5]], requires_grad=True)
b2 = torch.tensor([0.2], requires_grad=True)

h = torch.relu(x @ W1 + b1)
out = h @ W2 + b2
loss = F.mse_loss(out, y)
print(h)
print(out)
print(loss)
loss.backward()
for name, p in [("W1", W1), ("b1", b1), ("W2", W2), ("b2", b2)]:
    print(name, p.grad)
with torch.no_grad():
    for p in (W1, b1, W2, b2):
        p -= 0.1 * p.grad
        p.grad.zero_()
print(W1)
print(b2)
new_loss = F.mse_loss(torch.relu(x @ W1 + b1) @ W2 + b2, y)
print(new_loss, new_loss.item() < loss.item())
