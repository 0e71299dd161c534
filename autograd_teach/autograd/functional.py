"""torch.autograd.backward and torch.autograd.grad: check the roots and their
gradients (so that bad input fails before anything is touched), then hand
over to the engine. `backward` lives beside Tensor.backward, in tensor.py."""
import numpy as np

from .. import engine
from ..tensor import Tensor, as_tuple, backward, gradient_roots  # noqa: F401


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None):
    """Return d(outputs)/d(inputs) without touching any .grad.

    create_graph=True records the backward, so the gradients returned have a
    grad_fn and can be differentiated again (d2y/dx2, Hessian-vector
    products); retain_graph defaults to create_graph."""
    retain_graph = create_graph if retain_graph is None else retain_graph
    outputs, inputs = as_tuple(outputs), as_tuple(inputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = gradient_roots(outputs, grad_outputs, create_graph)
    capture = {t._grad_edge()[0]: None for t in inputs}
    engine.execute(roots, retain_graph=bool(retain_graph), accumulate=False, capture=capture,
                   create_graph=create_graph)
    result = []
    for i, t in enumerate(inputs):
        g = capture[t._grad_edge()[0]]
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                               "Set allow_unused=True if this is the desired behavior.")
        if g is None or not create_graph:
            g = None if g is None else Tensor._wrap(np.array(g, dtype=t._data.dtype))
        result.append(g)   # with create_graph, the Tensor the backward built, history and all
    return tuple(result)
