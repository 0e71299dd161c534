"""Forward-mode AD: dual numbers, as the lessons compute them by hand.

A dual number is a pair (primal, tangent), x + ε·ẋ with ε² = 0. Every op
maps pairs to pairs: the primal as before, and the tangent by the op's jvp
rule, its derivative along the inputs' tangents:

    (a, ȧ) * (b, ḃ) = (a * b,  ȧ * b + a * ḃ)

In PyTorch a tensor carries its tangent per *level* (torch.autograd.
forward_ad.dual_level); here each level keeps a table tensor -> tangent,
weakly keyed, so a level keeps no tensor alive and forgets everything when it
ends. While a level exists, OpNode.apply calls `propagate` after the forward;
the rules are the table in jvp_rules.py.

A tangent is computed with ordinary Tensor ops, so when the primal requires
grad the tangent does too, and backward runs through it (reverse over
forward). While a level's tangent is computed that level is suspended (its
ε must not meet itself) but the others are not, so levels nest
(torch.func.jvp of a jvp) without confusing their ε's. As in PyTorch, the
levels are global (not per thread); the suspension is per thread.
"""
import contextlib
import re
import threading
import weakref

import numpy as np

from ..core import rules
from .jvp_rules import ELEMENT_WISE, HELPERS, JVP, LINEAR, LOSS, REDUCTION, sum_over

levels = []        # the levels in existence, innermost last; empty: forward AD is off (apply checks this)
_lock = threading.Lock()
_local = threading.local()     # .suspended: the levels whose tangent this thread is computing

NESTED = "Nested forward mode AD is not supported at the moment"
NOT_LAST = "Trying to exit a forward AD level that was not the last one that was created. This is not supported."
UNSUPPORTED = ("Trying to use forward AD with {} that does not support it because it has not been implemented yet.\n"
               "Please file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-"
               "request.yml so that we can prioritize its implementation or submit a PR adding the implementation "
               "to derivatives.yaml")
NUMBERS = (int, float, bool)


class Level:
    """One dual level: which tensor has which tangent."""

    def __init__(self, index, nested_ok):
        self.index, self.nested_ok = index, nested_ok
        self.tangents = {}        # id(tensor) -> (weak reference to it, its tangent)

    def tangent(self, t):
        entry = self.tangents.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else None

    def set(self, t, tangent):
        tangents, key = self.tangents, id(t)

        def forget(ref):          # t is gone: so is its entry (unless a new tensor took the id)
            if tangents.get(key, (None,))[0] is ref:
                del tangents[key]
        tangents[key] = (weakref.ref(t, forget), tangent)


def enter_level(nested_ok=False):
    with _lock:
        if levels and not (nested_ok or levels[-1].nested_ok):
            raise RuntimeError(NESTED)
        levels.append(Level(len(levels), nested_ok))
        return levels[-1]


def exit_level(level):
    with _lock:
        if level not in levels or (levels[-1] is not level and not level.nested_ok):
            raise RuntimeError(NOT_LAST)
        levels.remove(level)
        level.tangents.clear()


def in_use():
    suspended = getattr(_local, "suspended", ())
    return [level for level in levels if level not in suspended]


@contextlib.contextmanager
def suspended(*which):
    """While a tangent is computed at these levels (all, by default), their
    tangents do not propagate in this thread."""
    before = getattr(_local, "suspended", frozenset())
    _local.suspended = before | set(which or levels)
    try:
        yield
    finally:
        _local.suspended = before


def is_tensor(a):
    return a is not None and type(a) not in NUMBERS


def zeros(a):
    return a._wrap(np.zeros_like(a._data))


# -- one op: the tangent of its output -------------------------------------------------

def propagate(op, node, inputs, params, out, apply):
    """OpNode.apply, after the forward, while a level exists: the output's
    tangent at each level where an input has one (apply(op, *args) runs the
    op again, for a linear op's tangent)."""
    if out._data.dtype.kind not in "fc":
        return
    for level in in_use():
        tangents = [level.tangent(a) if is_tensor(a) else None for a in inputs]
        if any(t is not None for t in tangents):
            with suspended(level):
                t = jvp(op, node, inputs, tangents, params, out, apply)
            t = t if tuple(t.shape) == tuple(out.shape) else t.expand(out.shape)
            level.set(out, t)
            _saved_output_gets(node, level, t)


def propagate_pieces(op, x, params, outs):
    """unbind, split (ops/multi_output.py): each piece's tangent is the same
    piece of x's tangent."""
    for level in in_use():
        t = level.tangent(x)
        if t is not None:
            with suspended(level):
                pieces = op.apply(t, *params)
            for out, piece in zip(outs, pieces):
                level.set(out, piece)


def propagate_decomposed(inputs, outs, decomposition):
    """An op with no rule of its own (batch_norm's backward, several
    outputs): its outputs' tangents are those of the same values computed
    again by differentiable Tensor ops, decomposition(*inputs), on the dual
    inputs (PyTorch: torch/_decomp/decompositions_for_jvp.py)."""
    found = [level for level in in_use() if any(is_tensor(a) and level.tangent(a) is not None for a in inputs)]
    if not found:
        return
    again = decomposition(*inputs)
    for level in found:
        for out, twin in zip(outs, again):
            if out is not None and twin is not None:
                tangent = level.tangent(twin)
                level.set(out, tangent if tangent is not None else zeros(out))


