"""torch.autograd.backward and torch.autograd.grad: check the roots and their
gradients (so that bad input fails before anything is touched), then hand
over to the engine. `backward` lives beside Tensor.backward, in tensor.py.

As in PyTorch, this is also torch.autograd.functional: `jacobian` and
`hessian`, built from `grad` one output element at a time (the hessian is the
jacobian of a jacobian computed with create_graph=True)."""
import numpy as np

from .. import engine, grad_mode
from .. import ops as O
from ..more_functions import stack
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
                   create_graph=create_graph, wrap=Tensor._wrap)
    result = []
    for i, t in enumerate(inputs):
        g = O.multi_output.captured(capture, t)     # output k of a node with several outputs: slot k
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                               "Set allow_unused=True if this is the desired behavior.")
        if g is None or not create_graph:
            g = None if g is None else Tensor._wrap(np.array(g, dtype=t._data.dtype))
        result.append(g)   # with create_graph, the Tensor the backward built, history and all
    return tuple(result)


# -- torch.autograd.functional ------------------------------------------------------

def _as_tuple(x, arg_name, fn_name):
    """(was it a tuple, the tensors as a tuple), with PyTorch's TypeError."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                            f"but the {where} has type {type(el)}.")
    return is_tuple, items


def _unpack(res, is_outputs_tuple, is_inputs_tuple):
    if not is_inputs_tuple:
        res = tuple(per_output[0] for per_output in res)
    return res if is_outputs_tuple else res[0]


def _check_outputs_require_grad(outputs, strict):
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The "
                                   "outputs must be computed in a differentiable manner from the input when "
                                   "running in strict mode.")


def _stack_rows(rows, shape):
    """The rows (tensors of one shape) stacked along a new first dim, then
    viewed as `shape`: torch.stack(rows).view(shape), as PyTorch does, so that
    a graph through the rows is kept (StackBackward0)."""
    return stack(rows).view(shape)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of func at inputs: d out[i] / d input[j], of shape
    out.shape + input.shape, one row (one output element) per call of grad.
    Tuples of inputs or outputs give tuples (of tuples) of Jacobians."""
    if strategy != "reverse-mode" or vectorize:
        raise NotImplementedError("autograd_teach: jacobian computes row by row in reverse mode only "
                                  "(vectorize=False, strategy='reverse-mode')")
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        # new tensor objects, so that the graph starts at them (PyTorch's _grad_preprocess)
        inputs = tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
                       for x in inputs)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_outputs_require_grad(outputs, strict)
        result = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.numel()):
                vj = (grad(flat[j], inputs, retain_graph=True, create_graph=create_graph, allow_unused=True)
                      if out.requires_grad else (None,) * len(inputs))
                for k, (g, x) in enumerate(zip(vj, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of "
                                               f"input {k}. This is not allowed in strict mode.")
                        g = Tensor._wrap(np.zeros_like(x._data))
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError("The jacobian of the user-provided function is independent of input "
                                           f"{i}. This is not allowed in strict mode when create_graph=True.")
                    rows[k].append(g)
            result.append(tuple(
                _stack_rows(r, tuple(out.shape) + tuple(x.shape)) if r
                else Tensor._wrap(np.zeros(tuple(out.shape) + tuple(x.shape), dtype=x._data.dtype))
                for r, x in zip(rows, inputs)))
        if not create_graph:
            result = [tuple(j.detach() for j in per_output) for per_output in result]
        return _unpack(tuple(result), is_outputs_tuple, is_inputs_tuple)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function with one output element: the jacobian of its
    gradient, which is computed with create_graph=True so that it can be
    differentiated again."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def single_output(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_outputs_require_grad(t_out, strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        jac = jacobian(single_output, inp, create_graph=True)
        if strict:
            for i, j in enumerate(jac):
                if not j.requires_grad:
                    raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided "
                                       f"function with respect to input {i} is independent of the input. This is "
                                       "not allowed in strict mode. You should ensure that your function is twice "
                                       "differentiable and that the jacobian depends on the inputs (this would be "
                                       "violated by a linear function for example).")
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize)
    return _unpack(res, is_inputs_tuple, is_inputs_tuple)
