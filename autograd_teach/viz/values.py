"""Tensor values as text, the way the core prints tensors.

Labels in the diagram use :func:`short`: small tensors in full, large ones
as their shape and norm.  The inspector uses :func:`full`.  Both go through
``autograd_teach.compat.printing.format_tensor`` so a gradient in the diagram reads
exactly like ``print(x.grad)``.
"""
from __future__ import annotations

import numpy as np

from ..compat.printing import format_tensor
from . import torch_record
from .lang import t
from .recording import Summary

SMALL = 6  # at most this many elements are shown in full inside a diagram label


def as_array(value):
    """A numpy array for a Tensor, an ndarray or a Python scalar."""
    if torch_record.is_torch_tensor(value):     # real PyTorch: maybe on a GPU, or bfloat16
        return torch_record.to_numpy(value)
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        return value.detach().numpy()
    if hasattr(value, "numpy"):
        return value.numpy()
    return np.asarray(value)


def dtype_name(value):
    """``float32`` for a Tensor (whose dtype prints ``torch.float32``) or an ndarray."""
    dt = getattr(value, "dtype", None)
    marked = getattr(dt, "metadata", None) or {}    # a PyTorch bfloat16 gradient, kept as float32
    return marked.get("torch") or (str(dt).replace("torch.", "") if dt is not None else "float32")


def shape_text(shape):
    return "(" + ", ".join(str(int(s)) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _format(array, dtype):
    try:
        np.dtype(dtype)
    except TypeError:
        # A PyTorch dtype numpy lacks (bfloat16): its values as float32, its
        # name as PyTorch prints it, tensor([1.5000], dtype=torch.bfloat16).
        return format_tensor(np.asarray(array, np.float32), "float32", [f"dtype=torch.{dtype}"])
    return format_tensor(array, dtype)


def _summary(shape, norm, lang):
    return t("value.summary", lang, shape=shape_text(shape), norm=f"{norm:.4g}")


def full(value, dtype=None, lang=None):
    """The whole tensor, as the core's repr prints it (summarised past 1000 elements)."""
    if value is None:
        return "None"
    if isinstance(value, Summary):   # a gradient the recorder kept only as a summary
        if value.min is None:        # complex: no min and max
            return _summary(value.shape, value.norm, lang)
        return _summary(value.shape, value.norm, lang) + t("value.range", lang, min=f"{value.min:.4g}",
                                                           max=f"{value.max:.4g}")
    array = as_array(value)
    return _format(array, dtype or dtype_name(value))


def short(value, dtype=None, lang=None):
    """A label-sized summary: the tensor itself when small, else shape and norm
    (in ``lang``; None: the default)."""
    if value is None:
        return "None"
    if isinstance(value, Summary):
        return _summary(value.shape, value.norm, lang)
    array = as_array(value)
    if array.size <= SMALL:
        return _format(array, dtype or dtype_name(value))
    norm = float(np.linalg.norm(array.ravel().astype(np.complex128 if array.dtype.kind == "c" else np.float64)))
    return _summary(array.shape, norm, lang)
