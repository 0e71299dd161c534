# zh.d2l.ai 5.5 (read-write, pytorch tab), unchanged except a seed, a
# temporary directory for the files, and prints of what a notebook shows;
# then what else a learner saves: nesting, Parameters, requires_grad, one
# tensor saved twice, dtypes and sizes, file objects, strict=False, and
# weights_only refusing another class.
import io
import os
import tempfile
from collections import OrderedDict
from fractions import Fraction

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
tmp = tempfile.TemporaryDirectory()
here = os.getcwd()
os.chdir(tmp.name)

x = torch.arange(4)
torch.save(x, 'x-file')
x2 = torch.load('x-file')
print(x2)
y = torch.zeros(4)
torch.save([x, y], 'x-files')
x2, y2 = torch.load('x-files')
print((x2, y2))
mydict = {'x': x, 'y': y}
torch.save(mydict, 'mydict')
mydict2 = torch.load('mydict')
print(mydict2)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)
torch.save(net.state_dict(), 'mlp.params')
clone = MLP()
print(clone.load_state_dict(torch.load('mlp.params')))
print(clone.eval())
Y_clone = clone(X)
print(Y_clone == Y)
print(type(torch.load('mlp.params')), list(torch.load('mlp.params').keys()))
print(torch.load('mlp.params')['output.bias'].requires_grad)

w = torch.arange(4.0, requires_grad=True)
p = nn.Parameter(torch.ones(2))
buf = io.BytesIO()
torch.save([w, w, w[1:] * 2, p, torch.Size([2, 3]), torch.float64, (1, 2.5, "s", None, True), {1, 2},
            OrderedDict(a=torch.tensor([[1, 2]], dtype=torch.int32))], buf)
buf.seek(0)
r = torch.load(buf, map_location="cpu")
print(r)
print(r[0] is r[1], type(r[3]).__name__, r[3].requires_grad, r[2].is_leaf, r[2].requires_grad, r[8]['a'].dtype)
r[0].sum().backward()
print(r[0].grad)

sd = net.state_dict()
sd.pop('output.bias')
print(clone.load_state_dict(sd, strict=False))
try:
    clone.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)


torch.save({'note': Fraction(1, 3), 'w': w}, 'note')     # a class that is not a weight
print(torch.load('note', weights_only=False))
try:
    torch.load('note')
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
os.chdir(here)
tmp.cleanup()
