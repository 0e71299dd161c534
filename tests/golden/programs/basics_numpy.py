# .numpy() shares memory; on a tensor that requires grad it needs detach().
import torch

x = torch.tensor([1.0, 2.0, 3.0])
a = x.numpy()
print(a, a.dtype, type(a).__name__)
a[0] = 5.0
print(x)
print(torch.tensor([[1, 2], [3, 4]]).numpy())
print(torch.tensor([True, False]).numpy())
w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w.numpy()
except Exception as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
print(w.detach().numpy())
