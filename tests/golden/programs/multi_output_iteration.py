# `for row in x` iterates over x.unbind(0): every row is an output of one
# UnbindBackward0 node, as in an RNN's `for X in inputs:` loop.
import torch

inputs = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
W = torch.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
rows = list(inputs)
print(rows)
print(rows[0].grad_fn is rows[2].grad_fn, [r.output_nr for r in rows])
H = torch.zeros(2)
outputs = []
for X in inputs:
    H = torch.tanh(X @ W + H)
    outputs.append(H)
print(H.grad_fn.next_functions)
loss = torch.stack(outputs).sum()
loss.backward()
print(inputs.grad)
print(W.grad)
print([tuple(r.shape) for r in torch.ones(2, 3, 4)], len(list(torch.ones(5, 1))))
# only the last row used: the other slots get zeros
inputs.grad = None
for i, X in enumerate(inputs):
    last = X
(last * 2).sum().backward()
print(inputs.grad)
