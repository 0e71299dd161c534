"""What a step keeps of a leaf's .grad after its AccumulateGrad ran: a copy
(or the gradient the step got, when .grad is just a copy of it), and whether
the leaf had no .grad before."""
import operator

from ...core.accumulate_grad import AccumulateGrad, has_post_accumulate_hooks
from .limits import keep, numpy_of


def grad_was_none(node):
    """After an AccumulateGrad step: True when the leaf had no .grad before it.
    A .grad the step made is a new tensor, version 0; one it added into (or one
    zeroed in place, x.grad.zero_()) has been written, so its version is past 0."""
    grad = getattr(getattr(node, "variable", None), "grad", None) if hasattr(node, "variable") else None
    if grad is None:
        return False
    box = getattr(grad, "_version_box", None)
    return (box[0] if box is not None else grad._version) == 0


def only_rules_ran(nodes):
    """True when no code but our ops' derivative rules and AccumulateGrad ran
    in the run: no hook on any node or leaf (post-accumulate), no custom
    Function (module backward hooks are both). Then nothing but AccumulateGrad
    wrote a leaf's .grad."""
    for cls in set(map(type, nodes)):
        if cls is not AccumulateGrad and not isinstance(getattr(cls, "inputs", None), tuple):
            return False
    leaves = [node.variable for node in nodes if type(node) is AccumulateGrad]
    return not any(map(any, map(_HOOKS, nodes))) and not any(map(has_post_accumulate_hooks, leaves))


_HOOKS = operator.attrgetter("tensor_pre_hooks", "pre_hooks", "post_hooks")


def made_from_sent(leaf, summary):
    """Is the leaf's .grad, as the run left it, the one its AccumulateGrad made
    from the gradient ``summary`` holds (a copy of it: np.astype to the same
    dtype), untouched since? It had none before (grad_was_none: version 0),
    and nothing but AccumulateGrad wrote .grad (only_rules_ran). Holding that
    gradient is then exact, and stays exact: later writes into .grad (the next
    backward adds into it, x.grad.zero_()) go into the leaf's own array, never
    into one the engine sent."""
    grad = leaf.grad
    if grad is None or grad.grad_fn is not None or not leaf._requires_grad:
        return False
    return grad._data.shape == summary.shape and grad._data.dtype == summary.dtype


def leaf_grad_copy(node):
    """A copy of the leaf's .grad after an AccumulateGrad step (None for another node)."""
    cls = type(node)
    accumulates = _ACCUMULATES.get(cls)
    if accumulates is None:           # asked once per class: a missing attribute is slow to look up
        accumulates = _ACCUMULATES[cls] = hasattr(node, "variable")
    var = node.variable if accumulates else None
    if var is None:
        return None
    data = getattr(getattr(var, "_grad", None), "_data", None)   # our leaf: its array, without a Tensor made
    if data is not None:
        return keep(data)
    grad = getattr(var, "grad", None)     # a PyTorch leaf (its _grad is a torch.Tensor: no _data)
    return None if grad is None else keep(numpy_of(grad), owned=True)   # numpy_of copied it


_ACCUMULATES = {}         # node class -> True for AccumulateGrad (it has .variable)
