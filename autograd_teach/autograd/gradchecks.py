"""gradcheck: compare backward's gradients with finite differences.

For a function f of float64 tensors, the numerical Jacobian column for input
element j is (f(x + eps e_j) - f(x - eps e_j)) / 2 eps; the analytical row for
output element i is what backward gives for a one-hot gradient e_i. Like
torch.autograd.gradcheck, it returns True or raises with both Jacobians.
An output that does not require grad must not move either: its numerical
Jacobian must be zero.

gradgradcheck checks second derivatives the same way: it runs gradcheck on
the function (inputs, grad_outputs) -> the gradients of f w.r.t. its inputs,
computed with create_graph=True, so the backward graph itself is what is
differentiated and compared with finite differences of the gradients.

As PyTorch's, it runs on float32 inputs too, with a warning: float32's
rounding is far above the default tolerances, so the check will likely fail.
Check in float64."""
import warnings

import numpy as np

from ..core.tensor import Tensor
from .functional import grad as autograd_grad


class GradcheckError(RuntimeError):
    pass


def _outputs(fn, inputs):
    out = fn(*inputs)
    return out if isinstance(out, (tuple, list)) else (out,)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    for i in diff:
        if inputs[i].dtype.name != "float64":    # PyTorch runs it anyway: float32's rounding will likely fail it
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating "
                          "point or complex. ", UserWarning, stacklevel=1)
    # k is the output's position in func's result, which the perturbed calls index too
    all_outputs = [(k, o) for k, o in enumerate(_outputs(func, inputs)) if isinstance(o, Tensor)]
    outputs = [(k, o) for k, o in all_outputs if o.requires_grad]
    for k, out in all_outputs:
        if not out.requires_grad and out.is_floating_point():
            for i in diff:
                if not np.allclose(_numerical(func, inputs, k, inputs[i], eps), 0, rtol=rtol, atol=atol):
                    if not raise_exception:
                        return False
                    raise GradcheckError("Numerical gradient for function expected to be zero")
    for k, out in outputs:
        for i in diff:
            x = inputs[i]
            analytical = np.zeros((out.numel(), x.numel()))
            numerical = _numerical(func, inputs, k, x, eps)
            for r in range(out.numel()):
                onehot = np.zeros(out.numel())
                onehot[r] = 1.0
                g = Tensor._wrap(onehot.reshape(out._data.shape).astype(out._data.dtype))
                (gx,) = autograd_grad(out, x, grad_outputs=g, retain_graph=True, allow_unused=True)
                if gx is not None:
                    analytical[r] = gx._data.reshape(-1)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                     f"numerical:{numerical}\nanalytical:{analytical}\n")
    return True


def _numerical(func, inputs, k, x, eps):
    """Central differences of output k w.r.t. each element of input x."""
    flat = x._data.reshape(-1)          # a view: perturb in place, restore after
    columns = []
    for j in range(x.numel()):
        orig = flat[j]
        flat[j] = orig + eps
        plus = _outputs(func, inputs)[k]._data.astype(np.float64).reshape(-1)
        flat[j] = orig - eps
        minus = _outputs(func, inputs)[k]._data.astype(np.float64).reshape(-1)
        flat[j] = orig
        columns.append((plus - minus) / (2 * eps))
    return np.stack(columns, axis=1) if columns else np.zeros((_outputs(func, inputs)[k].numel(), 0))


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    """Check the second derivatives of func by finite differences: gradcheck of
    (inputs, grad_outputs) -> autograd.grad(func(inputs), inputs, grad_outputs,
    create_graph=True). Without grad_outputs, random float64 ones are drawn
    (from a fixed seed: the check is the same every run)."""
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)

    def differentiable(tensors):
        return [t for t in tensors if isinstance(t, Tensor) and t.requires_grad]

    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            Tensor._wrap(rng.standard_normal(o.shape).astype(o._data.dtype)).requires_grad_()
            for o in differentiable(_outputs(func, inputs)))
    grad_outputs = tuple(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else (grad_outputs,)
    n = len(grad_outputs)

    def gradients(*args):
        ins, gos = args[:len(args) - n], args[len(args) - n:]
        grads = autograd_grad(differentiable(_outputs(func, ins)), differentiable(ins), gos,
                              create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(gradients, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
