"""Tiny matrix products, forward and backward, whose bits are compared with PyTorch's.

Shared by scripts/record_small_mm_goldens.py (real PyTorch writes
tests/golden/small_mm.json) and tests/test_small_mm_bits.py (autograd_teach),
so both run the very same program, ``run_case(torch, case, arrays)``:

    x @ w, then backward(g), with x, w and g in the layouts the case names
    (row-major, a transpose's view, every other column of a wider leaf),

and report the product, both leaves' gradients, and the two products the
backward makes (g @ w.t() and x.t() @ g) computed alone. The inputs (K up
to 3 and small outputs, where PyTorch runs its own loop, and the shapes
around them: K = 0, 1, 4, 5 and the 4 x 12 outputs where MKL's gemm takes
over) are made once by the recorder and stored in the golden.
"""

from __future__ import annotations

import numpy as np

FLOATS = ("float32", "float64")
# (m, k, n): x is m x k, w is k x n
SHAPES = [(2, 2, 2), (1, 2, 1), (1, 2, 5), (5, 2, 1), (3, 3, 3), (1, 3, 7), (7, 3, 1), (2, 3, 11), (3, 2, 12),
          (4, 2, 11), (4, 2, 12), (4, 3, 12), (2, 1, 2), (1, 1, 3), (3, 1, 1), (1, 1, 1), (4, 1, 12), (0, 2, 3),
          (2, 0, 3), (2, 2, 0), (0, 1, 2), (2, 4, 2), (3, 5, 2)]
# x's, w's and g's layout: c row-major, t the .t() of a leaf stored the other way, s leaf[:, ::2]
LAYOUTS = ["tcc", "ctc", "cct", "ccc", "ttt", "sss"]


def make_arrays(rng, dtype, shape, values):
    """x, w, g (each as its leaf's data: shape (m, k), (k, n), (m, n)) of one kind of values.

    special: 0, -0, inf, nan, huge, tiny, denormal; cancel: rows whose
    products cancel, where a fused multiply-add keeps what an unfused one
    rounds away; denormal: products below float32's normal range."""
    m, k, n = shape
    real = np.dtype(dtype).kind == "f"
    if not real:
        x, w, g = (rng.integers(-50, 50, size=s) for s in ((m, k), (k, n), (m, n)))
        return [a.astype(dtype) for a in (x, w, g)]
    tiny = float(np.finfo(np.float32).smallest_subnormal)
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0, 3e38, -3e38, 1e-30, tiny, -tiny, 1e-38,
                        0.1, 1 / 3, 2.5], dtype)
    x, w, g = (rng.standard_normal(s).astype(dtype) for s in ((m, k), (k, n), (m, n)))
    if values == "special":
        x, w = rng.choice(special, size=(m, k)), rng.choice(special, size=(k, n))
    elif values == "cancel" and k >= 2 and n >= 1:
        # x[:, 1] * w[1] = -(x[:, 0] * w[0] rounded): the sum is 0 unfused, the rounding error fused
        x = (rng.standard_normal((m, k)) * rng.choice([1.0, 1e3, 1e-3], size=(m, k))).astype(dtype)
        w[1] = 1.0
        x[:, 1] = -(x[:, 0] * w[0, 0])      # (column 0 of the product)
    elif values == "denormal":
        x, w = x * 1e-20, w * 1e-20
    return [np.asarray(a, dtype) for a in (x, w, g)]


def leaf_data(a, layout):
    """The leaf's data from which `layout` makes a view equal to a."""
    if layout == "t":
        return np.ascontiguousarray(a.T)
    if layout == "s":
        wide = np.zeros((a.shape[0], 2 * a.shape[1]), a.dtype)
        wide[:, ::2] = a
        return wide
    return a


def view(t, layout):
    """The view of leaf tensor (or numpy array) t that `layout` names."""
    if layout == "t":
        return t.T if isinstance(t, np.ndarray) else t.t()
    if layout == "s":
        return t[:, ::2]
    return t


def cases():
    """(dtype, (m, k, n), layouts, values) for every case, in the golden's order:
    float32 in every layout, the rarer kinds of values and the other dtypes in
    two (all row-major; all transposed)."""
    out = []
    for shape in SHAPES:
        big = shape[0] * shape[2] >= 24    # (the 4 x 12 outputs: three layouts are enough)
        for layouts in LAYOUTS[3:] if big else LAYOUTS:
            out += [("float32", shape, layouts, "normal"), ("float32", shape, layouts, "special")]
        for layouts in ("ccc", "ttt"):
            out += [("float32", shape, layouts, "cancel"), ("float32", shape, layouts, "denormal")]
            out += [("float64", shape, layouts, values) for values in ("normal", "special", "cancel")]
            out += [(dtype, shape, layouts, "normal") for dtype in ("int64", "int32")]
    return out


def run_case(torch, case, arrays):
    """The program: {name: numpy array} of out, the leaves' gradients (floats),
    g @ w.t() and x.t() @ g."""
    dtype, _, layouts, _ = case
    grads = dtype in FLOATS
    leaves = [torch.from_numpy(leaf_data(a, lay).copy()) for a, lay in zip(arrays, layouts)]
    x_leaf, w_leaf = (t.requires_grad_(grads) for t in leaves[:2])
    x, w, g = (view(t, lay) for t, lay in zip((x_leaf, w_leaf, leaves[2]), layouts))
    out = {"out": x @ w}
    if grads:
        out["out"].backward(g)
        out["x.grad"], out["w.grad"] = x_leaf.grad, w_leaf.grad
    with torch.no_grad():
        out["g @ w.t()"], out["x.t() @ g"] = g @ w.t(), x.t() @ g
    return {k: v.detach().numpy().copy() for k, v in out.items()}


def encode(a):
    """An array's bytes (little-endian) as hex, with its dtype and shape."""
    a = np.ascontiguousarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "hex": a.astype(a.dtype.newbyteorder("<")).tobytes().hex()}


def decode(d):
    dt = np.dtype(d["dtype"]).newbyteorder("<")
    return np.frombuffer(bytes.fromhex(d["hex"]), dtype=dt).astype(np.dtype(d["dtype"])).reshape(d["shape"])


def same_bits(a, b):
    """The very same dtype, shape and bits, except that any NaN matches any NaN:
    a NaN's sign comes from which operand x86 hands on when two NaNs meet,
    which the C compiler picks (both print nan)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind != "f":
        return a.tobytes() == b.tobytes()
    bits = np.dtype(f"u{a.dtype.itemsize}")
    return bool(((a.view(bits) == b.view(bits)) | (np.isnan(a) & np.isnan(b))).all())
