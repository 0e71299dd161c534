# Inference tensors: made under inference_mode, they cannot be saved for
# backward nor changed in place outside it.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


with torch.inference_mode():
    it = torch.ones(2)
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled(), it.is_inference())
    with torch.inference_mode(False):
        print("inference_mode(False):", torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    with torch.enable_grad():
        print("enable_grad inside:", torch.is_grad_enabled(), torch.is_inference_mode_enabled())
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
print(it, it.requires_grad, torch.ones(2).is_inference(), it[:1].is_inference())
a = torch.ones(2, requires_grad=True)
attempt("a * it (saved for backward)", lambda: a * it)
attempt("a + it (nothing saved)", lambda: a + it)
attempt("it * 2", lambda: it * 2)
attempt("(it * 2).is_inference()", lambda: (it * 2).is_inference())
attempt("a.exp() * it", lambda: a.exp() * it)


def update():
    it.add_(1)
    return it


def update_inside():
    # a fresh one: PyTorch refuses the update outside only after it has
    # written it, which is no part of the lesson
    it2 = torch.inference_mode()(torch.ones)(2)
    with torch.inference_mode():
        it2.add_(1)
    return it2, it2.is_inference()


attempt("it.add_(1) outside", update)
attempt("it.add_(1) inside", update_inside)
attempt("it.requires_grad_()", lambda: it.requires_grad_())
attempt("it.clone().requires_grad_()", lambda: (it.clone() * 0).requires_grad_())
with torch.no_grad():
    print("no_grad:", torch.is_inference_mode_enabled())


@torch.inference_mode()
def predict(t):
    return t * 2


p = predict(a)
print(p, p.requires_grad, p.is_inference())
