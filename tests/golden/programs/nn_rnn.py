# nn.RNN, nn.GRU, nn.LSTM and their cells (d2l chapters 8-10): PyTorch's
# default initialisation (uniform(-1/sqrt(hidden), 1/sqrt(hidden)) for every
# parameter, from the global generator), parameter names and shapes, reprs,
# values and shapes of the outputs (unbatched, batch_first, h0, several
# layers, bidirectional, dropout between layers), the grad_fn names and
# next_functions PyTorch records on the CPU, the gradients of every parameter,
# and the errors.
# An LSTM in float32 runs on PyTorch's CPU as one oneDNN kernel
# (MkldnnRnnLayerBackward0); its graph is printed here in float64, where
# PyTorch records the cell's ops. With batch_first PyTorch records
# TransposeBackward1 (an in-place transpose_): that name is not printed.
import warnings

import torch
import torch.nn as nn


def names(fn):
    return [type(f).__name__ if f is not None else None for f, _ in fn.next_functions]


def grads(m, digits=6):
    for name, p in m.named_parameters():
        print(name, tuple(p.shape), [round(v, digits) for v in p.grad.flatten().tolist()[:6]])


torch.manual_seed(0)
rnn = nn.RNN(4, 3)
print(rnn)
print([(n, tuple(p.shape)) for n, p in rnn.named_parameters()])
print(rnn.weight_ih_l0)
print(rnn.bias_hh_l0)
x = torch.randn(5, 2, 4)
out, h = rnn(x)
print(out.shape, h.shape)
print(out)
print(h)
print(out.grad_fn, names(out.grad_fn), names(h.grad_fn))
tanh = out.grad_fn.next_functions[0][0]
print(names(tanh), names(tanh.next_functions[0][0]))
add = tanh.next_functions[0][0]
print(names(add.next_functions[0][0]), names(add.next_functions[1][0]))
(out.pow(2).sum() + h.sum()).backward()
grads(rnn)

print(nn.RNN(4, 3, num_layers=2, batch_first=True), nn.RNN(2, 5, 3, 'relu', bias=False, dropout=0.25))
print(nn.RNN(4, 3, nonlinearity='relu', bidirectional=True), nn.GRU(3, 3, batch_first=True, bidirectional=True))
print(nn.LSTM(10, 20, num_layers=2, dropout=0.5), nn.RNNCell(3, 4, nonlinearity='relu'), nn.GRUCell(2, 2, bias=False),
      nn.LSTMCell(4, 5))

# several layers, bidirectional, h0 that requires grad
torch.manual_seed(1)
gru = nn.GRU(3, 4, num_layers=2, bidirectional=True).double()
print([(n, tuple(p.shape)) for n, p in gru.named_parameters()])
x = torch.randn(4, 2, 3, dtype=torch.float64, requires_grad=True)
h0 = torch.randn(4, 2, 4, dtype=torch.float64, requires_grad=True)
out, h = gru(x, h0)
print(out.shape, h.shape, out.grad_fn, names(out.grad_fn), names(h.grad_fn))
step = out.grad_fn.next_functions[0][0].next_functions[0][0]
print(type(step).__name__, names(step), names(step.next_functions[0][0]))
gate = step.next_functions[0][0].next_functions[1][0]   # the update gate z
print(type(gate).__name__, names(gate.next_functions[0][0]))
split = gate.next_functions[0][0].next_functions[0][0]
print(type(split).__name__, split._saved_split_size, split._saved_dim, split._saved_self_sym_sizes)
(out.sin().sum() + h.pow(2).sum()).backward()
print(x.grad[0], h0.grad[3])
grads(gru, 8)

