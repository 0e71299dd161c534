"""Record what real PyTorch prints, as goldens for autograd_teach.compat.printing.

Run from the repo root with the pinned oracle (torch==2.13.0):

    /work/oracle-venv/bin/python scripts/record_printing_goldens.py

Writes tests/golden/printing.json: a list of cases, one per line, each

    {"dtype": "float32", "shape": [2, 3], "values": [...], "suffixes": [...],
     "printoptions": {...} or null, "expected": "<repr(tensor)>"}

"values" is the tensor flattened in row-major order. Floats are stored as the
``repr`` of the value as a Python float ("0.10000000149011612", "-0.0", "nan",
"inf", ...): float16 and float32 values are exact doubles and ``repr``
round-trips doubles, so ``float(s)`` gives every input back bit for bit. Ints
and bools are stored as JSON ints and bools. The corpus is seeded, so
re-running gives the same file.
"""

import json
import math
import pathlib

import numpy as np
import torch

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "printing.json"

FLOATS = ["float32", "float64", "float16"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]
NAN, INF = math.nan, math.inf

# Each case: (values, dtype, grad, printoptions). `grad` says how the tensor
# gets its autograd suffix: None, "leaf" (requires_grad=True), "mul" (t * 1,
# grad_fn=<MulBackward0>), "sum" (t.sum()) or any other string, used as the
# name of a custom autograd.Function (grad_fn=<NameBackward>) to test wrapping.
CASES = []


def case(values, dtype="float32", grad=None, printoptions=None):
    with np.errstate(over="ignore"):  # e.g. 1e8 becomes inf in float16, as intended
        CASES.append((np.asarray(values).astype(dtype), dtype, grad, printoptions))


