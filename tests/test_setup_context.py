"""setup_context-style custom Functions and once_differentiable, off the happy path."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck
from autograd_teach.autograd.function import once_differentiable


class Mul(torch.autograd.Function):
    @staticmethod
    def forward(a, b, scale=1.0):
        return a * b * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b, scale = inputs
        ctx.save_for_backward(a, b)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b * ctx.scale, g * a * ctx.scale, None


def f64(*values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def test_gradcheck_and_gradgradcheck_in_float64():
    a, b = f64(0.5, -1.0, 2.0), f64(1.5, 0.25, -3.0)
    assert gradcheck(lambda a, b: Mul.apply(a, b, 2.0), (a, b))
    assert gradgradcheck(lambda a, b: Mul.apply(a, b, scale=-0.5), (a, b))


def test_one_tensor_given_twice_gets_both_gradients():
    a = f64(1.0, 2.0)
    Mul.apply(a, a).sum().backward()
    assert np.allclose(a.grad.numpy(), [2.0, 4.0])


def test_keyword_arguments_are_bound_to_forward_as_pytorch_does():
    a, b = f64(1.0), f64(2.0)
    y = Mul.apply(a, b=b, scale=3.0)
    y.backward()
    assert y.item() == 6.0 and a.grad.item() == 6.0 and b.grad.item() == 3.0
    with pytest.raises(TypeError, match="^got an unexpected keyword argument 'c'$"):
        Mul.apply(a, b, c=1)


def test_setup_context_may_mark_dirty_and_non_differentiable():
    class AddOne(torch.autograd.Function):
        @staticmethod
        def forward(x):
            x.add_(1)
            return x, x.argmax()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_dirty(inputs[0])
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, g, _):
            return g

    leaf = f64(1.0, 5.0)
    x = leaf * 1
    y, i = AddOne.apply(x)
    assert y is x and x.grad_fn.name() == "AddOneBackward" and not i.requires_grad
    assert x._version == 2 and i.item() == 1     # add_ and mark_dirty each bump it, as in PyTorch
    (y * y).sum().backward()
    assert np.allclose(leaf.grad.numpy(), [4.0, 12.0])


def test_a_forward_with_ctx_and_a_setup_context_is_refused():
    class Both(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

    with pytest.raises(TypeError, match="^missing a required argument: 'x'$"):
        Both.apply(torch.ones(1))


class NumpyCube(torch.autograd.Function):
    """A backward in numpy: it cannot be differentiated, and says so."""
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return torch.from_numpy(3 * x.detach().numpy() ** 2 * g.detach().numpy())


def test_once_differentiable_runs_once_and_refuses_twice():
    x = f64(1.0, -2.0)
    assert gradcheck(NumpyCube.apply, (x,))
    g, = torch.autograd.grad((NumpyCube.apply(x) ** 2).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "torch::autograd::Error" and "grad_fn=<Error>" in repr(g)
    with pytest.raises(RuntimeError, match="^trying to differentiate twice a function that was marked "
                                           "with @once_differentiable$"):
        g.sum().backward()
    assert x.grad is None          # nothing half-written


def test_once_differentiable_under_plain_backward_leaves_no_error_node():
    x = f64(1.0, -2.0)
    y = NumpyCube.apply(x) * x
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), [4.0, -32.0])     # d(x^4)/dx


def test_once_differentiable_keeps_the_name_and_docstring():
    assert NumpyCube.backward.__name__ == "backward"
