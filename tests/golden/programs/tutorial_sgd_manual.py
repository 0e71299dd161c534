# Gradient descent on f(w) = (w - 3)^2 with the no_grad update idiom.
import torch

w = torch.tensor(0.0, requires_grad=True)
for step in range(5):
    loss = (w - 3) ** 2
    loss.backward()
    print(step, loss, w.grad)
    with torch.no_grad():
        w -= 0.25 * w.grad
    w.grad.zero_()
print(w)
