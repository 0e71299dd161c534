# zh.d2l.ai 5.4 (custom layers) calls a layer on torch.FloatTensor([...]);
# 5.6 (GPUs) asks torch.cuda how many GPUs there are (none here, as on the
# CPU-only machine the goldens come from). The legacy typed constructors:
# from data, from sizes (shape and dtype only: the values are uninitialized),
# isinstance against them.
import torch
from torch import nn


class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return X - X.mean()


layer = CenteredLayer()
print(layer(torch.FloatTensor([1, 2, 3, 4, 5])))
x = torch.FloatTensor([1, 2, 3])
print(x, x.dtype, isinstance(x, torch.FloatTensor), isinstance(x, torch.DoubleTensor))
print(torch.LongTensor([1.7, -1.7]), torch.LongTensor([2**40 + 1]), torch.ByteTensor([1, 2]), torch.BoolTensor([1, 0]))
print(torch.DoubleTensor([1]), torch.IntTensor([1]).dtype, torch.HalfTensor([0.5]), torch.ShortTensor([3]).dtype,
      torch.CharTensor([-3]).dtype)
print(torch.FloatTensor(2, 3).shape, torch.LongTensor(4).dtype, torch.FloatTensor(2, 3).dtype)
print(isinstance(torch.ones(2), torch.FloatTensor), isinstance(torch.ones(2, dtype=torch.float64), torch.FloatTensor),
      isinstance(torch.arange(3), torch.LongTensor), isinstance([1], torch.LongTensor))
print(torch.cuda.is_available(), torch.cuda.device_count())


def try_gpu(i=0):  #@save
    """如果存在，则返回gpu(i)，否则返回cpu()"""
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f'cuda:{i}')
    return torch.device('cpu')


def try_all_gpus():  #@save
    """返回所有可用的GPU，如果没有GPU，则返回[cpu(),]"""
    devices = [torch.device(f'cuda:{i}')
               for i in range(torch.cuda.device_count())]
    return devices if devices else [torch.device('cpu')]


print(try_gpu(), try_gpu(10), try_all_gpus())
X = torch.ones(2, 3, device=try_gpu())
print(X, X.device)
