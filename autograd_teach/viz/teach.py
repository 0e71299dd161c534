"""The chain rule of the common nn ops as a learner writes it: ``grad_mat1 = grad @ mat2ᵀ``.

PyTorch's own formulas (derivatives.yaml, and our ops' docstrings, which copy
them) are written for its kernels: ``maybe_multiply(mm_mat1_backward(grad,
mat2, mat1_sym_sizes, ...), alpha)``.  The inspector shows the form below
first, with the recorded numbers put in, and PyTorch's formula in a collapsed
row.  The names are PyTorch's saved names (``_saved_mat2`` is ``mat2``), so the
same table serves autograd_teach's nodes and real PyTorch's (viz/torch_record.py),
whose names are the same.
"""
from __future__ import annotations

import re

# node name -> (input names, one per next_functions slot; {input: (form, note key or None)})
FORMS = {
    "AddmmBackward0": (("self", "mat1", "mat2"), {
        "self": ("beta * grad", "teach.sum_to_self"),
        "mat1": ("alpha * grad @ mat2ᵀ", None),
        "mat2": ("alpha * mat1ᵀ @ grad", None)}),
    "MmBackward0": (("self", "mat2"), {"self": ("grad @ mat2ᵀ", None), "mat2": ("selfᵀ @ grad", None)}),
    "BmmBackward0": (("self", "mat2"), {"self": ("grad @ mat2ᵀ", "teach.batched"),
                                         "mat2": ("selfᵀ @ grad", "teach.batched")}),
    "MvBackward0": (("self", "vec"), {"self": ("outer(grad, vec)", None), "vec": ("selfᵀ @ grad", None)}),
    "DotBackward0": (("self", "tensor"), {"self": ("grad * tensor", None), "tensor": ("grad * self", None)}),
    "MeanBackward0": (("self",), {"self": ("grad / self_sym_numel", "teach.expand")}),
    "MeanBackward1": (("self",), {"self": ("grad / n", "teach.expand_dim")}),
    "MseLossBackward0": (("self", "target"), {"self": ("2 * (self - target) * grad / N", "teach.mse"),
                                              "target": ("-2 * (self - target) * grad / N", "teach.mse")}),
    "NllLossBackward0": (("self",), {"self": ("-grad / total_weight", "teach.nll")}),
    "LogSoftmaxBackward0": (("self",), {"self": ("grad - exp(result) * grad.sum(dim, keepdim=True)", None)}),
    "ReluBackward0": (("self",), {"self": ("grad * (result > 0)", None)}),
    "SigmoidBackward0": (("self",), {"self": ("grad * result * (1 - result)", None)}),
    "TanhBackward0": (("self",), {"self": ("grad * (1 - result²)", None)}),
    "ConvolutionBackward0": (("input", "weight", "bias"), {
        "input": ("conv_transpose(grad, weight)", "teach.conv_input"),
        "weight": ("conv(input, grad)", "teach.conv_weight"),
        "bias": ("grad.sum(all but dim 1)", None)}),
    "NativeBatchNormBackward0": (("input", "weight", "bias"), {
        "input": ("weight * invstd * (grad - mean(grad) - x̂ * mean(grad * x̂))", "teach.batch_norm"),
        "weight": ("sum(grad * x̂)", "teach.batch_norm"),
        "bias": ("sum(grad)", "teach.batch_norm")}),
}

# Names a form reads beyond ``grad``: PyTorch's saved names (read as _saved_<name>).
READS = {
    "AddmmBackward0": ("mat1", "mat2", "alpha", "beta"), "MmBackward0": ("self", "mat2"),
    "BmmBackward0": ("self", "mat2"), "MvBackward0": ("self", "vec"), "DotBackward0": ("self", "tensor"),
    "MeanBackward0": ("self_sym_numel",), "MeanBackward1": ("self_sym_sizes", "self_sym_numel", "dim"),
    "MseLossBackward0": ("self", "target", "reduction"), "NllLossBackward0": ("total_weight",),
    "LogSoftmaxBackward0": ("result", "dim"), "ReluBackward0": ("result",), "SigmoidBackward0": ("result",),
    "TanhBackward0": ("result",), "ConvolutionBackward0": ("input", "weight"),
    "NativeBatchNormBackward0": ("weight", "result2"),
}


def form(node_name, slot, input_names=()):
    """``(input name, form, note key)`` for a node's input slot, or None when
    the node has no teaching form.  ``input_names`` are the node's own (our
    ops name their inputs); PyTorch's nodes use the table's."""
    entry = FORMS.get(node_name)
    if entry is None or slot is None:
        return None
    names = input_names or entry[0]
    if slot >= len(names) or names[slot] not in entry[1]:
        return None
    text, note = entry[1][names[slot]]
    return names[slot], text, note


def values_for(node_name, values):
    """The recorded values a form is filled with, with the few it derives:
    ``N`` (MSE's mean), ``n`` (a mean over dims), ``invstd`` (batch norm)."""
    out = dict(values)
    if "self" in out and hasattr(out["self"], "size") and _is_mean(out.get("reduction")):
        out["N"] = int(out["self"].size)
    elif "reduction" in out:
        out["N"] = 1
    sizes, numel = out.get("self_sym_sizes"), out.get("self_sym_numel")
    if node_name == "MeanBackward1" and sizes is not None and "dim" in out:
        dims = out["dim"] if isinstance(out["dim"], (tuple, list)) else (out["dim"],)
        n = 1
        for d in dims:
            n *= int(sizes[d])
        out["n"] = n
    elif node_name == "MeanBackward1" and numel is not None:
        out["n"] = numel
    if "result2" in out:
        out["invstd"] = out["result2"]
    return out


def _is_mean(reduction):
    return reduction in ("mean", 1)      # ours names it, PyTorch's node keeps the enum (1: mean)


def substitute(text, grad, values, flat):
    """``text`` with ``grad`` and every known name replaced by ``flat(value)``;
    ``alpha * `` and ``beta * `` are left out when they are 1."""
    for scale in ("alpha", "beta"):
        if values.get(scale, 1) == 1:
            text = text.replace(f"{scale} * ", "")
    known = {"grad": grad, **{k: v for k, v in values.items() if v is not None}}
    names = sorted((re.escape(k) for k in known), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.])(" + "|".join(names) + r")(?![A-Za-z0-9_(])")
    return pattern.sub(lambda m: flat(known[m.group(1)]), text)


def shown(text, values):
    """The form as a rule: ``alpha * `` and ``beta * `` left out when they are 1."""
    for scale in ("alpha", "beta"):
        if values is not None and values.get(scale, 1) == 1:
            text = text.replace(f"{scale} * ", "")
    return text
