"""torch.autograd.backward and torch.autograd.grad: check the roots and their
gradients (so that bad input fails before anything is touched), then hand
over to the engine. Tensor.backward calls this module's `backward` (wired in
below its helpers, as node_call.py wires in Node.call).

As in PyTorch, this is also torch.autograd.functional: `jacobian` and
`hessian`, built from `grad` one output element at a time (the hessian is the
jacobian of a jacobian computed with create_graph=True); `vjp` and `vhp`, one
call of grad each; and `jvp` and `hvp`, forward-mode products computed, as
PyTorch computes them, with the double-backward trick: the gradient of
u -> J^T u (linear in u) with respect to u, applied to v, is J v."""
import warnings

import numpy as np

from ..core import engine, grad_mode, tensor as tensor_module
from .. import ops as O
from ..compat import messages
from ..compat.creation import zeros_like
from ..compat.more_functions import stack
from ..compat.size import Size
from ..core.accumulate_grad import accumulate_grad
from ..core.tensor import Tensor


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """torch.autograd.backward: accumulate d(tensors)/d(leaf) into every leaf's
    .grad (or only into inputs). create_graph=True records the backward too,
    so .grad can be differentiated again; retain_graph defaults to it."""
    retain_graph = create_graph if retain_graph is None else retain_graph
    roots = gradient_roots(as_tuple(tensors), grad_tensors, create_graph)
    if create_graph:
        # Attributed to this line, so Python's default filter shows it once, as PyTorch does (TORCH_WARN_ONCE)
        warnings.warn(messages.CREATE_GRAPH_CYCLE_WARNING, UserWarning, stacklevel=1)
    if inputs is None:
        engine.execute(roots, retain_graph=bool(retain_graph), create_graph=create_graph, wrap=Tensor._wrap)
        return
    inputs = as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    capture = {t._grad_edge()[0]: None for t in inputs}
    leaves = [t._grad_edge()[0] for t in inputs if t.grad_fn is None]   # their AccumulateGrad runs, as in PyTorch
    engine.execute(roots, retain_graph=bool(retain_graph), capture=capture, create_graph=create_graph,
                   wrap=Tensor._wrap, run=leaves)
    for t in inputs:
        g = O.multi_output.captured(capture, t) if t.grad_fn is not None else None   # a non-leaf: into its .grad
        if g is not None:
            with grad_mode.set_grad_enabled(bool(create_graph)):
                accumulate_grad(t, g, [])


def as_tuple(x):
    """A tensor, or any iterable of them (as PyTorch: a numpy array is a sequence of numbers)."""
    if x is None:
        return None
    return (x,) if isinstance(x, Tensor) else tuple(x)


def gradient_roots(outputs, grad_outputs, create_graph=False):
    """(node, gradient) per output, with PyTorch's checks and messages: numpy
    arrays, or with create_graph Tensors (a given grad_output itself, so that
    a graph through it, as in a Hessian-vector product, is kept)."""
    grads = (as_tuple(grad_outputs) or (None,) * len(outputs))[:len(outputs)]   # PyTorch zips them
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if len(grads) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    roots = []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        node = t.grad_fn if t.grad_fn is not None else t._grad_edge()[0]    # a leaf: its AccumulateGrad
        grad = _root_gradient(i, t, g)
        if create_graph:
            given = _root_tensor(t, g)
            grad = given if given is not None else Tensor._wrap(grad)
        if node.num_outputs != 1:    # output k of a node with several outputs starts in that node's slot k
            grad = node.slot(t._output_nr, grad)
        roots.append((node, grad))
    return roots


def _root_tensor(t, g):
    """The given gradient as a Tensor of t's dtype (None: none was given)."""
    if g is None:
        return None
    return g if g.dtype is t.dtype else g.to(t.dtype)


