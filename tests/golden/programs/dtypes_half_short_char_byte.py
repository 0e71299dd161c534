# .half() is a float16 copy (ToCopyBackward0 when it requires grad, the tensor
# itself when already float16), as .float() and .double(); .short(), .char()
# and .byte() cast to int16, int8 and uint8 and cut the graph, as .long().
import torch
print(torch.half, torch.float16, torch.half is torch.float16)
x = torch.tensor([1.5, -2.25, 70000.0, float('nan'), float('-inf'), 1e-8], requires_grad=True)
h = x.half()
print(h, h.grad_fn, h.requires_grad, h.is_leaf, h.half() is h, h.type())
(h * torch.arange(6.0).half()).sum().backward()
print(x.grad)
d = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(d.half(), d.half().grad_fn.next_functions, d.half().float() * 2)
print(torch.tensor(3).half(), torch.tensor([True, False]).half(), torch.empty(0, 2).half())
print(torch.tensor([1, 70000]).half(), torch.tensor(2.5, dtype=torch.float64).half())
with torch.no_grad():
    print(x.half())
print(x.to(torch.half), x.type(torch.half), x.half().float())
for name in ("short", "char", "byte"):
    r = getattr(x.detach()[:3], name)()
    print(name, r, getattr(x, name)().requires_grad, getattr(r, name)() is r)
