# Hooks on graph nodes: grad_fn.register_prehook sees (and may replace) the
# gradient coming into a node, grad_fn.register_hook what it received and
# what it sends on; their order against tensor hooks and retain_grad; on
# AccumulateGrad; under autograd.grad and create_graph; and PyTorch's errors.
import torch
def attempt(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
log = []
h1 = y.grad_fn.register_prehook(lambda go: log.append(('pre', go)))
h2 = y.grad_fn.register_hook(lambda gi, go: log.append(('post', gi, go)))
y.register_hook(lambda g: log.append(('tensor', g)))
y.retain_grad()
y.sum().backward(retain_graph=True)
for e in log: print(e)
print(x.grad, w.grad, y.grad)
h1.remove(); h2.remove(); log.clear()
h3 = y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
h4 = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 2, None))
x.grad = w.grad = y.grad = None
y.sum().backward(retain_graph=True); print(x.grad, w.grad, y.grad, log)
h3.remove(); h4.remove()
h5 = y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
attempt(lambda: y.sum().backward(retain_graph=True))
h5.remove()
h6 = y.grad_fn.register_hook(lambda gi, go: (gi[0],))
attempt(lambda: y.sum().backward(retain_graph=True))
h6.remove()
h7 = y.grad_fn.register_prehook(lambda go: go[0])
attempt(lambda: y.sum().backward(retain_graph=True))
h7.remove()
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print('acc pre', go))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
x.grad = None; y.sum().backward(retain_graph=True); print(x.grad)
z = x * 2
z.grad_fn.register_hook(lambda gi, go: print('z post', gi, go))
z.sum().backward()
g = torch.autograd.grad((x * x).sum(), x, create_graph=True)[0]
g.grad_fn.register_hook(lambda gi, go: print('cg', [t.requires_grad if t is not None else None for t in gi], go[0].requires_grad))
g.sum().backward()
x2 = torch.ones(2, requires_grad=True)
q = x2 * 3
q.grad_fn.register_prehook(lambda go: print('pre with autograd.grad', go))
print(torch.autograd.grad(q.sum(), x2))