def _root_gradient(i, t, g):
    if not t._requires_grad:
        raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if g is None:
        if t.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        one = np.empty(t._data.shape, t._data.dtype)    # np.ones, without its Python frame (backward() of a loss)
        one.fill(1)
        return one
    if g._data.shape != t._data.shape:
        raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g._data.shape)} and "
                           f"output[{i}] has a shape of {t.shape}.")
    return g._data if g._data.dtype is t._data.dtype else g._data.astype(t._data.dtype)


tensor_module.autograd_backward = backward    # Tensor.backward (the core cannot import this module)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None,
         is_grads_batched=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any .grad.

    create_graph=True records the backward, so the gradients returned have a
    grad_fn and can be differentiated again (d2y/dx2, Hessian-vector
    products); retain_graph defaults to create_graph. is_grads_batched=True:
    the first dim of each grad_output is a batch, one backward per row
    (PyTorch vmaps them; the results are the same), stacked.
    materialize_grads=True: zeros, not None, for an input the outputs do not use."""
    if materialize_grads:
        if allow_unused is False:
            raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                             "allow_unused=False.")
        result = grad(outputs, inputs, grad_outputs, retain_graph, create_graph, True, is_grads_batched)
        return tuple(zeros_like(x, requires_grad=create_graph) if g is None else g
                     for g, x in zip(result, as_tuple(inputs)))
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)
    retain_graph = create_graph if retain_graph is None else retain_graph
    outputs, inputs = as_tuple(outputs), as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
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



def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused):
    outputs, inputs = as_tuple(outputs), as_tuple(inputs)
    grads = as_tuple(grad_outputs) or (None,) * len(outputs)
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            continue
        if g[0].shape != out.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                "dimension. The sizes of the remaining dimensions are expected to match the shape of corresponding "
                f"output, but a mismatch was detected: grad_output[{i}] has a shape of {g[0].shape[1:]} "   # (sic)
                f"and output[{i}] has a shape of {out.shape}. If you only want some tensors in `grad_output` to be "
                "considered batched, consider using vmap.")
    batch = next((len(g) for g in grads if g is not None), 0)
    rows = [grad(outputs, inputs, [None if g is None else g[b] for g in grads],
                 retain_graph=True if b < batch - 1 else retain_graph, create_graph=create_graph,
                 allow_unused=allow_unused) for b in range(batch)]
    if not rows:    # no grad_output given: the usual error (only a scalar output may go without one)
        return grad(outputs, inputs, None, retain_graph, create_graph, allow_unused)
    return tuple(None if column[0] is None else stack(list(column)) for column in zip(*rows))

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


# -- vector products: one backward (vjp, vhp) or the double-backward trick (jvp, hvp) --------

def _preprocess(inputs, create_graph, need_graph):
    """New tensors for the graph to start at (PyTorch's _grad_preprocess)."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(need_graph)
                 for x in inputs)


def _postprocess(tensors, create_graph):
    return tensors if create_graph else tuple(t.detach() for t in tensors)


def _tuple_postprocess(res, is_tuple):
    return res if is_tuple else res[0]


