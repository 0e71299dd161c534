# nan_to_num: NaN -> 0, inf -> the dtype's largest finite value, -inf -> its
# lowest (or the numbers given); NanToNumBackward0 passes the gradient where
# the input was finite (grad * isfinite(self)), in place too.
import torch
def attempt(name, f):
    try: print(name, f())
    except Exception as e: print(name, type(e).__name__, e)
nan, inf = float('nan'), float('inf')
x = torch.tensor([1.5, nan, inf, -inf, -0.0], requires_grad=True)
y = x.nan_to_num()
print(y, y.grad_fn, y.grad_fn._saved_self)
print(torch.nan_to_num(x, nan=2.0, posinf=3, neginf=-4), torch.nan_to_num(x, 2.0, 3.0, -4.0))
y.backward(torch.tensor([1., 2., 3., -4., 5.]))
print(x.grad)
for dt in (torch.float16, torch.float64, torch.int64, torch.uint8, torch.bool):
    t = torch.tensor([1, 0, 2]).to(dt)
    print(dt, torch.nan_to_num(t), torch.nan_to_num(t, nan=5.7, posinf=1e10))
    if dt.is_floating_point:
        t = torch.tensor([nan, inf, -inf], dtype=dt)
        print(torch.nan_to_num(t), torch.nan_to_num(t, posinf=1e300, neginf=-1e300, nan=1e300))
        print(t.nan_to_num(nan=1e-8, posinf=65519.0, neginf=2049.0000001))
print(torch.nan_to_num(torch.tensor(nan)), torch.nan_to_num(torch.empty(0, 3)))
a = torch.tensor([nan, 1.0], requires_grad=True)
attempt('leaf nan_to_num_', lambda: a.nan_to_num_())
b = a * 1
print(b.nan_to_num_(nan=7.0) is b, b, b._version)
b.sum().backward()
print(a.grad)
with torch.no_grad():
    print(a.nan_to_num(), a.nan_to_num_(), a)
i = torch.tensor([1, 2])
print(i.nan_to_num_() is i, i._version, torch.nan_to_num(i) is i)
v = torch.tensor([nan, 2.], requires_grad=True).clone()
v[:1].nan_to_num_()
print(v)
attempt('nan str', lambda: torch.nan_to_num(x, nan='a'))
attempt('posinf 2 elements', lambda: x.nan_to_num(posinf=torch.tensor([1., 2.])))
attempt('nan requires grad', lambda: x.nan_to_num(nan=torch.tensor(1., requires_grad=True)))
attempt('nan 0-d', lambda: x.nan_to_num(nan=torch.tensor(1)))
attempt('nan_to_num_ str', lambda: x.detach().nan_to_num_(neginf='a'))
attempt('list', lambda: torch.nan_to_num([1.0]))
attempt('huge', lambda: x.nan_to_num(nan=10 ** 400))
d = torch.tensor([1.0, nan, inf], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad((d.nan_to_num() ** 2).sum(), d, create_graph=True)
print(g)
print(torch.autograd.grad(x.nan_to_num().sum(), x, torch.tensor(nan)))
