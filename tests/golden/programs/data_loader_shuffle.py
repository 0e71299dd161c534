# torch.utils.data: TensorDataset, DataLoader batching, shuffle order after a
# seed (the loader and the sampler each draw from the global generator), drop_last, collation.
import torch
from torch.utils import data

torch.manual_seed(0)
X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10)
ds = data.TensorDataset(X, y)
print(len(ds), ds[3])
loader = data.DataLoader(ds, batch_size=4)
print(len(loader))
for xb, yb in loader:
    print(xb.shape, yb)
loader = data.DataLoader(ds, batch_size=4, shuffle=True)
for epoch in range(3):
    print([yb.tolist() for _, yb in loader])
print(torch.rand(2))
loader = data.DataLoader(ds, batch_size=3, shuffle=True, drop_last=True)
print(len(loader), [yb.tolist() for _, yb in loader])
it = iter(loader)
print(torch.randn(1))
print(next(it))
g = torch.Generator().manual_seed(42)
loader = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g)
print([yb.tolist() for _, yb in loader], [yb.tolist() for _, yb in loader])
print(torch.rand(1))
big = data.TensorDataset(torch.arange(1000))
print(next(iter(data.DataLoader(big, batch_size=8, shuffle=True))))
print(data.DataLoader([1.5, 2.5, 3.5], batch_size=2).__iter__().__next__())
print(next(iter(data.DataLoader([(1, 2.0), (3, 4.0)], batch_size=2))))
print(next(iter(data.DataLoader([{"a": torch.ones(2)}, {"a": torch.zeros(2)}], batch_size=2))))
print(next(iter(data.DataLoader(ds, batch_size=None))))