def _vector(v, like, is_like_tuple, name, create_graph, none_message):
    """v checked against `like` (the inputs or the outputs), with PyTorch's messages."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _as_tuple(v, "v", name)
    v = _preprocess(v, create_graph, need_graph=False)
    if len(v) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}."
                           if is_like_tuple else "The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, like)):
        if a.shape != b.shape:
            raise RuntimeError(f"{f'Entry {i} in ' if is_like_tuple else ''}v has invalid size: should be "
                               f"{b.shape} but got {a.shape}.")
    return v


def _grad_or_none(outputs, inputs, grad_outputs=None, create_graph=False):
    """grad() of the outputs that require grad; (None, ...) if none does
    (PyTorch's _autograd_grad)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return grad([o for o, _ in pairs], inputs, [g for _, g in pairs], create_graph=create_graph, allow_unused=True)


_INDEPENDENT = {   # the strict-mode messages of _fill_in_zeros, per stage
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
            "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in "
                  "strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
                   "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode when create_graph=True.")
        out.append(g)
    return tuple(out)


def _check_requires_grad(tensors, what, strict):
    """Strict mode: each gradient must exist and depend on the inputs (PyTorch's messages)."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError({
                "grad_inputs": f"The gradient with respect to input {i} is independent of the inputs of the "
                               "user-provided function. This is not allowed in strict mode.",
                "jacobian": "While computing the hessian, found that the jacobian of the user-provided function "
                            f"with respect to input {i} is independent of the input. This is not allowed in strict "
                            "mode. You should ensure that your function is twice differentiable and that the "
                            "jacobian depends on the inputs (this would be violated by a linear function for "
                            "example).",
                "hessian": f"The hessian of the user-provided function with respect to input {i} is independent of "
                           "the input. This is not allowed in strict mode. You should ensure that your function is "
                           "thrice differentiable and that the hessian depends on the inputs."}[what])


def _call(func, inputs, name, strict):
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", name)
    _check_outputs_require_grad(outputs, strict)
    return is_outputs_tuple, outputs


def _last_backward(outputs, wrt, v, refs, strict, create_graph, stage):
    """The final grad() of a product, in the caller's grad mode unless a graph
    is asked for; a None (no path) becomes zeros like refs."""
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        return _fill_in_zeros(_grad_or_none(outputs, wrt, v, create_graph), refs, strict, create_graph, stage)


def _returned(outputs, is_outputs_tuple, result, is_result_tuple, create_graph):
    return (_tuple_postprocess(_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_postprocess(result, create_graph), is_result_tuple))


_ONE_ELEMENT_INPUT = ("The vector v can only be None if the input to the user-provided function is a single Tensor "
                      "with a single element.")


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product, one backward pass
    with v as the gradient of the outputs (what .backward(v) computes)."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _vector(v, outputs, is_outputs_tuple, "vjp", create_graph,
                    "The vector v can only be None if the user-provided function returns a single Tensor with a "
                    "single element.")
    result = _last_backward(outputs, inputs, v, inputs, strict, create_graph, "back")
    return _returned(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product (forward mode), by the
    double-backward trick: g(u) = J^T u is computed with u requiring grad and
    create_graph=True; g is linear in u, so the vjp of g with v is J v."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _preprocess(inputs, create_graph, need_graph=True)
        v = _vector(v, inputs, is_inputs_tuple, "jvp", create_graph, _ONE_ELEMENT_INPUT)
        is_outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        u = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _grad_or_none(outputs, inputs, u, create_graph=True)     # J^T u, a graph in u
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    result = _last_backward(grad_inputs, u, v, outputs, strict, create_graph, "back_trick")
    return _returned(outputs, is_outputs_tuple, result, is_outputs_tuple, create_graph)


def _gradient_of_scalar(func, inputs, v, create_graph, strict, name):
    """vhp and hvp's common start: the inputs, v, the single-element output and
    its gradient, computed with create_graph=True so it can be differentiated."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", name)
    inputs = _preprocess(inputs, create_graph, need_graph=True)
    v = _vector(v, inputs, is_inputs_tuple, name, create_graph, _ONE_ELEMENT_INPUT)
    is_outputs_tuple, outputs = _call(func, inputs, name, strict)
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
    jac = _grad_or_none(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function with one output element: the vjp
    of its gradient."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "vhp")
    result = _last_backward(jac, inputs, v, inputs, strict, create_graph, "double_back")
    return _returned(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function with one output element, by the
    double-backward trick on its gradient (as PyTorch; H is symmetric for a
    twice continuously differentiable function, so this equals vhp)."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "hvp")
        u = tuple(zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _grad_or_none(jac, inputs, u, create_graph=True)    # H^T u, a graph in u
        _check_requires_grad(jac, "hessian", strict)
    result = _last_backward(double_back, u, v, inputs, strict, create_graph, "double_back_trick")
    return _returned(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)
