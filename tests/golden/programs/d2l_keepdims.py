# zh.d2l.ai 2.3 (linear algebra, pytorch tab): numpy's names keepdims= and
# axis=, which PyTorch's argument parser accepts for keepdim= and dim=, in the
# reductions and their function forms; both spellings at once is a TypeError.
import torch

A = torch.arange(20, dtype=torch.float32).reshape(5, 4)
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A)
print(A / sum_A)
print(torch.sum(A, axis=0, keepdims=True), torch.mean(A, 1, keepdims=True))
print(A.mean(axis=0, keepdims=True).shape, A.prod(axis=1, keepdims=True))
print(A.max(axis=1, keepdims=True))
print(A.min(1, keepdims=False).values, A.argmax(axis=0, keepdims=True), A.argmin(1, keepdims=True))
print(A.var(axis=1, keepdims=True), A.std(0, keepdims=True))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = (x / x.sum(axis=1, keepdims=True)).max(axis=0, keepdims=True).values
print(y)
y.sum().backward()
print(x.grad)
try:
    A.sum(1, keepdim=True, keepdims=True)
except TypeError as e:
    print(type(e).__name__, e)
try:
    A.sum(dim=0, axis=1)
except TypeError as e:
    print(type(e).__name__, e)
