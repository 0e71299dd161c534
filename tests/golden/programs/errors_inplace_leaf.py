# In-place ops on a leaf that requires grad are refused (outside no_grad).
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

def add_assign():
    global w
    w += 1

w = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("add_", lambda: w.add_(1))
attempt("zero_", lambda: w.zero_())
attempt("mul_", lambda: w.mul_(2))
attempt("+=", add_assign)
attempt("item assign", lambda: w.__setitem__(0, 5.0))
print(w, w._version)
