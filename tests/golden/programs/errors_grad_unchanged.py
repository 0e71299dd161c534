# A failed backward leaves existing .grad untouched.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
attempt("freed graph", lambda: y.backward())
print(x.grad)
v = x * 3
attempt("non-scalar", lambda: v.backward())
attempt("wrong shape", lambda: v.backward(torch.ones(5)))
print(x.grad)
s = x.sigmoid()
s.add_(1)
attempt("modified saved tensor", lambda: (s * s).sum().backward())
print(x.grad)
