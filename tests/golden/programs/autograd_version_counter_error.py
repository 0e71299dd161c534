# Modifying a tensor saved for backward is caught by the version counter.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = y * y          # saves y
y.add_(1)
attempt("saved non-leaf modified", lambda: z.sum().backward())

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.exp()        # saves its output
b.detach().zero_()
print(b._version)
attempt("saved output modified via detach", lambda: b.sum().backward())

w = torch.tensor([1.0, 2.0], requires_grad=True)
v = w * w          # saves the leaf w
with torch.no_grad():
    w.add_(1)
attempt("saved leaf modified", lambda: v.sum().backward())
print(w.grad)
