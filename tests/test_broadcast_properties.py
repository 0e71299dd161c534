"""Broadcasting, as properties over random shapes (Hypothesis).

For any two broadcast-compatible shapes and every binary op:
  * the output has the broadcast shape,
  * each input's gradient has that input's shape,
  * it equals the reference: the local derivative, broadcast to the output,
    times the upstream gradient, summed over every output position that read
    that input element (computed by an explicit loop over output positions,
    independent of the core's `unbroadcast`), and finite differences agree.
Broadcasting itself (result shape, or PyTorch's exact message for shapes
that do not broadcast) is checked against tests/golden/broadcast.json: 400
seeded random shape pairs recorded from torch 2.13 by
scripts/record_broadcast_goldens.py.

Examples are derandomized so CI sees the same shapes every run.
"""
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autograd_teach as torch
from autograd_teach.autograd import gradcheck
from autograd_teach.core.node import unbroadcast

pytestmark = pytest.mark.filterwarnings("ignore:Using a target size")

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

dims = st.lists(st.integers(1, 3), min_size=0, max_size=4)


@st.composite
def compatible_pair(draw):
    """Two shapes that broadcast to `out`: each keeps a suffix of out's dims
    and may replace any of them by 1."""
    out = draw(dims)

    def one():
        keep = draw(st.integers(0, len(out)))
        tail = out[len(out) - keep:]
        return tuple(1 if draw(st.booleans()) else s for s in tail)
    return one(), one()


# Recorded from torch 2.13 (scripts/record_broadcast_goldens.py): for each pair
# of shapes, the shape of torch.ones(a) + torch.ones(b) or the RuntimeError's
# message; torch gave the same for every op in GOLDEN["ops"].
GOLDEN = json.loads((Path(__file__).parent / "golden" / "broadcast.json").read_text())


# op name -> (forward on tensors, local derivatives d out/d a and d out/d b on broadcast numpy arrays)
OPS = {
    "add": (lambda a, b: a + b, lambda a, b: (np.ones_like(a), np.ones_like(b))),
    "add_alpha": (lambda a, b: a.add(b, alpha=3), lambda a, b: (np.ones_like(a), np.full_like(b, 3.0))),
    "sub": (lambda a, b: a - b, lambda a, b: (np.ones_like(a), -np.ones_like(b))),
    "sub_alpha": (lambda a, b: a.sub(b, alpha=2), lambda a, b: (np.ones_like(a), np.full_like(b, -2.0))),
    "mul": (lambda a, b: a * b, lambda a, b: (b, a)),
    "div": (lambda a, b: a / b, lambda a, b: (1 / b, -a / b ** 2)),
    "pow": (lambda a, b: a ** b, lambda a, b: (b * a ** (b - 1), a ** b * np.log(a))),
    "mse_none": (lambda a, b: torch.nn.functional.mse_loss(a, b, reduction="none"),
                 lambda a, b: (2 * (a - b), -2 * (a - b))),
}


def reference_grad(upstream, local, in_shape):
    """Sum upstream * local over every output position that maps to each
    element of the input (leading dims dropped, size-1 dims pinned to 0)."""
    out = np.zeros(in_shape)
    lead = upstream.ndim - len(in_shape)
    for pos in itertools.product(*map(range, upstream.shape)):
        src = tuple(0 if s == 1 else p for p, s in zip(pos[lead:], in_shape))
        out[src] += upstream[pos] * local[pos]
    return out


def leaf(shape, rng, low=0.5, high=2.0):
    return torch.tensor(rng.uniform(low, high, shape), dtype=torch.float64, requires_grad=True)


