# The first line of PyTorch's error for common slips.
import numpy as np
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


m = torch.ones(2, 3)
attempt("m[1, 3]", lambda: m[1, 3])
attempt("m[2]", lambda: m[2])
attempt("m[:, -4]", lambda: m[:, -4])
attempt("m[0, 0, 0]", lambda: m[0, 0, 0])
attempt("m.permute(0, 0)", lambda: m.permute(0, 0))
attempt("m.permute(1, 1)", lambda: m.permute(1, 1))
attempt("m.permute(0)", lambda: m.permute(0))
attempt("m.permute(0, 2)", lambda: m.permute(0, 2))
attempt("tensor(str array)", lambda: torch.tensor(np.array(["a"])))
attempt("from_numpy(str array)", lambda: torch.from_numpy(np.array(["a", "b"])))
attempt("as_tensor(str array)", lambda: torch.as_tensor(np.array(["a"])))
attempt("tensor(object array)", lambda: torch.tensor(np.array([None, 1])))
