# fwAD.unpack_dual outside a dual level (or at a negative level) has nothing
# to unpack: it hands its argument back as it is, tensor or not, with no view
# made. At a level (entered or merely named) it wants a tensor, and makes the
# primal a view, named Identity in PyTorch's C++ namespace.
import torch
import torch.autograd.forward_ad as fwAD
def attempt(name, f):
    try: print(name, f())
    except Exception as e: print(name, type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
for other in (3, 2.5, True, [1, 2], None, "ab", torch.tensor(1), x, torch.empty(0)):
    kind = type(other).__name__
    attempt(f"outside {kind}", lambda: fwAD.unpack_dual(other))
    attempt(f"outside {kind} is itself", lambda: fwAD.unpack_dual(other).primal is other)
    attempt(f"outside level=0 {kind}", lambda: fwAD.unpack_dual(other, level=0))
    attempt(f"outside level=-2 {kind}", lambda: fwAD.unpack_dual(other, level=-2).primal is other)
r = fwAD.unpack_dual(x, level=0)
print(r.primal is x, r.primal._base is x, r.primal.grad_fn.name(), r.primal.requires_grad)
with fwAD.dual_level():
    for other in (3, None, [1.0], x):
        kind = type(other).__name__
        attempt(f"inside {kind}", lambda: fwAD.unpack_dual(other))
        attempt(f"inside level=-1 {kind}", lambda: fwAD.unpack_dual(other, level=-1).primal is other)
        attempt(f"inside level=5 {kind}", lambda: fwAD.unpack_dual(other, level=5))
    d = fwAD.make_dual(x, torch.ones(2))
    attempt("dual level=5", lambda: fwAD.unpack_dual(d, level=5))
    attempt("dual level=-1", lambda: fwAD.unpack_dual(d, level=-1).primal is d)
    p, t = fwAD.unpack_dual(d)
    print(p, t, p.grad_fn.name())
print(fwAD.unpack_dual(d).primal is d, fwAD.unpack_dual(d, level=0).tangent)
with torch.no_grad():
    print(fwAD.unpack_dual(x, level=0).primal.requires_grad, fwAD.unpack_dual(7))