@pytest.mark.parametrize("op", OPS)
@SETTINGS
@given(shapes=compatible_pair(), seed=st.integers(0, 2 ** 16))
def test_gradients_of_broadcast_inputs(op, shapes, seed):
    forward, local = OPS[op]
    sa, sb = shapes
    rng = np.random.default_rng(seed)
    a, b = leaf(sa, rng), leaf(sb, rng)
    out = forward(a, b)
    shape = np.broadcast_shapes(sa, sb)
    assert tuple(out.shape) == shape

    upstream = rng.standard_normal(shape)
    out.backward(torch.tensor(upstream, dtype=torch.float64))
    assert tuple(a.grad.shape) == sa and tuple(b.grad.shape) == sb
    da, db = (np.broadcast_to(d, shape) for d in local(*np.broadcast_arrays(a.detach().numpy(),
                                                                             b.detach().numpy())))
    np.testing.assert_allclose(a.grad.numpy(), reference_grad(upstream, da, sa), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), reference_grad(upstream, db, sb), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("op", ["add", "mul", "div", "pow"])
@settings(max_examples=15, derandomize=True, deadline=None)
@given(shapes=compatible_pair(), seed=st.integers(0, 2 ** 16))
def test_broadcast_gradients_match_finite_differences(op, shapes, seed):
    rng = np.random.default_rng(seed)
    a, b = leaf(shapes[0], rng), leaf(shapes[1], rng)
    assert gradcheck(OPS[op][0], (a, b))


def test_golden_covers_both_outcomes():
    assert {"add", "mul"} <= set(GOLDEN["ops"])
    errors = sum("error" in case for case in GOLDEN["cases"])
    assert len(GOLDEN["cases"]) >= 300 and 100 <= errors <= len(GOLDEN["cases"]) - 100


@pytest.mark.parametrize("op", GOLDEN["ops"])
def test_broadcasting_matches_pytorch_golden(op):
    """Every recorded pair: the same result shape, or exactly PyTorch's message."""
    wrong = []
    for case in GOLDEN["cases"]:
        a, b = torch.ones(case["a"]), torch.ones(case["b"])
        try:
            got = {"shape": list(getattr(a, op)(b).shape)}
        except RuntimeError as err:
            got = {"error": str(err)}
        want = {k: case[k] for k in ("shape", "error") if k in case}
        if got != want:
            wrong.append((case["a"], case["b"], got, want))
    assert not wrong, f"{len(wrong)} of {len(GOLDEN['cases'])} differ, e.g. {wrong[:3]}"


@pytest.mark.parametrize("a, b, message", [
    # Recorded from torch 2.13.0.
    ((2, 3), (4,), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    ((2, 3), (3, 3), "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    ((5, 2, 3), (4, 1, 3), "The size of tensor a (5) must match the size of tensor b (4) at non-singleton "
                           "dimension 0"),
    ((2, 3), (3, 4), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
])
def test_incompatible_shape_examples_from_pytorch(a, b, message):
    with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
        torch.ones(a) * torch.ones(b)


@SETTINGS
@given(shapes=compatible_pair(), seed=st.integers(0, 2 ** 16))
def test_unbroadcast_is_summing_over_broadcast_dims(shapes, seed):
    sa, sb = shapes
    shape = np.broadcast_shapes(sa, sb)
    g = np.random.default_rng(seed).standard_normal(shape)
    for s in (sa, sb):
        r = unbroadcast(g, s)
        assert r.shape == s
        np.testing.assert_allclose(r, reference_grad(g, np.ones(shape), s), rtol=1e-12, atol=1e-12)


@SETTINGS
@given(shapes=compatible_pair())
def test_inplace_cannot_broadcast_self(shapes):
    """x.add_(y) keeps x's shape: it works when y broadcasts to x, and raises
    PyTorch's message when the result would be bigger than x."""
    sa, sb = shapes
    shape = np.broadcast_shapes(sa, sb)
    x = torch.zeros(sa)
    if shape == sa:
        x.add_(torch.ones(sb))
        assert tuple(x.shape) == sa and x._version == 1
    else:
        dims = ", ".join(map(str, shape))
        with pytest.raises(RuntimeError, match=re.escape(
                f"output with shape [{', '.join(map(str, sa))}] doesn't match the broadcast shape [{dims}]")):
            x.add_(torch.ones(sb))
        assert x._version == 0

