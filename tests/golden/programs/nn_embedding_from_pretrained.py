# nn.Embedding.from_pretrained: a given table, frozen by default, shared with the tensor given.
import torch

w = torch.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
e = torch.nn.Embedding.from_pretrained(w)
print(e, e.weight, e.weight.requires_grad, e.weight.data_ptr() == w.data_ptr())
print(e(torch.tensor([2, 0])), e(torch.tensor([2, 0])).requires_grad)
e2 = torch.nn.Embedding.from_pretrained(w, freeze=False, padding_idx=1)
print(e2, e2.weight.requires_grad, e2.padding_idx, e2.weight[1])
y = e2(torch.tensor([1, 2, 1])).sum()
y.backward()
print(e2.weight.grad)
w[0, 0] = 10.0                     # shared: the module sees it
print(e.weight[0])
print(list(dict(e2.named_parameters())))
try:
    torch.nn.Embedding.from_pretrained(torch.ones(3))
except AssertionError as ex:
    print("AssertionError:", ex)