def hand_picked():
    # 0-d scalars, including the ones tutorials print.
    for v in [2.0, 28.0, 1 / 3, 0.1, 0.0, -0.0, -2.5, NAN, INF, -INF, 1e8, 1.5e8,
              1e9, 1e-4, 1e-5, 123456.789, 3.14159265, 1e-45, 65504.0, -1e20]:
        for dtype in FLOATS:
            case(v, dtype)
    for v in [5, -5, 0, 2**31 - 1, -(2**63), 2**63 - 1]:
        case(v, "int64")
    for v in [True, False]:
        case(v, "bool")
    case(7, "int32")
    case(255, "uint8")
    case(2.0, grad="leaf")
    case(2.0, "float64", grad="leaf")
    case([1.0, 2.0, 3.0], grad="sum")
    case([1.0, 2.0, 4.0], "float64", grad="sum")

    # Vectors: int mode, fixed point, and the sci-mode boundaries.
    vectors = [
        [1.0, 2.0, 3.0], [0.1, 0.2, 0.3], [1.0, 1000.0], [1.0, 1001.0],
        [0.001, 1.0], [0.0011, 1.0], [1e8], [1e8, 1.0], [100000001.0],
        [1e-4], [1.0001e-4], [9.9999e-5], [1.5, 1500.0], [1.0, -1.0, 0.5],
        [1e-10, 1e10], [-1e-3, 2e-3], [123456.0], [12345.678], [0.99999, 1.00001],
        [NAN, 1.0, 2.0], [INF, -INF, NAN], [NAN], [INF], [1.5, NAN], [-0.0, 0.0],
        [-0.0, 1.5], [-0.0, 1.0], [1e10, NAN, -INF], [0.0, 0.0, 0.0], [1e300, 1e-300],
        [2.0**-130], [1e-45, 1.0], [-1.0, -22.5, 333.125], [0.5, 0.25, 0.125],
        [99999.99999], [9.99995], [0.00005, 0.00015, 0.00025],
    ]
    for v in vectors:
        for dtype in FLOATS:
            case(v, dtype)

    for dtype in INTS:
        case([1, -22, 111] if dtype != "uint8" else [1, 22, 111], dtype)
    case([2**63 - 1, -(2**63), 0], "int64")
    case([-128, 127, 0], "int8")
    case([True, False, True], "bool")
    case([[True], [False]], "bool")

    # Matrices and higher: alignment and blank lines between blocks.
    case([[1.0, 2.0], [3.0, 4.0]])
    case([[1.0, -2.5], [30.25, 4.0]], "float64")
    case([[1], [22], [-333]], "int64")
    case([[1e-5, 1.0], [2.0, 3.0]])
    case(np.arange(8.0).reshape(2, 2, 2))
    case(np.arange(16).reshape(2, 2, 2, 2), "int64")
    case(np.arange(32.0).reshape(2, 2, 2, 2, 2) / 3, "float64")
    case([[[[1.5]]]])

    # Empty tensors: size= unless (0,), dtype= unless float32.
    for shape in [(0,), (0, 3), (3, 0), (2, 0, 4), (1, 0)]:
        for dtype in ["float32", "float64", "int64", "bool", "int32"]:
            case(np.zeros(shape), dtype)
    case(np.zeros((0,)), grad="leaf")
    case(np.zeros((0, 3)), "float64", grad="mul")

    # Long rows wrap at linewidth.
    case(np.arange(30.0))
    case(np.arange(100), "int64")
    case(np.arange(30.0) / 7, "float64")
    case(np.arange(60.0).reshape(2, 30) * 1e5)
    case(np.arange(40, dtype=float) % 2 == 0, "bool")

    # Summarization past 1000 elements, with the default options.
    case(np.arange(1001.0))
    case(np.arange(2000), "int64")
    case(np.arange(2000.0).reshape(40, 50) / 3)
    case(np.arange(1210).reshape(10, 11, 11), "int32")
    case(np.arange(1100.0).reshape(2, 550), "float64")
    case(np.arange(1100.0).reshape(550, 2) * 1e-6)
    case(np.arange(1001.0), grad="mul")
    # Hidden elements must not affect the style or width of the shown ones.
    hidden = np.ones(1001)
    hidden[500] = 1e10
    case(hidden)
    hidden = np.ones((40, 50))
    hidden[20, 25] = 0.5
    case(hidden)
    hidden = np.full((20, 60), 7)
    hidden[10, 30] = -123456
    case(hidden, "int64")

    # Autograd suffixes, and their wrapping onto a new line.
    case([[1.0, 2.0], [3.0, 4.0]], grad="leaf")
    case([[1.0, 2.0], [3.0, 4.0]], grad="mul")
    case(np.arange(12.0).reshape(3, 4), "float64", grad="mul")
    case(np.arange(17.0) / 3, grad="leaf")
    case(np.arange(17.0) / 3, "float64", grad="leaf")
    case(np.arange(9.0), "float64", grad="AVeryLongCustomFunctionNameToForceWrapping")
    case([1.0], "float16", grad="AVeryLongCustomFunctionNameToForceWrappingOfTheSuffix")
    case(np.arange(10.0), grad="Exp")

    # Print options.
    opts = [
        {"precision": 2}, {"precision": 0}, {"precision": 8}, {"precision": 12},
        {"threshold": 5}, {"threshold": 10, "edgeitems": 1}, {"threshold": 5, "edgeitems": 0},
        {"edgeitems": 0}, {"linewidth": 40}, {"linewidth": 20}, {"linewidth": 200},
        {"profile": "short"}, {"profile": "full"}, {"sci_mode": True}, {"sci_mode": False},
        {"profile": "short", "precision": 6}, {"threshold": 20, "edgeitems": 2, "linewidth": 30},
    ]
    arrays = [
        (np.arange(10.0) / 3, "float32"),
        (np.arange(24).reshape(2, 3, 4), "int64"),
        (np.array([1e-6, 1.0, 1e6]), "float64"),
        (np.array([[1.5, NAN], [-INF, 2.0]]), "float32"),
        (np.array(3.25), "float32"),
        (np.array([True, False] * 6), "bool"),
        (np.array([1.0, 2.0]), "float32"),
    ]
    for o in opts:
        for values, dtype in arrays:
            case(values, dtype, printoptions=o)
    # Options that change how a tensor past the default threshold prints.
    for o in [{"profile": "full"}, {"profile": "short"}, {"edgeitems": 0}, {"linewidth": 200}]:
        case(np.arange(1001.0).reshape(7, 11, 13), printoptions=o)
    case(np.arange(6.0), grad="leaf", printoptions={"edgeitems": 0})
    # Suffixes wrap one by one; sweep linewidth through the wrapping points.
    for linewidth in range(30, 75, 3):
        case(np.arange(6.0), "float64", grad="mul", printoptions={"linewidth": linewidth})
        case([[1.0, 2.0], [3.0, 4.0]], "float16", grad="leaf", printoptions={"linewidth": linewidth})
    case(np.arange(6.0), grad="mul", printoptions={"threshold": 3, "edgeitems": 0})


