"""gradcheck: compare backward's gradients with finite differences.

For a function f of float64 tensors, the numerical Jacobian column for input
element j is (f(x + eps e_j) - f(x - eps e_j)) / 2 eps; the analytical row for
output element i is what backward gives for a one-hot gradient e_i. Like
torch.autograd.gradcheck, it returns True or raises with both Jacobians."""
import numpy as np

from ..grad_mode import no_grad
from ..tensor import Tensor
from .functional import grad as autograd_grad


class GradcheckError(RuntimeError):
    pass


def _outputs(fn, inputs):
    out = fn(*inputs)
    return out if isinstance(out, (tuple, list)) else (out,)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    for i in diff:
        if inputs[i].dtype.name != "float64":
            raise GradcheckError(f"Input #{i} requires gradient and is not a double precision floating point. "
                                 "gradcheck checks in float64: create it with dtype=torch.float64")
    # k is the output's position in func's result, which the perturbed calls index too
    outputs = [(k, o) for k, o in enumerate(_outputs(func, inputs)) if isinstance(o, Tensor) and o.requires_grad]
    for k, out in outputs:
        for i in diff:
            x = inputs[i]
            numerical = np.zeros((out.numel(), x.numel()))
            analytical = np.zeros_like(numerical)
            flat = x._data.reshape(-1)          # a view: perturb in place, restore after
            with no_grad():
                for j in range(x.numel()):
                    orig = flat[j]
                    flat[j] = orig + eps
                    plus = _outputs(func, inputs)[k]._data.astype(np.float64).reshape(-1)
                    flat[j] = orig - eps
                    minus = _outputs(func, inputs)[k]._data.astype(np.float64).reshape(-1)
                    flat[j] = orig
                    numerical[:, j] = (plus - minus) / (2 * eps)
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
