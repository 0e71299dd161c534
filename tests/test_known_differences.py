"""What still differs from PyTorch on purpose, pinned so that a change is seen
(docs/float32.md, "What is still different, and why").

The sign of a zero where maximum, minimum or clamp with tensor bounds meet
two zeros of opposite signs: PyTorch's scalar loop keeps the first operand,
its vector loop the second, so its answer depends on the element's position
and on the CPU's vector width. The package keeps the first operand at every
position (PyTorch's answer for tensors shorter than two vectors), on every
machine; only the sign of that zero can differ, and only in long tensors.
"""
import numpy as np

import autograd_teach as torch


def signs(t):
    return "".join("-" if np.signbit(v) else "+" for v in t.detach().numpy().reshape(-1))


def test_of_two_opposite_zeros_the_first_is_kept_at_every_position():
    for n in (5, 16, 33):       # torch 2.13 on an AVX-512 machine: as here for 5, the second operand's sign past 16
        x = torch.tensor([-0.0, 0.0] * n)
        zeros, minus_zeros = torch.zeros(2 * n), -torch.zeros(2 * n)
        assert signs(torch.maximum(x, zeros)) == "-+" * n
        assert signs(torch.maximum(zeros, x)) == "+" * 2 * n
        assert signs(torch.minimum(x, minus_zeros)) == "-+" * n
        assert signs(torch.minimum(minus_zeros, x)) == "-" * 2 * n
        assert signs(x.clamp(zeros, zeros + 1)) == "-+" * n
        assert signs(x.clamp_min(zeros)) == signs(x.clamp_max(minus_zeros)) == "-+" * n


def test_nan_wins_on_either_side():
    a, b = torch.tensor([float("nan"), 1.0, -0.0]), torch.tensor([1.0, float("nan"), 0.0])
    assert str(torch.maximum(a, b).tolist()) == str(torch.minimum(a, b).tolist()) == "[nan, nan, -0.0]"
    assert torch.maximum(torch.tensor([3, 1]), torch.tensor([2, 2])).tolist() == [3, 2]


def test_the_values_and_gradients_around_them_are_pytorchs():
    x = torch.tensor([-0.0, 0.0, -1.0, 1.0], requires_grad=True)
    y = torch.maximum(x, torch.zeros(4))
    (g,) = torch.autograd.grad(y, x, torch.ones(4))
    assert y.tolist() == [0.0, 0.0, 0.0, 1.0] and g.tolist() == [0.5, 0.5, 0.0, 1.0]   # ties share, as PyTorch's


def test_clamp_with_number_bounds_keeps_minus_zero_as_pytorch_does_everywhere():
    x = torch.tensor([-0.0, 0.0] * 20)
    assert signs(x.clamp(min=0.0)) == "-+" * 20
    assert signs(x.clamp(-1.0, 1.0)) == "-+" * 20
    assert signs(torch.nn.functional.elu(x)) == "-+" * 20
