# &, |, ^, <<, >> and their in-place forms: integer and bool tensors only
# (shifts: integers only), no gradient, in the promoted dtype. A number is cast
# to it as C++ casts (an int8 tensor & 300 reads 300 as 44); a shift past the
# width gives 0 (>> of a negative: -1). Floats have no kernel; in place, the
# result's dtype must be writable into the tensor first.
import operator
import numpy as np
import torch


def attempt(label, fn):
    try:
        r = fn()
        print(label, "->", r)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0] if str(e) else "")


def tensors():
    return {"u8": torch.tensor([200, 3], dtype=torch.uint8), "i64": torch.tensor([-7, 5]),
            "i8": torch.tensor([-128, 127], dtype=torch.int8), "0-d": torch.tensor(5),
            "i32": torch.tensor([3, 4], dtype=torch.int32), "bool": torch.tensor([True, False]),
            "f32": torch.tensor([1.0, 2.0])}


others = {"1": 1, "7": 7, "8": 8, "-1": -1, "63": 63, "64": 64, "300": 300, "1.0": 1.0, "True": True,
          "np.bool_": np.bool_(True), "np.int64": np.int64(3), "u8 t": torch.tensor([1, 9], dtype=torch.uint8),
          "0-d t": torch.tensor(2), "i64 t": torch.tensor([1, 2]), "bool 0-d t": torch.tensor(True),
          "3 elements": torch.tensor([1, 2, 3])}
for op in ("and_", "or_", "xor", "lshift", "rshift", "iand", "ior", "ixor", "ilshift", "irshift"):
    for tn in tensors():
        for on, o in others.items():
            t = tensors()[tn]
            attempt(f"{tn} {op} {on}", lambda: (getattr(operator, op)(t, o), t, t._version))
for op in ("and_", "or_", "xor", "lshift", "rshift"):
    for tn, t in tensors().items():
        attempt(f"2 {op} {tn}", lambda: getattr(operator, op)(2, t))
x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("requires grad & 1", lambda: x & 1)
print(((x > 1) & (x < 3)) | ~(x == 1), (x > 1) ^ True)
