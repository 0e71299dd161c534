"""gather, scatter, scatter_add, take (ops/gather_scatter.py), lerp, addcmul,
addcdiv (ops/ternary.py), the logical ops and the small functions after them:
gradients by finite differences in float64, first and second order, and the
places off the happy path (repeated indices, empty and 0-d tensors, a large
input, negative dims, transposed inputs, misuse). The golden program
tests/golden/programs/ops2.py compares values, nodes and messages with PyTorch."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(11)
INDEX = [[0, 2, 1, 0], [2, 2, 0, 1]]       # repeats within a column
UNIQUE = [[0, 2, 1, 0], [2, 0, 0, 1]]      # each place at most once in its column


def leaf(*shape, low=None, high=None):
    data = RNG.standard_normal(shape) if low is None else RNG.uniform(low, high, shape)
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def idx(rows):
    return torch.tensor(rows)


CASES = {
    "gather": (lambda x: x.gather(0, idx(INDEX)), [(3, 4)]),
    "gather dim -1, smaller index": (lambda x: torch.gather(x, -1, idx([[3, 3, 0], [1, 0, 1]])), [(3, 4)]),
    "gather int32 index": (lambda x: x.gather(1, idx(INDEX).int()), [(2, 3)]),
    "gather of a transpose": (lambda x: x.t().gather(0, idx(INDEX)), [(4, 3)]),
    "gather 0-d": (lambda x: x.gather(0, torch.tensor([0, 0])), [()]),
    "scatter src": (lambda x, s: x.scatter(0, idx(UNIQUE), s), [(3, 4), (2, 4)]),
    "scatter larger self": (lambda x, s: torch.scatter(x, 1, idx([[2], [0]]), s), [(3, 4), (2, 1)]),
    "scatter value": (lambda x: x.scatter(0, idx(UNIQUE), 2.5), [(3, 4)]),
    "scatter value=": (lambda x: torch.scatter(x, -1, idx(UNIQUE).t(), value=-1.0), [(4, 3)]),
    "scatter_add repeated": (lambda x, s: x.scatter_add(0, idx(INDEX), s), [(3, 4), (2, 4)]),
    "scatter_add 0-d": (lambda x, s: torch.scatter_add(x, 0, torch.tensor(0), s), [(), ()]),
    "scatter_ in a graph": (lambda x, s: (x * 1).scatter_(0, idx(UNIQUE), s), [(3, 4), (2, 4)]),
    "scatter_add_ in a graph": (lambda x, s: (x * 1).scatter_add_(1, idx(INDEX).t(), s), [(4, 3), (4, 2)]),
    "take repeated, negative": (lambda x: x.take(idx([[0, -1], [5, 5]])), [(3, 4)]),
    "take of a transpose": (lambda x: torch.take(x.t(), idx([1, 2, 1])), [(3, 4)]),
    "put": (lambda x, s: x.put(idx([1, -1, 4]), s), [(3, 4), (3,)]),
    "put accumulate": (lambda x, s: x.put(idx([1, 1, 4]), s, accumulate=True), [(3, 4), (3,)]),
    "lerp number": (lambda a, b: torch.lerp(a, b, 0.3), [(2, 3), (3,)]),
    "lerp number above 0.5": (lambda a, b: a.lerp(b, 0.8), [(2, 3), (2, 3)]),
    "lerp tensor, both branches": (lambda a, b, w: torch.lerp(a, b, w), [(2, 3), (2, 3), (3,)]),
    "lerp 0-d": (lambda a, b, w: a.lerp(b, w), [(), (), ()]),
    "lerp_ in a graph": (lambda a, b, w: (a * 1).lerp_(b, w), [(2, 3), (2, 3), (2, 3)]),
    "lerp of a transpose": (lambda a, b: a.t().lerp(b, 0.6), [(3, 2), (2, 3)]),
    "addcmul": (lambda a, b, c: torch.addcmul(a, b, c), [(2, 3), (2, 3), (2, 3)]),
    "addcmul value broadcast": (lambda a, b, c: a.addcmul(b, c, value=-2.5), [(3,), (2, 1), (2, 3)]),
    "addcmul shared": (lambda a: a.addcmul(a, a, value=0.5), [(4,)]),
    "addcmul_ in a graph": (lambda a, b, c: (a * 1).addcmul_(b, c, value=3), [(2, 3), (2, 3), (3,)]),
    "addcdiv": (lambda a, b, c: torch.addcdiv(a, b, c + 3), [(2, 3), (2, 3), (2, 3)]),
    "addcdiv value broadcast": (lambda a, b, c: a.addcdiv(b, c * c + 1, value=0.1), [(2, 3), (3,), (2, 1)]),
    "addcdiv_ in a graph": (lambda a, b, c: (a * 1).addcdiv_(b, c.exp(), value=-1), [(2, 3), (2, 3), (3,)]),
    "clamp_min": (lambda x: x.clamp_min(0.1), [(3, 4)]),
    "clamp_max tensor": (lambda x, m: torch.clamp_max(x, m), [(3, 4), (4,)]),
    "clamp_min of a transpose": (lambda x, m: x.t().clamp_min(m), [(4, 3), (4,)]),
    "fmod": (lambda x: torch.fmod(x * 3, 1.3), [(3, 4)]),
    "fmod tensor": (lambda x, y: x.fmod(y.abs() + 0.5), [(3, 4), (4,)]),
    "fmax": (lambda x, y: torch.fmax(x, y), [(3, 4), (3, 4)]),
    "fmin broadcast 0-d": (lambda x, y: x.fmin(y), [(3, 4), ()]),
    "view_as": (lambda x: x.view_as(torch.zeros(4, 3)) * 2, [(3, 4)]),
    "reshape_as of a transpose": (lambda x: x.t().reshape_as(torch.zeros(12)), [(3, 4)]),
    "expand_as": (lambda x: x.expand_as(torch.zeros(2, 3, 4)), [(3, 1)]),
    "type_as": (lambda x: x.type_as(torch.zeros(1, dtype=torch.float64)) * x, [(3,)]),
    "repeat_interleave": (lambda x: x.repeat_interleave(3), [(4,)]),
    "repeat_interleave dim -1": (lambda x: torch.repeat_interleave(x, 2, dim=-1), [(2, 3)]),
    "repeat_interleave flat": (lambda x: x.repeat_interleave(2), [(2, 3)]),
    "repeat_interleave tensor": (lambda x: x.repeat_interleave(torch.tensor([2, 0, 1]), dim=0), [(3, 2)]),
    "meshgrid ij": (lambda a, b: torch.meshgrid(a, b, indexing="ij")[0] * torch.meshgrid(a, b, indexing="ij")[1],
                    [(3,), (2,)]),
    "meshgrid xy three": (lambda a, b, c: torch.stack(torch.meshgrid([a, b, c], indexing="xy")), [(3,), (2,), ()]),
}


@pytest.mark.parametrize("name", CASES)
def test_gradients_by_finite_differences(name):
    fn, shapes = CASES[name]
    inputs = [leaf(*s) for s in shapes]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


# -- gather / scatter / take ------------------------------------------------------------

def test_gather_sends_a_repeated_read_both_gradients():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    y = x.gather(0, idx(INDEX))
    assert y.grad_fn.name() == "GatherBackward0" and y.tolist() == [[0.0, 9.0, 6.0, 3.0], [8.0, 9.0, 2.0, 7.0]]
    y.backward(torch.tensor([[1.0, 10.0, 100.0, 1000.0], [2.0, 20.0, 200.0, 2000.0]]))
    assert x.grad.tolist() == [[1.0, 0.0, 200.0, 1000.0], [0.0, 0.0, 100.0, 2000.0], [2.0, 30.0, 0.0, 0.0]]


def test_scatter_gives_no_gradient_to_what_it_overwrote():
    x = torch.ones(3, 4, requires_grad=True)
    s = torch.full((2, 4), 5.0, requires_grad=True)
    y = x.scatter(0, idx(UNIQUE), s)
    assert y.grad_fn.name() == "ScatterBackward0"
    (y * torch.arange(12.0).reshape(3, 4)).sum().backward()
    written = np.zeros((3, 4), bool)
    np.put_along_axis(written, np.array(UNIQUE), True, axis=0)
    assert x.grad.tolist() == np.where(written, 0.0, np.arange(12.0).reshape(3, 4)).tolist()
    assert s.grad.tolist() == np.take_along_axis(np.arange(12.0).reshape(3, 4), np.array(UNIQUE), 0).tolist()


def test_scatter_add_of_a_repeated_index_adds_and_sends_each_source_the_gradient():
    x = torch.zeros(3, requires_grad=True)
    s = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x.scatter_add(0, idx([2, 0, 2, 2]), s)
    assert y.tolist() == [2.0, 0.0, 8.0] and y.grad_fn.name() == "ScatterAddBackward0"
    y.backward(torch.tensor([10.0, 20.0, 30.0]))
    assert x.grad.tolist() == [10.0, 20.0, 30.0] and s.grad.tolist() == [30.0, 10.0, 30.0, 30.0]


def test_in_place_scatter_bumps_the_version_and_records_the_same_nodes():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    y = x * 1
    y.scatter_(0, idx(UNIQUE), torch.ones(2, 4))
    assert (y._version, y.grad_fn.name()) == (1, "ScatterBackward0")
    y.scatter_(1, idx(INDEX), 3.0)
    assert (y._version, y.grad_fn.name()) == (2, "ScatterBackward1")
    y.scatter_add_(0, idx(INDEX), torch.ones(2, 4))
    assert (y._version, y.grad_fn.name()) == (3, "ScatterAddBackward0")
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        torch.zeros(3, requires_grad=True).scatter_(0, idx([0]), 1.0)


def test_gather_saves_its_input_so_changing_it_is_caught():
    x = torch.ones(3, 4, requires_grad=True)
    y = x * 1
    z = y.gather(0, idx(INDEX))
    y.mul_(2)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        z.sum().backward()


def test_pytorchs_errors():
    x = torch.zeros(3, 4)
    cases = [
        (lambda: x.gather(0, idx(INDEX).float()), RuntimeError, "gather(): Expected dtype int32/int64 for index"),
        (lambda: x.gather(0, idx([0])), RuntimeError,
         "Index tensor must have the same number of dimensions as input tensor"),
        (lambda: x.gather(0, idx(INDEX) + 1), RuntimeError, "index 3 is out of bounds for dimension 0 with size 3"),
        (lambda: x.gather(0, idx(INDEX) - 1), RuntimeError, "index -1 is out of bounds for dimension 0 with size 3"),
        (lambda: x.gather(1, torch.zeros(4, 2, dtype=torch.long)), RuntimeError,
         "Size does not match at dimension 0 expected index [4, 2] to be no larger than self [3, 4] apart from "
         "dimension 1"),
        (lambda: x.gather(2, idx(INDEX)), IndexError,
         "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
        (lambda: x.scatter(0, idx(UNIQUE).float(), 1.0), RuntimeError,
         "scatter(): Expected dtype int32/int64 for index"),
        (lambda: x.scatter(0, idx([0]), 1.0), RuntimeError,
         "Index tensor must have the same number of dimensions as self tensor"),
        (lambda: x.scatter(0, idx(UNIQUE), torch.zeros(2, 4, dtype=torch.float64)), RuntimeError,
         "scatter(): Expected self.dtype to be equal to src.dtype"),
        (lambda: x.scatter(0, idx(UNIQUE), torch.zeros(1, 4)), RuntimeError,
         "Expected index [2, 4] to be no larger than self [3, 4] apart from dimension 0 and to be no larger size "
         "than src [1, 4]"),
        (lambda: x.scatter(0, idx(UNIQUE), torch.tensor(1.0)), RuntimeError,
         "Index tensor must have the same number of dimensions as src tensor"),
        (lambda: x.scatter_add(0, idx(UNIQUE) - 3, torch.ones(2, 4)), RuntimeError,
         "index -3 is out of bounds for dimension 0 with size 3"),
        (lambda: x.scatter_add(0, idx(UNIQUE), 1.0), TypeError,
         "scatter_add(): argument 'src' (position 3) must be Tensor, not float"),
        (lambda: x.take(idx([12])), IndexError, "out of range: tried to access index 12 on a tensor of 12 elements."),
        (lambda: x.take(idx([-13])), IndexError,
         "out of range: tried to access index -13 on a tensor of 12 elements."),
        (lambda: x.take(idx([1]).int()), RuntimeError, "take(): Expected a long tensor for index, but got Int"),
        (lambda: torch.zeros(0).take(idx([0])), IndexError, "take(): tried to take from an empty tensor"),
    ]
    for f, error, message in cases:
        with pytest.raises(error) as e:
            f()
        assert str(e.value) == message


def test_a_src_larger_than_index_is_refused_in_backward_as_pytorch_does():
    x = torch.zeros(3, 4, requires_grad=True)
    s = torch.ones(3, 5, requires_grad=True)
    y = x.scatter(0, idx(UNIQUE), s)
    assert y.tolist()[0] == [1.0, 1.0, 1.0, 1.0]        # only src[:2, :4] is written
    with pytest.raises(RuntimeError, match=r"ScatterBackward0 returned an invalid gradient at index 1 - got "
                                           r"\[2, 4\] but expected shape compatible with \[3, 5\]"):
        y.sum().backward()


def test_empty_0d_and_int_inputs():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    assert x.gather(0, torch.zeros(0, 4, dtype=torch.long)).shape == (0, 4)
    assert x.gather(1, torch.zeros(3, 0, dtype=torch.long)).shape == (3, 0)
    assert x.scatter(0, torch.zeros(0, 4, dtype=torch.long), torch.ones(3, 4)).tolist() == x.tolist()
    assert x.take(torch.tensor([], dtype=torch.long)).shape == (0,)
    s = torch.tensor(3.0, requires_grad=True)
    assert s.gather(0, torch.tensor(0)).shape == () and s.take(torch.tensor(0)).item() == 3.0
    assert torch.zeros(3, dtype=torch.long).scatter(0, idx([1]), 2.5).tolist() == [0, 2, 0]
    assert torch.tensor([True, False]).gather(0, idx([1, 0])).tolist() == [False, True]


def test_a_large_gather_and_scatter_add_are_transposes():
    """<y, gather(x)> = <scatter_add(y), x>: on a 1000 x 1000 input with random repeated indices."""
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((1000, 1000)), dtype=torch.float64, requires_grad=True)
    index = torch.tensor(rng.integers(0, 1000, (1000, 1000)))
    y = torch.tensor(rng.standard_normal((1000, 1000)), dtype=torch.float64)
    out = x.gather(1, index)
    (out * y).sum().backward()
    scattered = torch.zeros(1000, 1000, dtype=torch.float64).scatter_add(1, index, y)
    np.testing.assert_allclose(x.grad.numpy(), scattered.numpy(), rtol=1e-12, atol=0)
    expected = np.zeros((1000, 1000))
    np.add.at(expected, (np.arange(1000)[:, None], index.numpy()), y.numpy())
    np.testing.assert_allclose(scattered.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_shared_weights_in_a_loop_and_threads():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x
    for _ in range(5):
        h = h.gather(0, idx([2, 0, 1])) * x.take(idx([0, 0, 0]))
    h.sum().backward()
    grads = [x.grad.tolist()]
    results = []

    def run():
        z = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        g = z
        for _ in range(5):
            g = g.gather(0, idx([2, 0, 1])) * z.take(idx([0, 0, 0]))
        g.sum().backward()
        results.append(z.grad.tolist())

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == grads * 4
    assert grads[0] == [5 * 6.0 + 1.0, 1.0, 1.0]   # d/dx of x0**5 * (x0 + x1 + x2) at x = (1, 2, 3)


# -- lerp, addcmul, addcdiv ----------------------------------------------------------------

def test_lerp_hits_both_ends_exactly_and_takes_each_branch():
    a = torch.tensor([1.1, -3.3, 7.7])
    b = torch.tensor([2.9, 0.1, -5.5])
    assert torch.lerp(a, b, 0.0).tolist() == a.tolist() and torch.lerp(a, b, 1.0).tolist() == b.tolist()
    assert torch.lerp(a, b, torch.tensor([0.0, 1.0, 1.0])).tolist() == [a.tolist()[0]] + b.tolist()[1:]
    # weight 0.75 is computed back from end: end - (end - start) * 0.25, in float32 with one rounding
    e, s = np.float32(2.9), np.float32(1.1)
    expected = np.float32(np.float64(np.float32(0.75) - np.float32(1)) * np.float64(e - s) + np.float64(e))
    assert torch.lerp(a, b, 0.75).tolist()[0] == float(expected)


def test_optimizer_style_in_place_updates():
    m = torch.zeros(3)
    g = torch.tensor([1.0, -2.0, 4.0])
    m.lerp_(g, 0.1)                       # Adam: m = beta1 * m + (1 - beta1) * g
    v = torch.zeros(3).addcmul_(g, g, value=0.001)
    p = torch.ones(3)
    p.addcdiv_(m, v.sqrt().add(1e-8), value=-0.01)
    assert m._version == 1 and v._version == 1 and p._version == 1
    np.testing.assert_allclose(p.numpy(), 1 - 0.01 * np.array([0.1, -0.2, 0.4]) /
                               (np.sqrt(0.001 * np.array([1.0, 4.0, 16.0])) + 1e-8), rtol=1e-6)
    with torch.no_grad():
        w = torch.ones(3, requires_grad=True)
        w.addcmul_(g, g, value=-1)
    assert w.grad_fn is None and w.tolist() == [0.0, -3.0, -15.0]


def test_lerp_dtypes_and_errors_as_pytorch():
    a = torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="^expected dtype float for `end` but got dtype double$"):
        a.lerp(a.double(), 0.5)
    with pytest.raises(RuntimeError, match="^expected dtype float for `weight` but got dtype double$"):
        a.lerp(a, a.double())
    with pytest.raises(NotImplementedError, match="\"lerp_kernel_scalar\" not implemented for 'Long'"):
        torch.tensor([1, 2]).lerp(torch.tensor([3, 4]), 0.5)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(2\)"):
        a.lerp(torch.ones(2), 0.5)
    assert a.lerp(a, torch.tensor(0.5, dtype=torch.float64)).dtype == torch.float32    # a 0-d weight is cast


def test_addcmul_and_addcdiv_promote_and_refuse_integer_division():
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
    y = torch.addcmul(a, b, a)
    assert y.dtype == torch.float64 and y.tolist() == [4.0, 10.0]
    y.sum().backward()
    assert b.grad.dtype == torch.float64 and b.grad.tolist() == [1.0, 2.0]
    assert torch.addcdiv(a, b, a).dtype == torch.float64
    ints = torch.tensor([1, 2])
    assert torch.addcmul(ints, ints, ints, value=2).tolist() == [3, 10]
    assert torch.addcmul(ints, ints, ints, value=0.5).tolist() == [1, 2]      # value cast to long: 0
    with pytest.raises(RuntimeError, match="^Integer division with addcdiv is no longer supported"):
        torch.addcdiv(ints, ints, ints)
    with pytest.raises(RuntimeError, match="output with shape \\[1\\] doesn't match the broadcast shape \\[2\\]"):
        torch.ones(1).addcmul_(a, a)
    assert torch.addcmul(torch.tensor(1.0), torch.tensor(2.0), torch.tensor(3.0)).shape == ()
    assert torch.addcdiv(torch.zeros(0, 3), torch.ones(3), torch.ones(1)).shape == (0, 3)


def test_addcdiv_by_zero_is_inf_as_in_pytorch():
    out = torch.addcdiv(torch.zeros(2), torch.tensor([1.0, -1.0]), torch.zeros(2))
    assert out.tolist() == [float("inf"), float("-inf")]


# -- logical ops -------------------------------------------------------------------------

def test_logical_ops_give_bools_outside_the_graph():
    x = torch.tensor([0.0, 1.5, -2.0, float("nan")], requires_grad=True)
    m = torch.tensor([True, False, True, True])
    for f, expected in [(torch.logical_and, [False, False, True, True]), (torch.logical_or, [True, True, True, True]),
                        (torch.logical_xor, [True, True, False, False])]:
        out = f(x, m)
        assert out.dtype == torch.bool and out.tolist() == expected
        assert out.grad_fn is None and not out.requires_grad
    assert x.logical_and(m).tolist() == [False, False, True, True]
    assert torch.logical_not(x).tolist() == [True, False, False, False]
    assert torch.tensor([0, 3]).logical_or(torch.tensor([0, 0])).tolist() == [False, True]
    assert torch.logical_xor(x[:2].reshape(2, 1), torch.tensor([True, False])).tolist() == [[True, False],
                                                                                          [False, True]]
    assert torch.logical_and(torch.zeros(0), torch.zeros(0)).shape == (0,)
    assert torch.logical_and(torch.tensor(2.0), torch.tensor([1.0, 0.0])).tolist() == [True, False]
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(4\) must match the size of tensor b \(3\)"):
        torch.logical_and(x, torch.ones(3))
    with pytest.raises(TypeError, match=r"^logical_and\(\): argument 'other' \(position 2\) must be Tensor, not int$"):
        torch.logical_and(x, 1)


# -- clamp_min/max, fmod, fmax/fmin, isclose, *_as, repeat_interleave, meshgrid -------------

def test_clamp_min_max_pass_the_gradient_where_nothing_was_clamped():
    x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0], requires_grad=True)
    y = x.clamp_min(0.0)
    assert y.grad_fn.name() == "ClampMinBackward0" and y.grad_fn._saved_min == 0.0
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0, 1.0, 1.0]        # at the bound itself: passes, as in PyTorch
    m = torch.tensor([1.0, -1.0, 0.0, 1.0, 2.0], requires_grad=True)
    z = torch.clamp_max(x, m)
    assert z.grad_fn.name() == "ClampMaxBackward1" and z.tolist() == [-2.0, -1.0, 0.0, 1.0, 2.0]
    x.grad = None
    z.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0, 1.0, 0.0] and m.grad.tolist() == [0.0, 1.0, 0.0, 0.0, 1.0]
    assert torch.tensor([1, 5]).clamp_min(2.5).tolist() == [2.5, 5.0]
    assert torch.tensor([1.0, float("nan")]).clamp_min(0.0).isnan().tolist() == [False, True]


def test_fmod_keeps_the_sign_of_self_and_errors_as_pytorch():
    assert torch.fmod(torch.tensor([-7.0, 7.0]), 3).tolist() == [-1.0, 1.0]
    assert torch.tensor([-7, 7]).fmod(-3).tolist() == [-1, 1]
    assert torch.tensor([-7, 7]).fmod(2.5).tolist() == [-2.0, 2.0]
    assert torch.fmod(torch.ones(2), 0.0).isnan().all()
    for other in (0, torch.tensor([0, 1])):
        with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
            torch.tensor([-7, 7]).fmod(other)
    x = torch.tensor([5.0, -5.0], requires_grad=True)
    y = torch.tensor([3.0, 3.0], requires_grad=True)
    torch.fmod(x, y).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and y.grad.tolist() == [-1.0, 1.0]     # -trunc(x / y)


def test_fmax_fmin_pick_the_number_over_nan_and_send_it_the_gradient():
    nan = float("nan")
    p = torch.tensor([1.0, nan, 3.0, nan, 2.0], requires_grad=True)
    q = torch.tensor([2.0, 1.0, nan, nan, 2.0], requires_grad=True)
    out = torch.fmax(p, q)
    assert out.grad_fn.name() == "FmaxBackward0"
    assert out.tolist()[:3] == [2.0, 1.0, 3.0] and out.isnan().tolist() == [False] * 3 + [True, False]
    out.sum().backward()
    assert p.grad.tolist() == [0.0, 0.0, 1.0, 1.0, 1.0] and q.grad.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
    p.grad = q.grad = None
    torch.fmin(p, q).sum().backward()
    assert p.grad.tolist() == [1.0, 0.0, 1.0, 1.0, 1.0] and q.grad.tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]
    assert torch.fmax(p, q.double()).dtype == torch.float64
    assert torch.fmax(torch.tensor([1, 5]), torch.tensor([3, 2])).tolist() == [3, 5]


def test_isclose_as_pytorch():
    x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
    y = torch.tensor([1.0, -1.0, 0.0, 1.0, 2.0])
    assert torch.isclose(x, y).tolist() == [False, False, True, True, False]
    assert x.isclose(y, rtol=0.5, atol=0.1).tolist() == [False, True, True, True, True]
    nan, inf = float("nan"), float("inf")
    assert torch.isclose(torch.tensor([nan, 1.0]), torch.tensor([nan, 1.0]), equal_nan=True).tolist() == [True, True]
    assert torch.isclose(torch.tensor([nan, inf]), torch.tensor([nan, inf])).tolist() == [False, True]
    assert torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])).tolist() == [True, False]
    assert torch.isclose(torch.zeros(0), torch.zeros(0)).shape == (0,)
    with pytest.raises(RuntimeError, match="^Float did not match Double$"):
        torch.isclose(x, y.double())
    with pytest.raises(RuntimeError, match="^rtol must be greater than or equal to zero, but got -1$"):
        torch.isclose(x, y, rtol=-1)


def test_the_as_methods_record_what_pytorch_records():
    m = torch.arange(6.0).reshape(2, 3).requires_grad_()
    assert m.view_as(torch.zeros(3, 2)).grad_fn.name() == "ViewBackward0"
    r = m.t().reshape_as(torch.zeros(6))
    assert r.grad_fn.name() == "UnsafeViewBackward0" and r.grad_fn.next_functions[0][0].name() == "CloneBackward0"
    assert m[:1].expand_as(torch.zeros(4, 3)).grad_fn.name() == "ExpandBackward0"
    assert m.type_as(torch.zeros(1, dtype=torch.float64)).grad_fn.name() == "ToCopyBackward0"
    assert m.type_as(torch.zeros(1)) is m
    t = m.type_as(torch.zeros(1, dtype=torch.long))
    assert t.dtype == torch.long and t.grad_fn is None and not t.requires_grad
    with pytest.raises(RuntimeError, match=r"^shape '\[4\]' is invalid for input of size 6$"):
        m.view_as(torch.zeros(4))
    with pytest.raises(RuntimeError, match=r"^The expanded size of the tensor \(3\) must match the existing size "
                                           r"\(2\) at non-singleton dimension 0\."):
        m.expand_as(torch.zeros(3, 3))


def test_repeat_interleave_records_pytorchs_chain():
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    r = v.repeat_interleave(2)
    assert r.tolist() == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    chain, node = [], r.grad_fn
    while node is not None and node.name() != "torch::autograd::AccumulateGrad":
        chain.append(node.name())
        node = node.next_functions[0][0]
    assert chain == ["ViewBackward0", "CloneBackward0", "ExpandBackward0", "UnsqueezeBackward0"]
    r.backward(torch.arange(6.0))
    assert v.grad.tolist() == [1.0, 5.0, 9.0]
    assert torch.repeat_interleave(torch.tensor([1, 0, 2])).tolist() == [0, 2, 2]
    assert v.repeat_interleave(torch.tensor([1, 0, 2])).grad_fn.name() == "IndexSelectBackward0"
    assert v.repeat_interleave(0).shape == (0,)
    assert torch.tensor(5.0).repeat_interleave(3).tolist() == [5.0, 5.0, 5.0]
    with pytest.raises(RuntimeError, match="^Repeats must be non-negative$"):
        v.repeat_interleave(-1)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        v.repeat_interleave(2, dim=1)


def test_meshgrid_warns_once_without_indexing_as_pytorch(recwarn):
    from autograd_teach.compat import shape_functions
    a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0])
    shape_functions.meshgrid_warned.clear()        # as in a fresh process
    try:
        ij = torch.meshgrid(a, b)
        torch.meshgrid(a, b)
        assert [str(w.message) for w in recwarn] == [shape_functions.MESHGRID_WARNING]
        assert str(recwarn[0].message).startswith("torch.meshgrid: in an upcoming release, it will be required to "
                                                  "pass the indexing argument.")
    finally:
        shape_functions.meshgrid_warned.set()
    assert [t.tolist() for t in ij] == [[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], [[4.0, 5.0], [4.0, 5.0], [4.0, 5.0]]]
    xy = torch.meshgrid([a, b], indexing="xy")
    assert [t.shape for t in xy] == [(2, 3), (2, 3)] and xy[0].tolist() == [[1.0, 2.0, 3.0]] * 2
    assert [t.shape for t in torch.meshgrid(torch.tensor(1.0), b, indexing="ij")] == [(1, 2), (1, 2)]
    for args, kw, message in [((a, b), {"indexing": "zz"},
                               'torch.meshgrid: indexing must be one of "xy" or "ij", but received: zz'),
                              ((), {"indexing": "xy"}, "meshgrid expects a non-empty TensorList"),
                              ((a, b.double()), {"indexing": "ij"}, "meshgrid expects all tensors to have the same dtype"),
                              ((a.reshape(3, 1), b), {"indexing": "ij"},
                               "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ")]:
        with pytest.raises(RuntimeError) as e:
            torch.meshgrid(*args, **kw)
        assert str(e.value).startswith(message)


def test_put_checks_as_pytorch():
    x = torch.zeros(3, 4)
    cases = [
        (lambda: x.put(idx([12]), torch.ones(1)), IndexError,
         "out of range: tried to access index 12 on a tensor of 12 elements."),
        (lambda: x.put(idx([-13]), torch.ones(1)), IndexError,
         "out of range: tried to access index -13 on a tensor of 12 elements."),
        (lambda: x.put(idx([1]).int(), torch.ones(1)), RuntimeError,
         "put_(): Expected a long tensor for index, but got Int"),
        (lambda: x.put(idx([1, 2]), torch.ones(3)), IndexError,
         "put_(): Expected source and index to have the same number of elements, but got source.numel() = 3, "
         "index.numel() = 2"),
        (lambda: x.put(idx([1]), torch.ones(1, dtype=torch.float64)), RuntimeError,
         "put_(): self and source expected to have the same dtype, but got self.dtype = Float and "
         "source.dtype = Double"),
    ]
    for f, error, message in cases:
        with pytest.raises(error) as e:
            f()
        assert str(e.value) == message
    y = torch.zeros(4)
    y.put_(idx([1, 1, -1]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
    assert y.tolist() == [0.0, 3.0, 0.0, 3.0] and y._version == 1


def test_a_number_where_pytorch_takes_only_a_tensor_is_a_type_error_naming_its_position():
    x = torch.ones(2)
    for f, name, position, kind in [(torch.fmax, "fmax", 2, "float"), (torch.isclose, "isclose", 2, "float"),
                                    (torch.logical_or, "logical_or", 2, "float"),
                                    (torch.Tensor.fmin, "fmin", 1, "float"),
                                    (torch.Tensor.logical_xor, "logical_xor", 1, "float")]:
        with pytest.raises(TypeError) as e:
            f(x, 2.0)
        assert str(e.value) == f"{name}(): argument 'other' (position {position}) must be Tensor, not {kind}"