SHAPES = [(), (1,), (3,), (7,), (17,), (2, 3), (4, 1), (1, 5), (3, 9), (2, 3, 4),
          (1, 1, 1), (2, 1, 3, 2), (5, 25), (3, 2, 2, 2, 1)]


def random_floats(rng, shape):
    """Floats of one magnitude, mixed magnitudes, integral, or sprinkled with nan/inf/-0."""
    kind = rng.integers(6)
    scale = 10.0 ** rng.integers(-12, 13)
    if kind == 0:
        a = rng.normal(size=shape) * scale
    elif kind == 1:
        a = rng.uniform(0, 1, size=shape) * scale
    elif kind == 2:
        a = rng.integers(-1000, 1000, size=shape).astype(float) * (10.0 ** rng.integers(0, 8))
    elif kind == 3:
        a = rng.normal(size=shape) * 10.0 ** rng.integers(-6, 7, size=shape)
    elif kind == 4:
        a = np.round(rng.normal(size=shape) * scale, int(rng.integers(0, 4)))
    else:
        a = rng.normal(size=shape) * scale
        flat = a.reshape(-1)
        for special in [NAN, INF, -INF, -0.0, 0.0]:
            flat[rng.random(flat.shape) < 0.15] = special
    return a


def random_cases():
    rng = np.random.default_rng(20240611)
    for shape in SHAPES:
        for _ in range(14):
            dtype = FLOATS[rng.integers(len(FLOATS))]
            grad = [None, None, "leaf", "mul"][rng.integers(4)]
            case(random_floats(rng, shape), dtype, grad)
        for dtype in INTS:
            info = np.iinfo(dtype)
            limit = [10, 1000, info.max][rng.integers(3)]
            low = max(info.min, -limit)
            case(rng.integers(low, min(limit, info.max), size=shape, endpoint=True), dtype)
        case(rng.random(shape) < 0.5, "bool")


def to_torch(values, dtype, grad):
    """Build a real tensor; return it with the autograd suffix its repr shows."""
    t = torch.from_numpy(np.array(values, dtype=dtype))
    if grad is None:
        return t
    t.requires_grad_(True)
    if grad == "leaf":
        return t
    if grad == "mul":
        return t * 1
    if grad == "sum":
        return t.sum()
    function = type(grad, (torch.autograd.Function,), {
        "forward": staticmethod(lambda ctx, x: x.clone()),
        "backward": staticmethod(lambda ctx, g: g),
    })
    return function.apply(t)


def encode(array):
    flat = array.reshape(-1).tolist()
    if array.dtype.kind == "f":
        return [repr(v) for v in flat]
    return flat


def record(values, dtype, grad, printoptions):
    torch.set_printoptions(profile="default")
    if printoptions:
        torch.set_printoptions(**printoptions)
    t = to_torch(values, dtype, grad)
    expected = repr(t)
    torch.set_printoptions(profile="default")

    if t.grad_fn is not None:
        suffixes = [f"grad_fn=<{type(t.grad_fn).__name__}>"]
    elif t.requires_grad:
        suffixes = ["requires_grad=True"]
    else:
        suffixes = []
    array = t.detach().numpy()  # e.g. the result of .sum(), not its input
    return {
        "dtype": dtype,
        "shape": list(array.shape),
        "values": encode(array),
        "suffixes": suffixes,
        "printoptions": printoptions,
        "expected": expected,
    }


def main():
    hand_picked()
    random_cases()
    records = [record(*c) for c in CASES]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(json.dumps(r) for r in records)
    OUT.write_text("[\n" + lines + "\n]\n")
    print(f"wrote {len(records)} cases to {OUT}")


if __name__ == "__main__":
    main()
