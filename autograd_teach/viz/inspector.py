"""The widget's node inspector: one node, in full, as of step k, as HTML.

Everything shown is escaped; tensors are printed whole, the way the core
prints them (summarised only past 1000 elements, as PyTorch does).
"""
from __future__ import annotations

import re
from html import escape

import numpy as np

from . import graph as G
from . import teach, torch_record, values
from .dot import title
from .lang import t
from .recording import SNAPSHOT_STEPS, reads_values


def _pre(text):
    return f"<pre>{escape(text)}</pre>"


def _tensor_rows(tensor, lang):
    return [(t("insp.shape", lang), escape(values.shape_text(tuple(tensor.shape)))),
            (t("insp.dtype", lang), escape(str(tensor.dtype))),
            (t("insp.value", lang), _pre(_full(tensor, lang)))]


def _when(graph, steps, node_id):
    """Index of the step that ran ``node_id`` (the last, for a collapsed run)."""
    ran = [s.index for s in steps if s.node_id == node_id]
    return ran[-1] if ran else None


def rows(graph, steps, k, node_id, lang=None):
    """(heading, html) rows describing ``node_id`` after the first ``k`` steps."""
    n = graph.node(node_id)
    if n.kind == G.REF:               # a copy drawn near a use: inspect the node itself
        return [(t("insp.kind", lang), escape(t("insp.ref", lang, id=n.ref)))] + rows(graph, steps, k, n.ref, lang)
    steps = steps or []
    done = steps[:k]
    out = [(t("insp.kind", lang), escape(t("kind." + n.kind, lang)))]
    if n.tensor is not None:
        out += _tensor_rows(n.tensor, lang)
    if n.kind == G.SAVED and n.saved_version is not None:
        mark = t("insp.modified", lang) if n.stale else ""
        out.append((t("insp.version", lang),
                    escape(t("insp.saved_at", lang, saved=n.saved_version, now=n.current_version) + mark)))
    fn = n.fn if n.kind != G.REPEAT else n.members[-1]
    ran = _when(graph, steps, node_id)
    error = _not_implemented(fn)
    if error:                         # x // 2: backward through it raises, as PyTorch's does
        out.append((escape(t("insp.chain", lang)), escape(t("insp.not_implemented", lang, error=error))))
    if fn is not None and steps:
        if ran is None:
            out.append((t("insp.gradient", lang), escape(t("insp.not_run", lang))))
        elif ran >= k:
            out.append((t("insp.gradient", lang), escape(t("insp.not_yet", lang, k=ran + 1))))
        else:
            out += chain_rows(graph, steps[ran], node_id, lang)
    elif fn is not None:
        out.append((t("insp.gradient", lang), escape(t("insp.none_yet", lang))))
    if n.kind == G.LEAF:
        acc = next((e.src for e in graph.in_edges(node_id) if e.kind == "variable"), None)
        ran = _when(graph, steps, acc) if acc else None
        grads = [s.leaf_grad for s in done if s.node_id == acc and s.leaf_grad is not None]
        if grads:
            out.append((".grad", _pre(_full(grads[-1], lang))))
        elif ran is not None:
            out.append((".grad", escape(t("insp.grad_not_yet", lang, k=ran + 1))))
    if fn is not None and n.kind in (G.FUNCTION, G.REPEAT):
        pending = steps and (ran is None or ran >= k)
        out += _saved_rows(fn, lang, pending)
    return out


