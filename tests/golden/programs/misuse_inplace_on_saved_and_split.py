# In-place ops PyTorch refuses inside a graph: on a tensor a node saved as its
# output (sigmoid_, exp_, cumprod, sgn...), and on the base of split/chunk/unbind
# outputs (or on those outputs, or on views of them).
import torch
import torch.nn.functional as F


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


# -- an in-place unary op, then another in-place op on its output --------------
INPLACE = ["sigmoid_", "tanh_", "exp_", "sqrt_", "reciprocal_", "relu_", "log_", "abs_", "neg_", "sin_", "cos_",
           "square_", "rsqrt_", "expm1_", "log1p_", "exp2_", "sign_", "sgn_", "floor_", "ceil_", "round_", "trunc_",
           "frac_", "erf_", "atan_", "asin_", "acos_", "sinh_", "cosh_", "log2_", "log10_", "tan_"]
for name in INPLACE:
    for where in ("self", "view"):
        def f():
            x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True)
            y = x * 1
            z = getattr(y if where == "self" else y[:2], name)()
            z.mul_(2)
            y.sum().backward()
            return x.grad
        attempt(f"{name} on {where}, then mul_", f)


def saved_with_hooks():
    x = torch.tensor([0.2, 0.5], requires_grad=True)
    y = x * 1
    y.exp_()
    g = y.grad_fn
    return type(g).__name__, g._saved_result is y, g._saved_result._version


attempt("exp_'s saved result is the tensor itself", saved_with_hooks)

# -- an out-of-place op whose node saves its output, then an in-place op on it --
OUT = {"sigmoid": lambda v: v.sigmoid(), "tanh": lambda v: v.tanh(), "exp": lambda v: v.exp(),
       "sqrt": lambda v: v.sqrt(), "relu": lambda v: v.relu(), "cumprod": lambda v: v.cumprod(1),
       "sgn": lambda v: v.sgn(), "softmax": lambda v: v.softmax(1), "log_softmax": lambda v: v.log_softmax(1),
       "rsqrt": lambda v: v.rsqrt(), "reciprocal": lambda v: v.reciprocal(), "exp2": lambda v: v.exp2(),
       "expm1": lambda v: v.expm1(), "prod": lambda v: v.prod(), "logsumexp": lambda v: v.logsumexp(1),
       "norm": lambda v: v.norm(), "max": lambda v: v.max(), "min": lambda v: v.min(), "std": lambda v: v.std(),
       "median": lambda v: v.median(), "amax": lambda v: v.amax(1), "tan": lambda v: v.tan(),
       "elu": lambda v: F.elu(v), "hardsigmoid": lambda v: F.hardsigmoid(v), "selu": lambda v: F.selu(v),
       "leaky_relu": lambda v: F.leaky_relu(v), "cumsum": lambda v: v.cumsum(1), "sort": lambda v: v.sort(1)[0],
       "topk": lambda v: v.topk(2)[0], "pow 2": lambda v: v ** 2, "atan": lambda v: v.atan(),
       "erf": lambda v: v.erf(), "var": lambda v: v.var(), "mean": lambda v: v.mean()}
for name, fn in OUT.items():
    def g():
        x = torch.tensor([[0.2, 0.5, 0.7]], requires_grad=True)
        z = fn(x)
        z.add_(1)
        z.sum().backward()
        return x.grad
    attempt(f"{name} then add_", g)


# -- split / chunk / unbind, then an in-place op ------------------------------
def parts_of(b, how):
    return {"split": lambda: b.split(2), "chunk": lambda: b.chunk(2), "unbind": lambda: b.unbind(),
            "split sizes": lambda: b.split([1, 3]), "tensor_split": lambda: b.tensor_split(2)}[how]()


for how in ("split", "chunk", "unbind", "split sizes", "tensor_split"):
    def base_then_use():
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        b = x * 1
        parts = parts_of(b, how)
        b.mul_(2)
        print("  repr:", parts[0], "requires_grad:", parts[1].requires_grad)
        with torch.no_grad():
            print("  under no_grad:", parts[0] * 1)
        return parts[0] + 1

    def base_then_backward():
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        b = x * 1
        parts = parts_of(b, how)
        b.mul_(2)
        parts[0].sum().backward()
        return x.grad

    def output_in_place(k):
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        parts = parts_of(x * 1, how)
        parts[k].mul_(2)
        return parts[k]

    def output_in_place_no_grad():
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        parts = parts_of(x * 1, how)
        with torch.no_grad():
            parts[0].mul_(2)
        return parts[0]

    def view_of_output_in_place():
        x = torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], requires_grad=True)
        parts = parts_of(x * 1, how)
        v = parts[0][:1]
        v.mul_(2)
        return v

    def leaf_output_in_place():
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        parts_of(x, how)[0].mul_(2)

    def leaf_base_no_grad():
        w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        parts = parts_of(w, how)
        with torch.no_grad():
            w.mul_(2)
        print("  repr:", parts[0])
        return (parts[0] * 1).grad_fn

    def another_view_in_place():
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        b = x * 1
        parts = parts_of(b, how)
        b[0].mul_(2)
        return parts[0].grad_fn

    def setitem_on_base():
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        b = x * 1
        parts = parts_of(b, how)
        b[0] = 5
        return parts[-1].is_leaf

    def no_history():
        b = torch.tensor([1., 2., 3., 4.])
        parts = parts_of(b, how)
        parts[0].mul_(2)
        b.mul_(2)
        return parts[0], parts[0].grad_fn

    attempt(f"{how}: base mul_, then use an output", base_then_use)
    attempt(f"{how}: base mul_, then backward", base_then_backward)
    attempt(f"{how}: output 0 mul_", lambda: output_in_place(0))
    attempt(f"{how}: output 1 mul_", lambda: output_in_place(1))
    attempt(f"{how}: output mul_ under no_grad", output_in_place_no_grad)
    attempt(f"{how}: view of an output mul_", view_of_output_in_place)
    attempt(f"{how}: output of a leaf mul_", leaf_output_in_place)
    attempt(f"{how}: leaf base changed under no_grad", leaf_base_no_grad)
    attempt(f"{how}: another view of the base mul_", another_view_in_place)
    attempt(f"{how}: b[0] = 5", setitem_on_base)
    attempt(f"{how}: no history", no_history)
