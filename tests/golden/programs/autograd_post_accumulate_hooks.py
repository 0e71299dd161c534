# Tensor.register_post_accumulate_grad_hook: runs after .grad is updated (how
# an optimizer step can run inside backward), not for autograd.grad.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
h = x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
(x * 3).sum().backward()
(x * x).sum().backward()
print(seen, x.grad)
torch.autograd.grad((x * 3).sum(), x)          # autograd.grad accumulates nothing: no call
print(len(seen))
h.remove()
(x * 3).sum().backward()
print(len(seen), x.grad)

z = torch.tensor([1.0], requires_grad=True)


def sgd_in_backward(p):                        # update the parameter as soon as its gradient is ready
    with torch.no_grad():
        p -= 0.1 * p.grad
    p.grad = None


z.register_post_accumulate_grad_hook(sgd_in_backward)
for _ in range(3):
    (z * z).sum().backward()
    print(z, z.grad)

attempt("on a non-leaf", lambda: (x * 2).register_post_accumulate_grad_hook(lambda p: None))
attempt("on a tensor without grad", lambda: torch.ones(2).register_post_accumulate_grad_hook(lambda p: None))
