# x.add(array), torch.add(x, array), x.pow([1, 2]): the named methods and
# functions take a tensor or a number, never a numpy array or a list (only the
# operators, x + array, let numpy compute). PyTorch's argument parser says so:
# naming the argument when one overload fits the number of arguments, else
# listing every overload, with what did not match in those of that length.
import numpy as np
import torch


def attempt(label, fn):
    try:
        r = fn()
        print(label, "->", type(r).__name__, r)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":")
        print(str(e))


x = torch.tensor([1.5, -2.0])
values = {"f64": np.array([1.0, 2.0]), "0-d": np.array(2.0), "i64": np.array([1, 2]), "empty": np.zeros(0),
          "list": [1.0, 2], "tuple": (1, 2), "None": None, "str": "s"}
METHODS = ("add", "sub", "mul", "div", "true_divide", "pow", "subtract", "multiply", "divide", "floor_divide",
           "remainder", "fmod", "eq", "ne", "lt", "le", "gt", "ge", "clamp_min", "clamp_max", "atan2", "maximum",
           "minimum")
INPLACE = ("add_", "sub_", "mul_", "div_", "true_divide_", "pow_", "subtract_", "multiply_", "divide_",
           "floor_divide_", "remainder_", "fmod_", "clamp_min_", "clamp_max_", "atan2_", "arctan2_", "copy_")
for m in METHODS + INPLACE:
    for vn, v in values.items():
        attempt(f"x.{m}({vn})", lambda: getattr(x, m)(v))
print(x, x._version)        # the in-place ones refused before writing anything
FUNCTIONS = ("add", "sub", "mul", "div", "true_divide", "pow", "subtract", "multiply", "divide")
for f in FUNCTIONS:
    for vn in ("f64", "list", "None"):
        attempt(f"torch.{f}(x, {vn})", lambda: getattr(torch, f)(x, values[vn]))
        attempt(f"torch.{f}({vn}, x)", lambda: getattr(torch, f)(values[vn], x))
    attempt(f"torch.{f}(f64, 2)", lambda: getattr(torch, f)(values["f64"], 2))
    attempt(f"torch.{f}(x, 2)", lambda: getattr(torch, f)(x, 2))
    attempt(f"torch.{f}(x, np.float32)", lambda: getattr(torch, f)(x, np.float32(2)))
attempt("torch.pow(2, x)", lambda: torch.pow(2, x))
attempt("torch.pow(2.5, x)", lambda: torch.pow(2.5, x))
attempt("x.add(f64, alpha=2)", lambda: x.add(values["f64"], alpha=2))
attempt("x.sub_(list, alpha=2)", lambda: x.sub_(values["list"], alpha=2))
# numbers and 0-d tensors still work, numpy's scalars among the numbers; the graph is PyTorch's
w = torch.tensor([1.5, -2.0], requires_grad=True)
y = w.add(np.float64(1)).mul(np.int64(2)).div(torch.tensor(4.0)).pow(np.float32(2)).true_divide(3).subtract(1)
print(y, y.grad_fn.name(), [n[0].name() for n in y.grad_fn.next_functions if n[0]])
y.sum().backward()
print(w.grad)
# x == array still reads the array as a tensor (PyTorch's __eq__), x.eq(array) does not
print(x == values["f64"], x == values["0-d"])