torch.manual_seed(2)
lstm = nn.LSTM(3, 2, num_layers=2).double()
x = torch.randn(3, 2, 3, dtype=torch.float64)
out, (h, c) = lstm(x)
print(out, h, c, sep="\n")
print(out.grad_fn, names(out.grad_fn), names(h.grad_fn), names(c.grad_fn))
hy = out.grad_fn.next_functions[-1][0]
print(type(hy).__name__, names(hy), names(hy.next_functions[1][0]), names(hy.next_functions[1][0].next_functions[0][0]))
(out.sum() + c.sum() * 2).backward()
grads(lstm, 8)

# float32 values: RNN and GRU, unbatched, batch_first, with h0
torch.manual_seed(3)
gru = nn.GRU(2, 3, batch_first=True)
x = torch.randn(2, 4, 2)
out, h = gru(x)
print(out.shape, h.shape, h)
out1, h1 = gru(x[1])
print(out1.shape, h1.shape, out1.grad_fn, h1.grad_fn, torch.allclose(out1, out[1]), torch.allclose(h1, h[:, 1]))
rnn = nn.RNN(2, 3, num_layers=2, nonlinearity='relu')
out, h = rnn(torch.randn(3, 1, 2), torch.randn(2, 1, 3))
print(out, h, sep="\n")
lstm = nn.LSTM(2, 3, batch_first=True)
out, (h, c) = lstm(torch.randn(1, 2, 2), (torch.zeros(1, 1, 3), torch.ones(1, 1, 3)))
print(out.shape, h.shape, c.shape, [round(v, 4) for v in c.flatten().tolist()])
out, (h, c) = lstm(torch.randn(2, 2))
print(out.shape, h.shape, c.shape)

# batch_first: the input transposed is not contiguous, so the input's linear is
# matmul and an in-place add of the bias (PyTorch's at::linear); the backward runs
# from h_n, whose graph does not pass through the output's transpose_
torch.manual_seed(8)
rnn = nn.RNN(2, 3, batch_first=True)
x = torch.randn(2, 4, 2, requires_grad=True)
out, h = rnn(x)
unbind = h.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[1][0]
print(type(unbind).__name__, names(unbind), names(unbind.next_functions[0][0]))
h.sum().backward()
print(x.grad)
grads(rnn)

# dropout between layers: the mask drawn from the global generator
torch.manual_seed(4)
rnn = nn.RNN(2, 3, num_layers=2, dropout=0.5).double()
x = torch.randn(3, 2, 2, dtype=torch.float64)
torch.manual_seed(5)
out, h = rnn(x)
print(out)
rnn.eval()
print(rnn(x)[0][-1])

# the cells
torch.manual_seed(6)
for cell in (nn.RNNCell(3, 2), nn.RNNCell(3, 2, nonlinearity='relu'), nn.GRUCell(3, 2), nn.LSTMCell(3, 2)):
    cell = cell.double()
    x = torch.randn(2, 3, dtype=torch.float64)
    y = cell(x)
    y0 = y[0] if isinstance(y, tuple) else y
    print(cell, [n for n, _ in cell.named_parameters()], type(y0.grad_fn).__name__, names(y0.grad_fn))
    y1 = cell(x[0], tuple(t[0] for t in y) if isinstance(y, tuple) else y[0])
    print(type(y1[0] if isinstance(y1, tuple) else y1).__name__, (y1[0] if isinstance(y1, tuple) else y1).shape)
    (y0 * torch.arange(2.0, dtype=torch.float64)).sum().backward()
    grads(cell, 8)
gcell = nn.GRUCell(2, 3)
y = gcell(torch.randn(4, 2))
print(y.grad_fn, names(y.grad_fn), names(y.grad_fn.next_functions[0][0]))
r = y.grad_fn.next_functions[0][0].next_functions[1][0].next_functions[0][0]
print(type(r).__name__, names(r), names(r.next_functions[0][0]))

# shared weights: one module run twice, the hidden state detached between batches
torch.manual_seed(7)
rnn = nn.RNN(2, 2).double()
state = None
for i in range(3):
    x = torch.randn(2, 1, 2, dtype=torch.float64)
    out, state = rnn(x, state)
    out.sum().backward()
    state.detach_()
    print(i, state.requires_grad, state.grad_fn, [round(v, 8) for v in rnn.weight_hh_l0.grad.flatten().tolist()])