def chain_rows(graph, step, node_id, lang=None):
    """What the node computed at its step, the chain rule with its numbers:
    the gradient in; for each input its rule (from the op's docstring, read by
    ``ops.formulas``), the rule with the recorded numbers put in, and what went
    out along that ``next_functions`` edge.  At an AccumulateGrad: old .grad +
    incoming = new .grad."""
    n = graph.node(node_id)
    if isinstance(step.grad_output, tuple):   # a node with several outputs: one gradient per output
        out = [(f"{t('insp.grad_in', lang)} [{k}]", _pre(_full(g, lang))) for k, g in enumerate(step.grad_output)]
    else:
        out = [(t("insp.grad_in", lang), _pre(_full(step.grad_output, lang)))]
    fn = n.fn if n.kind != G.REPEAT else n.members[-1]
    if n.kind == G.ACCUMULATE and step.leaf_grad is not None:
        return out + _accumulate_rows(step, lang)
    rules = _rules(fn)
    inputs = getattr(type(fn), "inputs", ())
    torch_node = torch_record.is_torch_node(fn)
    if torch_node and not any(teach.form(n.name, e.slot) for e in graph.out_edges(node_id)):
        # PyTorch's C++ nodes carry no docstring rule; what they sent is still shown below.
        out.append((escape(t("insp.chain", lang)), escape(t("insp.torch_rule", lang))))
    for e in graph.out_edges(node_id):
        if e.id not in step.edge_grads or e.kind == "variable":
            continue
        slot = f"[{e.slot}] " if e.slot is not None else ""
        taught = teach.form(n.name, e.slot, inputs)
        if taught is not None:
            out += _taught_rows(taught, slot, rules, step, torch_node, lang)
        else:
            name = inputs[e.slot] if e.slot is not None and e.slot < len(inputs) else None
            if name in rules:
                out += _raw_rows(name, rules[name], slot, fn, step, lang)
        head = t("insp.sent", lang, slot=slot, name=title(graph.node(e.dst), lang))
        out.append((escape(head), _pre(_full(step.edge_grads[e.id], lang))))
    return out


def _taught_rows(taught, slot, rules, step, torch_node, lang):
    """The teaching form of one input's rule, its numbers, and PyTorch's formula collapsed."""
    name, form, note = taught
    values = teach.values_for(step.name, step.values) if step.values is not None else None
    rule = f"grad_{name} = {teach.shown(form, values)}"
    if note:
        rule += "\n" + t(note, lang)
    out = [(escape(f"{slot}{t('insp.rule', lang)}"), f'<pre class="at-rule">{escape(rule)}</pre>')]
    if values is not None:
        numbers = teach.substitute(form, step.grad_output, values, lambda v: _operand(v, lang))
        out.append((escape(t("insp.numbers", lang)), _pre(f"= {numbers}")))
    raw = f"grad_{name} = {rules[name]}" if name in rules else (t("insp.torch_rule", lang) if torch_node else "")
    if raw:
        out.append((escape(t("insp.raw", lang)), f'<details class="at-raw"><summary>{escape(t("insp.raw_show", lang))}'
                                                 f'</summary><pre class="at-rule">{escape(raw)}</pre></details>'))
    return out


def _raw_rows(name, rule, slot, fn, step, lang):
    """An op without a teaching form: its docstring's rule (PyTorch's formula), with its numbers."""
    out = [(escape(f"{slot}{t('insp.rule', lang)}"), f'<pre class="at-rule">grad_{escape(name)} = {escape(rule)}</pre>')]
    if step.values is not None:
        out.append((escape(t("insp.numbers", lang)), _pre(f"= {substitute(rule, step.grad_output, step.values, lang)}")))
    elif reads_values(fn):    # a node past the snapshot: say why no numbers are put in
        out.append((escape(t("insp.numbers", lang)), escape(t("insp.numbers_not_kept", lang, n=SNAPSHOT_STEPS))))
    return out


def _rules(fn):
    if fn is None or not isinstance(getattr(type(fn), "inputs", None), tuple):
        return {}                     # a PyTorch node or a custom Function: no docstring rules
    from ..ops import formulas
    try:
        return formulas.rules(fn)
    except ValueError:
        return {}


_NOT_IMPLEMENTED = re.compile(r"""^not_implemented\(["'](\w+)["']\)$""")


def _not_implemented(fn):
    """PyTorch's error for a node without a derivative (every rule is
    derivatives.yaml's not_implemented("floor_divide")): what its backward
    raises, got by calling that same function; else None."""
    found = {m.group(1) if m else None for m in map(_NOT_IMPLEMENTED.match, _rules(fn).values())}
    if len(found) != 1 or None in found:
        return None
    from ..ops.no_derivative import not_implemented
    try:
        not_implemented(found.pop())
    except RuntimeError as e:
        return str(e)


