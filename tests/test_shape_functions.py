"""narrow, movedim, swapaxes, broadcast_to, atleast_*d, hstack/vstack, diff
(compat/shape_functions.py): each is a few existing ops, so their gradients are the
chain of those; checked by finite differences in float64, first and second
order, beside the golden program that compares them with PyTorch
(tests/golden/programs/shape_functions.py)."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)


def leaf(*shape):
    return torch.tensor(RNG.standard_normal(shape), dtype=torch.float64, requires_grad=True)


CASES = {
    "narrow": (lambda x: x.narrow(1, 1, 2), [(3, 4)]),
    "narrow negative start": (lambda x: torch.narrow(x, 0, -2, 2), [(3, 4)]),
    "movedim": (lambda x: x.movedim((0, 2), (2, 0)), [(2, 3, 4)]),
    "moveaxis": (lambda x: torch.moveaxis(x, 0, -1), [(2, 3, 4)]),
    "swapaxes": (lambda x: x.swapaxes(0, 2), [(2, 3, 4)]),
    "broadcast_to": (lambda x: x.broadcast_to((3, 2, 4)), [(2, 1)]),
    "atleast_2d": (lambda x: torch.atleast_2d(x) * 2, [(4,)]),
    "hstack": (lambda a, b: torch.hstack([a, b]), [(3,), (2,)]),
    "hstack 2-D": (lambda a, b: torch.hstack((a, b)), [(2, 3), (2, 1)]),
    "vstack": (lambda a, b: torch.vstack([a, b]), [(3,), (2, 3)]),
    "diff": (lambda x: torch.diff(x), [(5,)]),
    "diff n=3 dim 0": (lambda x: x.diff(n=3, dim=0), [(5, 2)]),
    "diff prepend append": (lambda x, p, a: torch.diff(x, prepend=p, append=a), [(4,), (2,), (1,)]),
    "diff n=0": (lambda x: torch.diff(x, n=0), [(3,)]),
}


@pytest.mark.parametrize("name", CASES)
def test_gradients_by_finite_differences(name):
    fn, shapes = CASES[name]
    inputs = [leaf(*s) for s in shapes]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_a_shared_input_in_a_loop_gets_every_path():
    """x narrowed and stacked with what it became, ten times: x[:2] flows
    through every step, x[2:] is used again at each step but only the last
    use reaches the output."""
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x
    for _ in range(10):
        y = torch.hstack([y.narrow(0, 0, 2), x.narrow(0, 2, 2)]) * 0.5
    y.sum().backward()
    assert x.grad.tolist() == [0.5 ** 10] * 2 + [0.5] * 2      # x[2:] counts only in the last step


def test_empty_and_edge_sizes():
    x = torch.zeros(0, 3, requires_grad=True)
    assert x.narrow(0, 0, 0).shape == (0, 3) and torch.diff(x, dim=0).shape == (0, 3)
    assert torch.diff(torch.ones(1)).shape == (0,) and torch.diff(torch.ones(3), n=7).shape == (0,)
    assert x.narrow(1, 3, 0).shape == (0, 0)     # start == size is allowed, as in PyTorch
    with pytest.raises(RuntimeError, match=r"start \(3\) \+ length \(1\) exceeds dimension size \(3\)"):
        x.narrow(1, 3, 1)


def test_narrow_takes_0d_tensors_for_start_and_length():
    x = torch.arange(12.0).reshape(3, 4)
    assert x.narrow(1, torch.tensor(1), torch.tensor(2)).tolist() == x.narrow(1, 1, 2).tolist()


def test_diff_of_bools_is_logical_xor_as_in_pytorch():
    """Bools cannot be subtracted: diff says whether neighbours differ."""
    b = torch.tensor([True, False, False, True, True])
    assert torch.diff(b).tolist() == [True, False, True, False] and torch.diff(b).dtype == torch.bool
    assert torch.diff(b, n=2).tolist() == [True, True, True]
    assert torch.diff(b, prepend=torch.tensor([False])).tolist() == [True, True, False, True, False]
    assert torch.diff(b.reshape(1, 5).expand(2, 5), dim=0).tolist() == [[False] * 5]
    assert torch.diff(b, n=9).shape == (0,)
    assert torch.diff(b, prepend=torch.tensor([1.0])).tolist() == [0.0, -1.0, 0.0, 1.0, 0.0]   # float: subtraction
