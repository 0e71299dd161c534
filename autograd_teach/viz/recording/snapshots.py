"""Value snapshots: what a node's derivative rule reads (the chain-rule
inspector's numbers), taken as the run begins, before backward frees it, for
the nodes nearest the roots (limits.SNAPSHOT_STEPS); settled as the run ends
and read when the steps are built."""
import itertools
import operator

import numpy as np

from ...core.node import SavedTensor
from .. import teach, torch_record
from .limits import Summary, keep, numpy_of, settled


def nearest_nodes(roots, count):
    """The ``count`` nodes nearest the roots, breadth first."""
    nodes = list(dict.fromkeys(roots))     # a root given twice is one node
    seen = set(nodes)
    for node in nodes:                     # the list grows as it is walked
        if len(nodes) >= count:
            break
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                nodes.append(child)
    return nodes[:count]


def take_saved_values(nodes):
    """For each node, what its rule reads that backward frees: most ops read
    only their saved tensors, so their saved_values dict, by reference (a
    C-level getattr); the few that read more get _take_values."""
    taken = list(map(getattr, nodes, itertools.repeat("saved_values"), itertools.repeat(None)))
    for cls in set(map(type, nodes)):
        if _plan_of(cls)[1:] != ((), ()):
            for i in [i for i, node in enumerate(nodes) if type(node) is cls]:
                taken[i] = _take_values(nodes[i])
    return taken


def _plan_of(cls):
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    return plan


def _take_values(node):
    """What the derivative rule of ``node`` reads, taken before it runs, as
    ``[saved names, saved_values, other values]``, or None when it reads nothing.
    Our own op's saved_values dict is held by reference while the run lasts
    (backward frees it by dropping the reference, never by changing it), then
    settled (settle_values) and read when steps are built; anything else is
    read now."""
    saved_names, attr_names, other_names = _plan_of(type(node))
    saved = getattr(node, "saved_values", None) if saved_names else None
    now = {name: getattr(node, name) for name in attr_names}
    for name in other_names:           # anything else: through _saved_<name>, now
        try:
            v = getattr(node, "_saved_" + name)
        except Exception:          # noqa: BLE001 - not saved, or already freed
            continue
        now[name] = keep(numpy_of(v)) if hasattr(v, "numpy") else v
    return [saved_names, saved, now]


def take_torch_values(node):
    """``[(), None, {name: value}]`` of a PyTorch node's saved values its teaching form reads, or None."""
    names = teach.READS.get(node.name())
    if names is None:
        return None
    now = {}
    for name in names:
        try:
            v = getattr(node, "_saved_" + name)
        except Exception:          # noqa: BLE001 - not saved, or already freed
            continue
        now[name] = keep(numpy_of(v), owned=True) if torch_record.is_torch_tensor(v) else v
    return [(), None, now]


def settle_values(node, values):
    """As the run ends, what was taken of ``node`` (its saved_values dict, or
    _take_values's list) as ``[saved names, settled saved values, other values]``,
    or None when its rule reads nothing.  Of each saved tensor only its array
    and version counter are kept (a SavedTensor also refers to the node that
    made its tensor, which would keep that part of the graph alive), whatever
    its size: it is copied, or summarised, only when the steps are read, and
    left out then if it was modified in place since (_read_saved)."""
    if type(values) is list:
        names, saved, now = values
    else:                                  # a saved_values dict: what most ops read
        names, saved, now = _PLANS[type(node)][0], values, {}   # (take_saved_values planned the class)
        if not names:
            return None
    if saved is None:
        return [names, None, now]
    settled = {}
    for name in names:
        s = saved.get(name)
        if type(s) is tuple:               # a compact SavedTensor (core/node.py): its first three fields
            settled[name] = s[:3]
        elif type(s) is SavedTensor:
            data, box, version = _SAVED(s)
            if data is not None:           # (None: saved under saved_tensors_hooks, not ours to read)
                settled[name] = (data, box, version)
        elif s is not None:
            settled[name] = s              # a number in a tensor's place: read as tensor(2) (_read_saved)
    return [names, settled, now]


_SAVED = operator.attrgetter("data", "box", "version")


def read_values(values):
    """A step's ``values`` dict from what ``_take_values`` took."""
    if values is None:
        return None
    names, saved, now = values
    out = {} if saved is None else _read_saved(saved, names)
    out.update(now)
    return out


def _read_saved(saved, names):
    """The values the rule read: copies of small arrays, Summaries of large ones.
    A saved tensor modified in place since it was saved is left out: its values
    are not those backward used (or backward raised)."""
    values = {}
    for name in names:
        v = saved.get(name)
        if type(v) is tuple and len(v) > 3:   # a compact SavedTensor (core/node.py): the run has not ended
            v = v[:3]
        elif type(v) is SavedTensor:       # the run has not ended
            v = None if v.data is None else (v.data, v.box, v.version)   # None: saved_tensors_hooks kept it
        if type(v) is tuple:               # (array, version counter, version when saved)
            data, box, version = v
            if box[0] != version:
                continue
            v = data
        if v is None:
            continue                       # not saved (no gradient needs it), or modified in place
        values[name] = v if type(v) is Summary else settled(keep(np.asarray(v)))
    return values


_RULE_NAMES = {}          # node class -> the names its derivative rule reads (ops/formulas.py)


_PLANS = {}               # node class -> (saved names, plain attr names, other names) its rule reads


def _plan(cls):
    """Where each name the rule of ``cls`` reads is found: in saved_values, as a plain
    attribute, or (index arrays, freed with the node) through ``_saved_<name>``."""
    wanted = _rule_names(cls)
    saved = set(getattr(cls, "saved", ()) or ()) if hasattr(cls, "save_plan") else set()
    attrs = set(getattr(cls, "attrs", ()) or ()) - set(getattr(cls, "saved_arrays", ()) or ()) if saved or \
        hasattr(cls, "save_plan") else set()
    return (tuple(n for n in wanted if n in saved), tuple(n for n in wanted if n in attrs and n not in saved),
            tuple(n for n in wanted if n not in saved and n not in attrs))


def reads_values(fn):
    """Does the derivative rule of node ``fn`` read saved values (so that a step
    of it has numbers to put in, when it was snapshotted)?"""
    return bool(_rule_names(type(fn)))


def _rule_names(cls):
    found = _RULE_NAMES.get(cls)
    if found is None:
        found = ()
        if isinstance(getattr(cls, "inputs", None), tuple):   # an autograd_teach op
            from ...ops import formulas
            try:
                found = tuple(sorted(formulas.names(cls)))
            except Exception:              # noqa: BLE001 - an op without readable rules
                found = ()
        _RULE_NAMES[cls] = found
    return found