# errors
def show(bad):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


rnn, lstm, gru = nn.RNN(4, 3), nn.LSTM(4, 3), nn.GRU(4, 3)
show(lambda: rnn(torch.randn(5, 2, 3)))
show(lambda: rnn(torch.randn(5, 2, 4), torch.randn(1, 3, 3)))
show(lambda: rnn(torch.randn(5, 2, 4), torch.randn(2, 2, 3)))
show(lambda: rnn(torch.randn(5, 2, 4), torch.randn(2, 3)))
show(lambda: rnn(torch.randn(5, 4), torch.randn(1, 1, 3)))
show(lambda: rnn(torch.randn(2, 5, 2, 4)))
show(lambda: rnn(torch.randn(5, 2, 4, dtype=torch.float64)))
show(lambda: rnn(torch.randn(0, 2, 4)))
show(lambda: gru(torch.randn(5)))
show(lambda: gru(torch.randn(5, 2, 4), torch.randn(1, 2, 4)))
show(lambda: lstm(torch.randn(5, 2, 2, 4)))
show(lambda: lstm(torch.randn(5, 2, 4), (torch.zeros(1, 2, 3), torch.zeros(2, 3))))
show(lambda: lstm(torch.randn(5, 4), (torch.zeros(1, 1, 3), torch.zeros(1, 3))))
show(lambda: lstm(torch.randn(5, 2, 4), (torch.zeros(1, 3, 3), torch.zeros(1, 2, 3))))
show(lambda: lstm(torch.randn(5, 2, 4), (torch.zeros(1, 2, 3), torch.zeros(1, 2, 4))))
show(lambda: nn.RNN(4, 3, nonlinearity='sigmoid'))
show(lambda: nn.RNN(4, 3, proj_size=2))
show(lambda: nn.GRU(4, 3, proj_size=2))
show(lambda: nn.RNN(4, 3, dropout=1.5))
show(lambda: nn.RNN(4, 3, dropout=True))
show(lambda: nn.RNN(4, 0))
show(lambda: nn.RNN(0, 3))
show(lambda: nn.RNN(4, 3, num_layers=0))
show(lambda: nn.RNN(4.0, 3))
show(lambda: nn.RNN(4, 3, bias=1))
show(lambda: nn.RNN(4, 3, batch_first=None))
show(lambda: nn.LSTM(4, 3, proj_size=3))
show(lambda: nn.LSTM(4, 3, proj_size=-1))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.GRU(4, 3, dropout=0.2)
print([str(w.message) for w in caught], [w.category.__name__ for w in caught])
cell, lcell = nn.GRUCell(4, 3), nn.LSTMCell(4, 3)
show(lambda: cell(torch.randn(2, 5)))
show(lambda: cell(torch.randn(2, 4), torch.randn(3, 3)))
show(lambda: cell(torch.randn(2, 4), torch.randn(2, 2)))
show(lambda: cell(torch.randn(1, 2, 4)))
show(lambda: cell(torch.randn(2, 4), torch.randn(1, 2, 3)))
show(lambda: lcell(torch.randn(2, 4), (torch.randn(2, 3), torch.randn(2, 2))))
show(lambda: lcell(torch.randn(2, 4), (torch.randn(2, 3), torch.randn(1, 2, 3))))
show(lambda: nn.RNNCell(4, 3, nonlinearity='gelu')(torch.randn(2, 4)))
show(lambda: nn.RNNCell(4, 3)(torch.randn(2, 4), torch.randn(4, 3)))
show(lambda: lcell(torch.randn(2, 4), (torch.randn(2, 3),)))
print([[tuple(w.shape) for w in ws] for ws in nn.LSTM(2, 3, num_layers=2, bidirectional=True).all_weights])
