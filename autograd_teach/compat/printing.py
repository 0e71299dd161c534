"""Print tensors exactly the way PyTorch 2.x prints them.

This is a port of PyTorch's ``torch/_tensor_str.py``, cut down to what a
dense CPU tensor needs and working on a plain numpy array. It knows nothing
about autograd: the caller passes ``requires_grad=True`` or
``grad_fn=<MulBackward0>`` in as ready-made suffixes.

How PyTorch prints, in short:

* One ``_Formatter`` looks at every element that will be shown and picks a
  single style (integer-valued floats as ``1.``, fixed point, or scientific)
  and a single column width, so all elements line up.
* Nested lists are written recursively; only 1-d rows wrap at ``linewidth``.
* Past ``threshold`` elements, each dimension shows only ``edgeitems``
  entries at each end, with ``...`` in between.
* Suffixes such as ``dtype=torch.float64`` follow the closing bracket and
  move to their own line when they would overflow ``linewidth``.
"""

import contextlib
import dataclasses
import math
from typing import Any, Sequence

import numpy as np

__all__ = ["format_tensor", "set_printoptions", "get_printoptions", "printoptions"]


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()

# profile name -> (precision, threshold, edgeitems, linewidth), as in PyTorch.
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set print options, like ``torch.set_printoptions``.

    A ``profile`` ("default", "short" or "full") is applied first and the
    other arguments override it. Like PyTorch, an unknown profile is
    silently ignored, and ``sci_mode`` is always reset (to None = automatic)
    unless given.
    """
    if profile in _PROFILES:
        (
            PRINT_OPTS.precision,
            PRINT_OPTS.threshold,
            PRINT_OPTS.edgeitems,
            PRINT_OPTS.linewidth,
        ) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current options, as keyword arguments for ``set_printoptions``."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily change print options: ``with printoptions(precision=2): ...``"""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Chooses one style and one width for all the elements of a tensor."""

    def __init__(self, array: np.ndarray):
        self.floating = array.dtype.kind == "f"
        self.int_mode = True  # every float is integral: print "2." not "2.0000"
        self.sci_mode = False
        self.max_width = 1

        values = array.reshape(-1)
        if not self.floating:
            self.max_width = max([1] + [len(str(v)) for v in values.tolist()])
            return

        # nan, inf and zeros don't take part in choosing the style.
        shown = values[np.isfinite(values) & (values != 0)]
        if shown.size == 0:
            return

        # PyTorch decides in float64, whatever the tensor's dtype.
        magnitudes = np.abs(shown).astype(np.float64)
        lo, hi = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        # Widths come from the values as Python floats (float32 widened to
        # float64), just as PyTorch's `.item()` gives them.
        p = PRINT_OPTS.precision
        if self.sci_mode:
            widths = [len(f"{v:.{p}e}") for v in shown.tolist()]
        elif self.int_mode:
            widths = [len(f"{v:.0f}") + 1 for v in shown.tolist()]  # +1 for "."
        else:
            widths = [len(f"{v:.{p}f}") for v in shown.tolist()]
        self.max_width = max([self.max_width] + widths)

    def format(self, value) -> str:
        """Format one Python scalar, right-aligned to the common width."""
        p = PRINT_OPTS.precision
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{p}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."  # the dot is what says "this is a float tensor"
        else:
            text = f"{value:.{p}f}"
        return text.rjust(self.max_width)


def _summarized_data(array: np.ndarray) -> np.ndarray:
    """Only the elements a summarized print shows; the formatter sizes from these."""
    edge = PRINT_OPTS.edgeitems
    if array.ndim == 0:
        return array
    if array.ndim == 1:
        if len(array) > 2 * edge:
            return np.concatenate((array[:edge], array[-edge:]))
        return array
    if not edge:
        return np.empty((0,) * array.ndim, array.dtype)
    if len(array) > 2 * edge:
        rows = list(array[:edge]) + list(array[len(array) - edge :])
    else:
        rows = list(array)
    return np.stack([_summarized_data(row) for row in rows])


def _vector_str(array, indent, summarize, formatter) -> str:
    element_length = formatter.max_width + 2  # ", " between elements
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edge = PRINT_OPTS.edgeitems

    if summarize and not edge:
        data = ["..."]
    elif summarize and len(array) > 2 * edge:
        data = (
            [formatter.format(v) for v in array[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in array[-edge:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in array.tolist()]

    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(array, indent, summarize, formatter) -> str:
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)

    edge = PRINT_OPTS.edgeitems
    if summarize and len(array) > 2 * edge:
        head = [_nested_str(a, indent + 1, summarize, formatter) for a in array[:edge]]
        tail = [
            _nested_str(a, indent + 1, summarize, formatter)
            for a in array[len(array) - edge :]
        ]
        slices = head + ["..."] + tail
    else:
        slices = [_nested_str(a, indent + 1, summarize, formatter) for a in array]

    # Blocks of a 3-d tensor are separated by a blank line, of 4-d by two...
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(tensor_str: str, suffixes: Sequence[str], indent: int) -> str:
    parts = [tensor_str]
    # PyTorch's own arithmetic: with no newline this is len + 2, not len.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


# In PyTorch these print no dtype= suffix (float32 is the default dtype,
# and int64 / bool are what a Python int / bool list becomes).
_DEFAULT_DTYPES = ("float32", "int64", "bool")


def format_tensor(array: np.ndarray, dtype_name: str, suffixes: Sequence[str] = ()) -> str:
    """The ``repr`` PyTorch prints for a tensor holding ``array``.

    ``dtype_name`` is a numpy/PyTorch dtype name such as "float32" or "int64";
    ``suffixes`` (e.g. ``["requires_grad=True"]``) go after PyTorch's own
    ``size=`` and ``dtype=`` suffixes.
    """
    array = np.asarray(array, dtype=dtype_name)
    prefix = "tensor("
    indent = len(prefix)
    own_suffixes = []

    if array.size == 0:
        # Like NumPy, an empty tensor shows its shape unless it is (0,) ...
        if array.ndim != 1:
            own_suffixes.append(f"size={tuple(array.shape)}")
        # ... and, with no elements to tell ints from floats, any dtype but
        # the default float32.
        if dtype_name != "float32":
            own_suffixes.append(f"dtype=torch.{dtype_name}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:  # nothing of the data shows, so say how big
            own_suffixes.append(f"size={tuple(array.shape)}")
        if dtype_name not in _DEFAULT_DTYPES:
            own_suffixes.append(f"dtype=torch.{dtype_name}")
        summarize = array.size > PRINT_OPTS.threshold
        formatter = _Formatter(_summarized_data(array) if summarize else array)
        body = _nested_str(array, indent, summarize, formatter)

    return _add_suffixes(prefix + body, own_suffixes + list(suffixes), indent)
