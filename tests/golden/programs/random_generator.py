# torch.Generator: streams of their own, generator= on the factories,
# manual_seed returns the default generator, get_state / set_state.
import torch

g = torch.Generator()
print(g, g.initial_seed(), g.device)
print(torch.manual_seed(3) is torch.default_generator, torch.initial_seed())
print(g.manual_seed(5) is g, g.initial_seed())
print(torch.rand(3, generator=g).tolist())
print(torch.randn(3, generator=g).tolist())
print(torch.randn(20, generator=g, dtype=torch.float64).tolist()[:4])
print(torch.randint(0, 10, (5,), generator=g), torch.randint(7, (3,), generator=g))
print(torch.randperm(6, generator=g))
print(torch.normal(0.0, 1.0, (3,), generator=g).tolist())
print(torch.normal(torch.zeros(3), 2.0, generator=g).tolist())
print(torch.normal(1.0, torch.ones(3), generator=g).tolist())
print(torch.normal(torch.zeros(2), torch.ones(2), generator=g).tolist())
# the default generator was not touched: it still gives manual_seed(3)'s numbers
a = torch.rand(2)
torch.manual_seed(3)
print(a.tolist() == torch.rand(2).tolist())
# two generators with one seed give one stream
g1, g2 = torch.Generator().manual_seed(7), torch.Generator().manual_seed(7)
print(torch.rand(4, generator=g1).tolist() == torch.rand(4, generator=g2).tolist())

s = g.get_state()
print(s.dtype, s.shape, s[:32].tolist())
print(s[5024:5056].tolist())
before = torch.randn(5, generator=g).tolist()
g.set_state(s)
print(torch.randn(5, generator=g).tolist() == before)
c = g.clone_state()
print(c is g, torch.rand(2, generator=c).tolist() == torch.rand(2, generator=g).tolist())
torch.manual_seed(0)
torch.rand(700)
state = torch.get_rng_state()
print(state[:24].tolist(), int(state.sum()))
x = torch.rand(1000)
torch.set_rng_state(state)
print(torch.equal(torch.rand(1000), x))
fresh = torch.Generator()
print(fresh.get_state()[:40].tolist())
print(torch.Generator().manual_seed(-1).initial_seed())

for bad in (1.5, "a"):
    try:
        g.manual_seed(bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
for bad in (torch.zeros(10, dtype=torch.uint8), torch.zeros(5056), torch.zeros(5056, dtype=torch.uint8)):
    try:
        g.set_state(bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
try:
    torch.Generator().manual_seed(2**64)
except ValueError as e:
    print("ValueError:", e)
g.set_state([1, 2])