_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?!\w)(?!\s*=[^=])")


def substitute(rule, grad, saved, lang=None):
    """The rule's text with ``grad`` and each saved name replaced by its recorded value."""
    def one(m):
        name = m.group(1)
        if name == "grad":
            return _flat(grad, lang)
        if name in saved:
            return _flat(saved[name], lang)
        return name
    return _NAME.sub(one, rule)


def _is_tensor(value):
    """A tensor, an array or a recorder's Summary: printed like a tensor.  Anything
    else a node saves (reduction='mean', None, sizes, a dim) is printed by repr."""
    return isinstance(value, (np.ndarray, values.Summary)) or (hasattr(value, "shape") and hasattr(value, "numpy"))


def _full(value, lang=None):
    return values.full(value, lang=lang) if _is_tensor(value) else repr(value)


def _flat(value, lang=None):
    if not _is_tensor(value):
        return repr(value)
    return " ".join(values.short(value, lang=lang).split())


def _operand(value, lang=None):
    """A value inside a formula: in full when small, else its summary in brackets."""
    text = _flat(value, lang)
    small = not _is_tensor(value) or (not isinstance(value, values.Summary) and np.size(values.as_array(value)) <= values.SMALL)
    return text if small else f"[{text}]"


def _accumulate_rows(step, lang):
    new = step.leaf_grad
    incoming = step.grad_output
    try:
        old = np.asarray(new, dtype=np.float64) - np.asarray(incoming, dtype=np.float64)
    except (TypeError, ValueError):            # kept only as summaries
        old = None
    text = t("insp.accumulate", lang)
    if step.first_grad:
        body = f"None + {_flat(incoming, lang)} = {_flat(new, lang)}\n{t('insp.no_old', lang)}"
    elif old is not None:
        body = f"{_flat(old.astype(np.asarray(new).dtype), lang)} + {_flat(incoming, lang)} = {_flat(new, lang)}"
    else:
        body = f"... + {_flat(incoming, lang)} = {_flat(new, lang)}"
    return [(escape(t("insp.chain", lang)), f'<pre class="at-rule">{escape(text)}</pre>'),
            (escape(t("insp.numbers", lang)), _pre(body)), (".grad", _pre(_full(new, lang)))]


def _saved_rows(fn, lang, pending=False):
    info, freed = G.saved_info(fn)
    if info is None:
        return []
    if freed:
        # True at the step shown: before its node runs, backward had not freed them yet.
        key = "insp.saved_kept" if pending else "insp.freed"
        return [(t("insp.saved_tensors", lang), escape(t(key, lang)))]
    out = []
    for s in info:
        if s.saved_version is not None and _is_tensor(s.value):
            text = values.full(s.value, lang=lang)
            note = "\n" + t("insp.saved_note", lang, shape=values.shape_text(tuple(s.value.shape)),
                            saved=s.saved_version, now=s.current_version)
            if s.saved_version != s.current_version:
                note += t("insp.saved_stale", lang)
            out.append((_name(s.name), _pre(text + note)))
        else:
            out.append((_name(s.name), _pre(repr(s.value))))
    return out or [(t("insp.saved_tensors", lang), escape(t("insp.none", lang)))]


def _name(name):
    """A saved name as one unbreakable word (``_saved_self_sym_numel`` must not wrap into its value)."""
    return f'<code class="at-name" style="white-space: nowrap">{escape(name)}</code>'


def inspector_html(graph, steps, k, node_id, lang=None):
    """The inspector's HTML: a ``div.at-inspector`` with a heading and a table."""
    if node_id is None:
        return f'<div class="at-inspector"><i>{escape(t("insp.pick", lang))}</i></div>'
    n = graph.node(node_id)
    body = "".join(f"<tr><th>{h}</th><td>{v}</td></tr>" for h, v in rows(graph, steps, k, node_id, lang))
    return (f'<div class="at-inspector" data-node="{n.id}"><b>{escape(title(n, lang))}</b> '
            f'<small>({n.id})</small><table>{body}</table></div>')
