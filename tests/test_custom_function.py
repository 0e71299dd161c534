"""torch.autograd.Function: custom ops get PyTorch's node name, ctx API and errors."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2


class WrongCube(Cube):
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 2 * x ** 2          # a wrong derivative


def test_gradcheck_passes_a_correct_custom_op_and_catches_a_wrong_one():
    x = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    assert gradcheck(Cube.apply, (x,))
    assert not gradcheck(WrongCube.apply, (x,), raise_exception=False)


def test_node_name_ctx_and_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    assert type(y.grad_fn).__name__ == y.grad_fn.name() == "CubeBackward"
    assert y.grad_fn.needs_input_grad == (True,)
    assert y.grad_fn.next_functions[0][0].variable is x
    assert "grad_fn=<CubeBackward>" in repr(y)
    (y * 1).sum().backward()
    assert np.allclose(x.grad.numpy(), [3.0, 12.0])


def test_forward_is_not_recorded_and_no_grad_inputs_give_no_node():
    seen = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(torch.is_grad_enabled())
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    out = Probe.apply(torch.ones(2, requires_grad=True))
    assert seen == [False] and out.grad_fn.name() == "ProbeBackward"
    assert Probe.apply(torch.ones(2)).grad_fn is None


def test_saved_tensors_are_freed_and_version_checked():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.sum().backward()
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    c = w * 1
    y = Cube.apply(c)
    c.add_(1)                              # modifies the tensor Cube saved
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


# --- None from a custom backward above: a custom backward below gets zeros ---------

class _DropSecond(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, d):
        return a * 1 + d

    @staticmethod
    def backward(ctx, g):
        return g, None


def _below(materialize, got):
    class Below(torch.autograd.Function):
        @staticmethod
        def forward(ctx, c):
            ctx.set_materialize_grads(materialize)
            return c * 1

        @staticmethod
        def backward(ctx, g):
            got.append(g)
            return None if g is None else g * 2
    return Below


def test_a_custom_backward_below_a_none_gradient_gets_zeros():
    # PyTorch materializes the missing gradient (ctx.materialize_grads, True by default):
    # zeros shaped like the output, in its dtype; the leaf then gets a zero .grad.
    got = []
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    d = _below(True, got).apply(c).sum(1).float()
    _DropSecond.apply(a, d).sum().backward()
    assert len(got) == 1 and got[0].shape == (2, 3) and got[0].dtype == torch.float64
    assert got[0].tolist() == [[0.0] * 3] * 2
    assert c.grad.tolist() == [[0.0] * 3] * 2


def test_set_materialize_grads_false_gets_none():
    got = []
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    _DropSecond.apply(a, _below(False, got).apply(c)).sum().backward()
    assert got == [None] and c.grad is None


def test_a_custom_backward_below_a_none_gradient_with_create_graph():
    got = []
    a = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    ga, gc = torch.autograd.grad(_DropSecond.apply(a, _below(True, got).apply(c)).sum(), [a, c],
                                 create_graph=True)
    assert got[0].tolist() == [0.0, 0.0] and gc.tolist() == [0.0, 0.0] and ga.tolist() == [1.0, 1.0]
