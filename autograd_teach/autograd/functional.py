"""torch.autograd.backward and torch.autograd.grad: check the roots and their
gradients (so that bad input fails before anything is touched), then hand
over to the engine."""
import numpy as np

from .. import engine
from ..size import Size
from ..tensor import Tensor


def _as_tuple(x):
    """A tensor, or any iterable of them (as PyTorch: a numpy array is a sequence of numbers)."""
    if x is None:
        return None
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _roots(outputs, grad_outputs):
    """(node, gradient array) per output, with PyTorch's checks and messages."""
    grads = (_as_tuple(grad_outputs) or (None,) * len(outputs))[:len(outputs)]   # PyTorch zips them
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if len(grads) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    roots = []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if not t.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = np.ones(t._data.shape, dtype=t._data.dtype)
        else:
            g = g._data
            if g.shape != t._data.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g.shape)} and "
                                   f"output[{i}] has a shape of {t.shape}.")
            g = g.astype(t._data.dtype, copy=False)
        roots.append((t._grad_edge()[0], g))
    return roots


def _no_create_graph(create_graph):
    if create_graph:
        raise NotImplementedError("autograd_teach computes gradients with numpy and cannot build a graph of "
                                  "the backward pass: create_graph=True (higher-order gradients) is not supported")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None, record=None):
    """Accumulate d(tensors)/d(leaf) into every leaf's .grad (or only into inputs)."""
    _no_create_graph(create_graph)
    roots = _roots(_as_tuple(tensors), grad_tensors)
    if inputs is None:
        engine.execute(roots, retain_graph=bool(retain_graph), recorder=record)
        return
    inputs = _as_tuple(inputs)
    capture = {t._grad_edge()[0]: None for t in inputs}
    engine.execute(roots, retain_graph=bool(retain_graph), accumulate=False, capture=capture, recorder=record)
    for t in inputs:
        g = capture[t._grad_edge()[0]]
        if g is not None:
            from ..engine import _accumulate
            _accumulate(t, g, [])


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None):
    """Return d(outputs)/d(inputs) without touching any .grad."""
    _no_create_graph(create_graph)
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = _roots(outputs, grad_outputs)
    capture = {t._grad_edge()[0]: None for t in inputs}
    engine.execute(roots, retain_graph=bool(retain_graph), accumulate=False, capture=capture)
    result = []
    for i, t in enumerate(inputs):
        g = capture[t._grad_edge()[0]]
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                               "Set allow_unused=True if this is the desired behavior.")
        result.append(None if g is None else Tensor._make(np.array(g, dtype=t._data.dtype)))
    return tuple(result)
