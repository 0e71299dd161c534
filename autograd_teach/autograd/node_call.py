"""``grad_fn(*grads)``: one node's backward, called by hand, as PyTorch allows.

PyTorch's ``Node.__call__`` runs a node's backward on the gradients of its
outputs (one argument per output) and returns what it sends along each
``next_functions`` edge: a Tensor when there is one edge, a tuple otherwise,
None where an input needs no gradient. It runs no hooks and frees nothing.
An ``AccumulateGrad`` adds what it gets into its leaf's ``.grad`` and
returns ``()``. With grad mode on, the backward's own ops are recorded (its
docstring's rule, on Tensors), as PyTorch records its formulas. A learner's
own engine calls each node this way (lesson 11); golden ``node_call``.

One difference: each gradient comes back summed to its input's shape, which
PyTorch's engine does only after the call (``validate_outputs``).

The core's ``Node.__call__`` calls ``Node.call``, which this module sets: the
core stays small, and the machinery a learner never needs to read lives here.
"""
from ..core import grad_mode
from ..core.node import Node
from ..core.ops.multi_output import MultiOutputNode, Slots
from ..core.accumulate_grad import AccumulateGrad, accumulate_grad, accumulate_grad_tensor


def call(node, *grads):
    """``node(*grads)``: see the module's docstring."""
    if len(grads) != node.num_outputs:
        raise TypeError(f"expected {node.num_outputs} arguments, got {len(grads)} instead")
    on_tensors = grad_mode.is_grad_enabled()
    grads = [g if on_tensors or g is None else g._data for g in grads]
    out = _backward(node, grads[0] if node.num_outputs == 1 else Slots(grads), on_tensors)
    out = tuple(g if g is None or on_tensors else node.wrap(g) for g in out)
    return out[0] if len(out) == 1 else out


def _backward(node, grad, on_tensors):
    """What the engine's Node.run computes for one node, without hooks or freeing."""
    if isinstance(node, AccumulateGrad):
        if grad is not None:
            (accumulate_grad_tensor if on_tensors else accumulate_grad)(node.variable, grad, [])
        return ()
    if isinstance(node, MultiOutputNode) and type(grad) is not Slots:
        grad = Slots(node.slots_of(grad))    # a node of this kind with one output
    return node.call_backward_on_tensors(grad) if on_tensors else node.call_backward(grad)


Node.call = call
