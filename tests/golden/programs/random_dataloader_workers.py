# DataLoader(num_workers=N) gives PyTorch's batches in PyTorch's order, and
# the random stream moves on as in PyTorch: the workers' base seed is drawn
# at iter(), and with workers the shuffle draws at iter() too (prefetch).
# A generator shared by two loaders; persistent workers; option checks.
import warnings

import torch
from torch.utils import data

# More workers than CPUs warns, and the count is the machine's: silenced so the
# golden holds on any machine (tests/test_nn.py checks the warning).
warnings.filterwarnings("ignore", message="This DataLoader will create")

ds = data.TensorDataset(torch.arange(20.0).reshape(10, 2), torch.arange(10))
for nw in (0, 1, 2):
    torch.manual_seed(0)
    loader = data.DataLoader(ds, batch_size=3, shuffle=True, num_workers=nw)
    it = iter(loader)
    print(nw, torch.rand(1).tolist())
    print([y.tolist() for _, y in it], torch.rand(1).tolist())
    print([y.tolist() for _, y in loader], torch.rand(1).tolist())
torch.manual_seed(0)
loader = data.DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, persistent_workers=True)
for epoch in range(3):
    print([y.tolist() for _, y in loader], torch.rand(1).tolist())
g = torch.Generator().manual_seed(3)
l1 = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g)
l2 = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g, num_workers=2, prefetch_factor=1)
print([y.tolist() for _, y in l1], [y.tolist() for _, y in l2], [y.tolist() for _, y in l1])
print(torch.rand(1).tolist())
print(len(l2), l2.prefetch_factor, l1.prefetch_factor, l2.num_workers)
sampler = data.RandomSampler(ds, generator=torch.Generator().manual_seed(4))
print(list(sampler), list(sampler))
print([y.tolist() for _, y in data.DataLoader(ds, batch_size=4, sampler=sampler, num_workers=1)])
torch.manual_seed(5)
with_replacement = data.RandomSampler(ds, replacement=True, num_samples=40)
print(list(with_replacement), torch.rand(1).tolist())
print(list(data.RandomSampler(ds, replacement=True, generator=torch.Generator().manual_seed(2))))
print(list(data.SubsetRandomSampler([10, 20, 30, 40], generator=torch.Generator().manual_seed(2))))
print(list(data.SubsetRandomSampler(range(5))), torch.rand(1).tolist())
try:
    data.RandomSampler(ds, replacement=1)
except TypeError as e:
    print("TypeError:", e)
print([y.tolist() for _, y in data.DataLoader(ds, batch_size=None, shuffle=True, num_workers=2)])
print([y.tolist() for _, y in data.DataLoader(ds, batch_size=4, pin_memory=True)])
it = iter(data.DataLoader(ds, batch_size=2, shuffle=True, num_workers=2))
next(it)
print(torch.rand(1).tolist(), next(it)[1].tolist())
print([y.tolist() for _, y in data.DataLoader(data.TensorDataset(torch.arange(0)), batch_size=2, num_workers=2)])
for kwargs in ({"num_workers": -1}, {"timeout": -1}, {"prefetch_factor": 2},
               {"num_workers": 1, "prefetch_factor": -1}, {"persistent_workers": True},
               {"multiprocessing_context": "fork"}):
    try:
        data.DataLoader(ds, **kwargs)
    except ValueError as e:
        print("ValueError:", e)
