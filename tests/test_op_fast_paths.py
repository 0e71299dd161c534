"""ops/fast_paths.py: each fast path gives what OpNode.apply gives, node by
node (class, edges, input metadata, saved values, attributes), value by value
(bits, dtype, requires_grad), and error by error, on the usual case and on
every case it must hand back to apply: numbers, mixed dtypes, broadcasting,
no_grad, inference mode, saved-tensor hooks, dual levels, views, leaves and
non-leaves, 0-d, empty and special values."""
import itertools
import re
import threading
import types

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import ops as O
from autograd_teach.ops import fast_paths

BINARY = {"add": O.AddBackward0, "sub": O.SubBackward0, "mul": O.MulBackward0, "div": O.DivBackward0}
UNARY = {"exp": O.ExpBackward0, "tanh": O.TanhBackward0, "sigmoid": O.SigmoidBackward0, "relu": O.ReluBackward0,
         "sum": O.SumBackward0}
SPECIALS = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1e-45, -1e-45, 1.0, -2.5, 3e38, -3e38]


def same_bits(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def described(out):
    """Everything of out's node but its sequence_nr, comparable with ==."""
    node = out.grad_fn
    if node is None:
        return None
    saved = {}
    for name, s in (node.saved_values or {}).items():
        if type(s) is tuple:      # compact: (data, box, version, input or None, made_by, output_nr)
            data, box, version, kept, made_by, output_nr = s
            s = ("saved", data.tobytes(), data.dtype, data.shape, "own" if box is out._version_box else id(box), version,
                 None if kept is None else id(kept), made_by, output_nr)
        saved[name] = s
    attrs = {name: getattr(node, name) for name in type(node).attrs}
    return (type(node), node.next_functions, node.input_metadata, list(saved.items()), attrs)   # (in backward's order)


def both(fast, cls, *args):
    """(result or exception) of the fast path and of apply, for the same arguments."""
    out = []
    for f in (fast, cls.apply):
        try:
            with np.errstate(all="raise"):     # neither may let a numpy warning through
                out.append(f(*args))
        except Exception as e:                 # noqa: BLE001 - compared below
            out.append(e)
    return out


def assert_same(fast_out, apply_out):
    if isinstance(apply_out, Exception):
        assert type(fast_out) is type(apply_out) and str(fast_out) == str(apply_out)
        return
    assert same_bits(fast_out._data, apply_out._data)
    assert fast_out.requires_grad == apply_out.requires_grad and fast_out.is_leaf == apply_out.is_leaf
    assert fast_out._version == apply_out._version and fast_out.is_inference() == apply_out.is_inference()
    assert described(fast_out) == described(apply_out)
    if fast_out.grad_fn is not None:
        assert fast_out.grad_fn.sequence_nr + 1 == apply_out.grad_fn.sequence_nr    # the next number, as apply's


def tensors(seed=0):
    """Operands: leaves that require grad or not, non-leaves, views, of several dtypes and shapes."""
    rng = np.random.default_rng(seed)
    for dtype in (np.float32, np.float64, np.float16, np.int64, np.bool_):
        for shape in ((3,), (2, 3), (), (0,), (1, 3)):
            with np.errstate(all="ignore"):     # (3e38 overflows float16, nan is not an integer)
                data = rng.choice(SPECIALS, size=shape).astype(dtype) if dtype != np.bool_ else rng.random(shape) > .5
            plain = torch.tensor(data)
            yield plain
            if np.dtype(dtype).kind == "f":
                leaf = torch.tensor(data, requires_grad=True)
                yield leaf
                yield leaf * 1                                   # a non-leaf
                if len(shape) == 2:
                    yield leaf.t()                               # a view, not contiguous


@pytest.mark.parametrize("name", sorted(BINARY))
def test_a_binary_fast_path_is_apply(name):
    operands = list(tensors()) + [2, 0.5, True]
    for a, b in itertools.product([t for t in operands if not isinstance(t, (int, float))], operands):
        assert_same(*both(getattr(fast_paths, name), BINARY[name], a, b))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_a_unary_fast_path_is_apply(name):
    for a in tensors(seed=1):
        assert_same(*both(getattr(fast_paths, name), UNARY[name], a))


@pytest.mark.parametrize("mode", ("no_grad", "inference_mode", "enable_grad"))
def test_the_fast_paths_follow_grad_mode(mode):
    a, b = torch.tensor([1.0, -2.0], requires_grad=True), torch.tensor([3.0, 0.0], requires_grad=True)
    with getattr(torch, mode)():
        assert_same(*both(fast_paths.mul, O.MulBackward0, a, b))
        assert_same(*both(fast_paths.relu, O.ReluBackward0, a))


def test_the_fast_paths_hand_hooks_and_dual_levels_to_apply():
    """Saved-tensor hooks see what an op saves, and forward mode needs its tangent: apply's business."""
    packed = []
    a, b = torch.tensor([1.0, -2.0], requires_grad=True), torch.tensor([3.0, 0.5], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = a * b
        z = a.exp()
    assert len(packed) == 3 and y.grad_fn._saved_self is a and z.grad_fn._saved_result.equal(z)
    import autograd_teach.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        assert fwAD.unpack_dual(d.exp() * d).tangent.tolist() == pytest.approx([2 * np.e, 3 * np.e ** 2])


def test_a_fast_path_gradient_is_the_general_one_and_checks_versions():
    x = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([1.5, 2.0, -0.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, w: ((x * w - w) / (w + 3)).tanh().sigmoid().exp() * x.relu(), (x, w))
    y = x * w
    with torch.no_grad():
        w.add_(1)                       # w was saved by y's MulBackward0: backward must refuse
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_fast_paths_in_threads_keep_their_grad_mode():
    """One thread with grad off while another records: each gets its own answer."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    results, barrier = {}, threading.Barrier(2)

    def run(no_grad):
        barrier.wait()
        if no_grad:
            with torch.no_grad():
                results[no_grad] = [(a * a).relu().requires_grad for _ in range(200)]
        else:
            results[no_grad] = [(a * a).relu().requires_grad for _ in range(200)]

    threads = [threading.Thread(target=run, args=(flag,)) for flag in (True, False)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not any(results[True]) and all(results[False])


def test_threads_compute_quietly_at_once_and_leave_numpy_as_it_was():
    """The fast paths enter a context with numpy's warnings off, one per thread
    (a context may be entered by one thread at a time). Large arrays make numpy
    release the GIL mid-op, so the threads really are inside at once; an
    overflow must stay silent, and the learner's own setting must come back."""
    import warnings
    big = np.full(200_000, 3e38, np.float32)
    errors, barrier = [], threading.Barrier(4)

    def run():
        try:
            x = torch.tensor(big, requires_grad=True)
            barrier.wait()
            for _ in range(10):
                y = (x * x).exp() / x.tanh() - x.sigmoid() + x.relu()
                y.sum().backward()
            assert torch.isinf(y).all() and x.grad is not None
        except BaseException as e:     # (an exception in a thread is otherwise only printed)
            errors.append(e)

    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # a numpy RuntimeWarning would be an error
        threads = [threading.Thread(target=run) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == [] and np.geterr() == before
    with pytest.warns(RuntimeWarning):     # and numpy still warns outside an op
        np.multiply(big, big)


def test_a_graph_goes_with_its_output_without_the_cycle_collector():
    """A saved input is kept by its node (as PyTorch's SavedVariable keeps it); no
    node may keep itself alive that way, also through in-place ops and views."""
    import gc
    import weakref
    gc.disable()
    try:
        for build in (lambda x, w: (x * w).relu().exp() / w,
                      lambda x, w: (x * 1).mul_(w).sigmoid_(),
                      lambda x, w: (x * 1)[1:].mul_(w[1:]).tanh(),
                      lambda x, w: (x.t() if x.dim() > 1 else x * w) + w):
            x, w = torch.ones(3, requires_grad=True), torch.full((3,), 2.0, requires_grad=True)
            y = build(x, w)
            nodes = [weakref.ref(y.grad_fn)] + [weakref.ref(fn) for fn, _ in y.grad_fn.next_functions if fn]
            del y
            assert all(n() is None for n in nodes)
    finally:
        gc.enable()


def matrices(seed=0):
    """Operands of mm: matrices whose sizes fit or not, leaves, non-leaves, transposes, several dtypes."""
    rng = np.random.default_rng(seed)
    for dtype in (np.float32, np.float64, np.int64):
        for shape in ((2, 2), (2, 3), (3, 2), (1, 2), (2, 0), (0, 2), (3,), ()):
            with np.errstate(all="ignore"):
                data = rng.choice(SPECIALS, size=shape).astype(dtype)
            yield torch.tensor(data)
            if dtype != np.int64:
                leaf = torch.tensor(data, requires_grad=True)
                yield leaf
                yield leaf * 1
                if len(shape) == 2:
                    yield leaf.t()


def test_the_matrix_product_fast_path_is_apply():
    """fast_paths.mm against MmBackward0.apply, and fast_paths.matmul against
    core's matmul (which gives a vector or batched operand its own nodes):
    the same nodes, bits and errors."""
    operands = list(matrices())
    for a, b in itertools.product(operands, operands + [2, np.ones((2, 2), np.float32)]):
        assert_same(*both(fast_paths.mm, O.MmBackward0, a, b))
        fast, general = both(fast_paths.matmul, types.SimpleNamespace(apply=O.matmul), a, b)
        if isinstance(general, Exception) or general.grad_fn is None or type(general.grad_fn) is O.MmBackward0:
            assert_same(fast, general)
        else:     # several nodes, made by the very same code: their names and the bits
            assert type(fast.grad_fn) is type(general.grad_fn) and same_bits(fast._data, general._data)
    with torch.no_grad():
        assert_same(*both(fast_paths.mm, O.MmBackward0, operands[1], operands[1]))


def test_the_matrix_product_fast_path_hands_inference_tensors_hooks_and_dual_levels_to_apply():
    """The tiny float32 product (the 2x2 chain's) is written straight: the cases it leaves to apply."""
    w = torch.tensor([[0.5, 0.1], [0.2, 0.6]], requires_grad=True)
    with torch.inference_mode():
        frozen = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        assert_same(*both(fast_paths.mm, O.MmBackward0, w, w))
    for a, b in ((frozen, w), (w, frozen), (frozen, frozen)):    # saving an inference tensor: apply's error
        assert_same(*both(fast_paths.matmul, O.MmBackward0, a, b))
    for mode in (torch.no_grad, torch.enable_grad):
        with mode():
            assert_same(*both(fast_paths.matmul, O.MmBackward0, w, w))
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = w @ w
    assert len(packed) == 2 and y.grad_fn._saved_self is w and y.grad_fn._saved_mat2 is w
    import autograd_teach.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([[1.0, 2.0], [0.0, 1.0]]), torch.eye(2))
        assert fwAD.unpack_dual(d @ w).tangent.tolist() == w.tolist()    # eye @ w


def test_the_matmul_operator_is_the_fast_path_and_leaves_other_operands_to_python():
    """Tensor.__matmul__ is fast_paths.matmul_operator: a number, list or numpy
    scalar on the right is Python's TypeError in PyTorch's words; an array is
    numpy's matmul, wrapped back; a Parameter or a subclass is a tensor."""
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert type(a).__matmul__ is fast_paths.matmul_operator
    for other, name in ((2, "int"), (2.0, "float"), ([[1.0], [2.0]], "list"), (np.float32(2), "numpy.float32")):
        with pytest.raises(TypeError, match=re.escape(f"unsupported operand type(s) for @: 'Tensor' and '{name}'")):
            a @ other
    assert same_bits((a @ np.eye(2, dtype=np.float32)).numpy(), a.numpy())
    w = torch.nn.Parameter(torch.eye(2))
    assert type(w @ a).__name__ == "Tensor" and (w @ a).grad_fn.name() == "MmBackward0" and (a @ w).equal(a)

    class Other(torch.Tensor):
        def __matmul__(self, other):
            return "its own"
    assert Other(a) @ a == "its own" and a.matmul(Other(a)).equal(a @ a)


@pytest.mark.parametrize("name", ["PowBackward1", "LogBackward0"])
def test_a_fast_path_refuses_a_save_plan_it_does_not_write(name):
    """A fast path writes a unary op's saved result, or a binary op's saved inputs,
    and nothing else: pow's saved result or log's saved input would be dropped."""
    from autograd_teach import ops
    from autograd_teach.ops.fast_paths import fast_path
    with pytest.raises(TypeError, match=name):
        fast_path(getattr(ops, name))
    assert fast_path(ops.Atan2Backward0) is not None     # its inputs only: a plan it writes


def test_a_fast_path_node_that_skips_the_gradient_check_needs_none():
    """A fast path sets `exact_for` (the output's shape and dtype) when every
    input has an edge and, for an elementwise op, shares the output's shape
    (not 0-d) and dtype, or the op is mm; call_backward then returns
    backward's gradients for such a gradient unchecked, so each must already
    be an array of its input's shape and dtype: per op, dtype, layout and
    special value."""
    rng = np.random.default_rng(3)
    marked = 0
    for dtype in (np.float16, np.float32, np.float64):
        for shape in ((3,), (2, 3), (), (0,), (1, 3), (3, 3), (2, 0)):
            with np.errstate(all="ignore"):     # (3e38 overflows float16)
                data, other = (rng.choice(SPECIALS, size=shape).astype(dtype) for _ in range(2))
            leaf, const = torch.tensor(data, requires_grad=True), torch.tensor(other)
            w = torch.tensor(other, requires_grad=True)
            view = (w.t() * 1).t() if len(shape) == 2 else w           # not contiguous
            cases = [(getattr(fast_paths, n), (a, b)) for n in BINARY for a, b in
                     ((leaf, w), (leaf * 1, view), (leaf, const), (const, w))]
            cases += [(getattr(fast_paths, n), (a,)) for n in UNARY for a in (leaf, leaf * 1)]
            if len(shape) == 2:
                cases += [(fast_paths.mm, (a, b.t())) for a, b in ((leaf, w), (leaf * 1, view), (leaf, const))]
            for f, args in cases:
                with np.errstate(all="ignore"):
                    out = f(*args)
                node = out.grad_fn
                if node is None:
                    continue
                out_meta = (out._data.shape, out._data.dtype)
                edges = all(fn is not None for fn, _ in node.next_functions)
                elementwise = shape != () and all(meta == out_meta for meta in node.input_metadata)
                expect = edges and (elementwise or type(node) is O.MmBackward0)
                assert (node.exact_for == out_meta) if expect else node.exact_for is None, (f, args)
                if node.exact_for is None:
                    continue
                marked += 1
                with np.errstate(all="ignore"):
                    grad = rng.choice(SPECIALS, size=out_meta[0]).astype(dtype)
                    raw = node.backward(grad, *[s[0] for s in node.saved_values.values()])
                    raw = raw if isinstance(raw, tuple) else (raw,)
                    checked = node.to_input_arrays(raw)
                    got = node.call_backward(grad)
                for g, c, r, meta in zip(got, checked, raw, node.input_metadata):
                    assert type(r) is np.ndarray and (r.shape, r.dtype) == meta
                    assert same_bits(g, c)
    assert marked > 150


def test_relu_skips_the_quiet_switch_only_for_a_dtype_seen_to_set_no_flag(monkeypatch):
    """kernels.relu.silent holds the dtypes whose relu kernel set no floating-point
    flag on any probe (NaNs of every kind, infinities, subnormals, every length and
    layout); for those the fast path calls the kernel without switching numpy's
    warnings off, for any other dtype it switches them off."""
    from autograd_teach.kernels import masks
    for dtype in (np.float16, np.float32, np.float64, np.int64):
        dtype = np.dtype(dtype)
        fast_paths.relu(torch.tensor(np.ones(3, dtype)))           # the dtype met: its kernel chosen, probed
        silent = masks.sets_no_flag(masks.RELU[dtype], masks.probes(dtype)) and \
            masks.sets_no_flag(lambda a: np.less(a, masks.zero_of(dtype)), masks.probes(dtype))
        assert (dtype in masks.relu.silent) == silent
        with np.errstate(all="raise"):                              # and nothing warns either way
            for a in masks.probes(dtype):
                fast_paths.relu(torch.tensor(a, requires_grad=dtype.kind == "f"))
    f64 = np.dtype(np.float64)

    def flagging(a):                         # a relu whose loop raises the invalid flag
        np.sqrt(-np.ones(1))
        return np.maximum(a, 0)
    monkeypatch.setitem(masks.RELU, f64, flagging)
    x = torch.tensor([1.0, -2.0], dtype=torch.float64)
    was_silent = f64 in masks.relu.silent
    try:
        masks.relu.silent.discard(f64)
        with np.errstate(all="raise"):
            assert fast_paths.relu(x).tolist() == [1.0, 0.0]        # switched off: no FloatingPointError
        masks.relu.silent.add(f64)
        with np.errstate(all="raise"), pytest.raises(FloatingPointError):
            fast_paths.relu(x)                                      # called straight
    finally:
        (masks.relu.silent.add if was_silent else masks.relu.silent.discard)(f64)