def jvp(op, node, inputs, tangents, params, out, apply):
    """The tangent of op's output from its inputs' tangents (None: none), by its rule."""
    name = type(node).__name__
    if name not in JVP:
        raise NotImplementedError(UNSUPPORTED.format(getattr(node, "aten_name", None) or aten_name(name)))
    rule = JVP[name]
    if rule == LINEAR:      # a number among the inputs is a constant: its tangent is 0
        return apply(op, *[0 if not is_tensor(a) else zeros(a) if t is None else t
                           for a, t in zip(inputs, tangents)], *params)
    if rule in (ELEMENT_WISE, REDUCTION, LOSS):
        return _from_backward_rule(rule, op, node, inputs, tangents, out)
    values = {**HELPERS, **_values(node, inputs, out)}
    for name, a, t in zip(op.inputs, inputs, tangents):
        values[name + "_t"] = t if t is not None else zeros(a) if is_tensor(a) else 0
    return rules.evaluate_text(op, "result", rule, values)


def _from_backward_rule(rule, op, node, inputs, tangents, out):
    """auto_element_wise, auto_reduction, auto_loss (jvp_rules.py): the
    backward rule of each input with a tangent, given the tangent (element-
    wise) or ones (d out / d input, elementwise), times the tangent."""
    texts, total = rules.rules(op), None
    for name, a, t in zip(op.inputs, inputs, tangents):
        if t is None or name not in texts:
            continue
        grad = t if rule == ELEMENT_WISE else out._wrap(np.ones_like(out._data))
        part = rules.evaluate_text(op, name, texts[name], {**_values(node, inputs, out), "grad": grad})
        part = part if rule == ELEMENT_WISE else part * t
        total = part if total is None else total + part
    if rule == REDUCTION:
        return sum_over(total, getattr(node, "dim", None), getattr(node, "keepdim", False))
    if rule == LOSS and node.reduction != "none":
        return total.sum()
    return total


def _values(node, inputs, out):
    """What a rule reads: each input by its name and as <name>_p, the result,
    and the node's attributes (arrays as tensors, as grad_fn._saved_<name>)."""
    values = {"result": out}
    for name, a in zip(type(node).inputs, inputs):
        values[name] = values[name + "_p"] = a
    for name in type(node).attrs:
        v = getattr(node, name, None)
        values[name] = out._wrap(v) if type(v) is np.ndarray else v
    return values


def aten_name(node_name):
    """PyTorch's error names the aten op: LinalgVectorNormBackward0 -> linalg_vector_norm."""
    name = re.sub(r"Backward\d*$", "", node_name)
    name = re.sub(r"([123])D", r"\1d", name)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


# -- saved tensors keep their tangents (PyTorch's SavedVariable does too) ---------------

def tangents_of(t):
    """(level, tangent) of each level where t has one: what a SavedTensor keeps."""
    found = [(level, level.tangent(t)) for level in levels]
    return [(level, tangent) for level, tangent in found if tangent is not None] or None


def give_tangents(t, tangents):
    """A saved tensor unpacked as a new Tensor gets the tangents it was saved with (None: none)."""
    for level, tangent in tangents or ():
        if level in levels:
            level.set(t, tangent)


def _saved_output_gets(node, level, tangent):
    """A node that saved its own output (exp saves result) saved it before the
    tangent existed: it gets it now."""
    for s in (getattr(node, "saved_values", None) or {}).values():
        if type(s).__name__ == "SavedTensor" and s.ref is None:
            s.tangents = (s.tangents or []) + [(level, tangent)]


# -- what is not an op: in-place writes, custom Functions, printing ----------------------

def copy_tangents(source, to):
    """A snapshot of a tensor (views.py) has its tangents."""
    if not levels:
        return
    for level in in_use():
        t = level.tangent(source)
        if t is not None:
            level.set(to, t)


def after_inplace(t, result, base, view_chain):
    """t was changed in place to result's values: its tangent becomes
    result's, written into the old tangent so that the tangents of its views
    and of its base (views of one another, as the primals are) see it too. A
    view whose base had no tangent gives the base one (zeros elsewhere)."""
    if not levels:
        return
    for level in in_use():
        new = level.tangent(result)
        if new is None:
            continue
        old = level.tangent(t)
        if old is None and base is not None:
            base_t = level.tangent(base)
            if base_t is None:
                base_t = zeros(base)
                level.set(base, base_t)
            with suspended(level):
                old = base_t
                for op, params in view_chain:
                    old = op.apply(old, *params)
            level.set(t, old)
        if old is None:
            level.set(t, new)
        else:
            old._data[...] = new._data


def custom_jvp(fn, ctx, args, outs, default_jvp):
    """A custom Function's outputs get their tangents from its jvp(ctx, *tangents)."""
    for level in in_use():
        tangents = [level.tangent(a) if is_tensor(a) and hasattr(a, "_data") else None for a in args]
        if all(t is None for t in tangents):
            continue
        if fn.jvp is default_jvp:
            raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use "
                                      "it with forward mode AD.")
        with suspended(level):
            result = fn.jvp(ctx, *tangents)
        result = result if isinstance(result, tuple) else (result,)
        for o, t in zip(outs, result):
            if t is not None and is_tensor(o):
                level.set(o, t)


def tangent_suffix(t):
    """What a tensor's repr adds: its tangent at the innermost level, as PyTorch prints it."""
    level = levels[-1] if levels else None
    tangent = level.tangent(t) if level is not None else None
    if tangent is None:
        return []
    return [f"tangent={tangent.item() if tangent.dim() == 0 else tangent!r}"]
