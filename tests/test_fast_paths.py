"""The core's fast paths (benchmarks/, docs/benchmarks.md) give the bits of
the general code they stand in for, on adversarial inputs: -0.0, nan, inf,
denormals, empty, 0-d, non-contiguous and broadcast arrays."""
import numpy as np
import pytest

from autograd_teach.kernels import matmul_order

TINY = np.finfo(np.float32).smallest_subnormal
SPECIALS = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, TINY, -TINY, 1.0, -1.0, 3e38, -3e38, 1e-30],
                    np.float32)


def same_bits(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def adversarial_matrices(k, seed=0):
    """(a, b) pairs with a K of k: special values, random values, transposed layouts."""
    rng = np.random.default_rng(seed)
    for m, n in ((2, 2), (3, 1), (1, 3), (5, 4), (0, 2), (2, 0)):
        a = rng.choice(SPECIALS, size=(m, k)).astype(np.float32)
        b = rng.choice(SPECIALS, size=(k, n)).astype(np.float32)
        yield a, b
        yield np.ascontiguousarray(a.T).T, np.ascontiguousarray(b.T).T    # column-major
        if n:
            yield a, b[:, 0]                                                  # matrix @ vector
            yield a[::-1], b[::-1, ::-1][:, 0]                                # negative strides
        r = rng.standard_normal((m, k)).astype(np.float32)
        yield r, rng.standard_normal((k, n)).astype(np.float32)


@pytest.mark.parametrize("k", (2, 3))
def test_small_k_matmul_calls_einsum_without_its_wrapper(k):
    for a, b in adversarial_matrices(k, seed=k):
        spec = "ik,k->i" if b.ndim == 1 else "ik,kj->ij"
        assert same_bits(matmul_order.mm(a, b), np.einsum(spec, a, b, order="C")), (a, b)


def adversarial_arrays(dtype, seed=0):
    """Arrays of dtype, special values included: 0-d, empty, strided, reversed, broadcast."""
    rng = np.random.default_rng(seed)
    values = SPECIALS.astype(dtype) if np.dtype(dtype).kind == "f" else np.array([0, 1, -1, 7, -128], np.int64).astype(dtype)
    base = rng.choice(values, size=(6, 5))
    yield from (base, base[::2, ::-1], base.T, np.asarray(base[0, 0]), base[:0], np.broadcast_to(base[0], (3, 5)))
    yield np.asarray(values)


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.float16, np.int64, np.int32, np.uint8, np.bool_))
def test_relu_with_a_zero_array_is_relu_with_the_number_zero(dtype):
    from autograd_teach.core.ops.pointwise import ReluBackward0
    node = ReluBackward0.__new__(ReluBackward0)
    with np.errstate(invalid="ignore", over="ignore"):
        for a in adversarial_arrays(dtype, seed=1):
            assert same_bits(node.forward(a), np.where(a < 0, 0, a).astype(a.dtype, copy=False)), a
            for grad in adversarial_arrays(np.float32 if a.dtype.kind != "f" else a.dtype, seed=2):
                if grad.shape == a.shape:
                    assert same_bits(node.backward(grad, a), np.where(a <= 0, 0, grad)), (a, grad)


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.float16))
def test_a_first_gradient_is_copied_as_np_array_copies_it_in_the_leafs_layout(dtype):
    """(row-major for a row-major leaf whatever the gradient's layout, as
    PyTorch's clone_obey_contract; other leaf layouts: the grad_layouts golden)"""
    import autograd_teach as torch
    from autograd_teach.core.accumulate_grad import accumulate_grad
    for grad in adversarial_arrays(np.float32, seed=3):
        leaf = torch.zeros(grad.shape, dtype=torch.tensor(np.zeros(0, dtype)).dtype, requires_grad=True)
        with np.errstate(over="ignore"):     # 3e38 overflows float16 (np.array warns alike)
            accumulate_grad(leaf, grad, [])
            got, want = leaf.grad.detach().numpy(), np.array(grad, dtype=dtype, order="C")
        assert same_bits(got, want) and got.strides == want.strides, grad
        assert not np.shares_memory(got, grad)


def test_float32_via_float64_with_dtype_objects_is_the_same_as_with_types():
    from autograd_teach.kernels.float32 import via_float64
    with np.errstate(all="ignore"):
        for fn in (np.exp, np.tanh, np.sin, np.expm1):
            for a in adversarial_arrays(np.float32, seed=4):
                assert same_bits(via_float64(fn, a), fn(a.astype(np.float64)).astype(np.float32)), (fn, a)


def test_grad_mode_shortcut_is_exact_with_threads_switching_it():
    """An op reads no thread-local flag while no thread has grad mode off
    (grad_mode.threads_without_grad): with other threads switching it on and
    off, each thread's ops still record exactly when its own mode says so."""
    import threading

    import autograd_teach as torch
    from autograd_teach.core import grad_mode
    x = torch.ones(2, requires_grad=True)
    errors, barrier = [], threading.Barrier(4)

    def worker(k):
        try:
            barrier.wait()
            for i in range(300):
                off = (i + k) % 3 == 0
                with torch.set_grad_enabled(not off):
                    y = x * 2
                    if (y.grad_fn is None) != off or torch.is_grad_enabled() == off:
                        errors.append((k, i, off, y.grad_fn))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert grad_mode.threads_without_grad == [] and (x * 2).grad_fn is not None


def test_a_thread_that_ends_with_grad_or_inference_mode_on_leaves_no_entry():
    """A thread that ends with grad mode off (or inference mode on) is no
    longer counted once it is gone, so the shortcut comes back for the rest of
    the process (it used to stay off, and the test above then failed when it
    ran after tests/test_threads.py)."""
    import threading

    import autograd_teach as torch
    from autograd_teach.core import grad_mode

    def leave_modes_set():
        torch.set_grad_enabled(False)          # plain calls, never undone
        torch.inference_mode().__enter__()
        assert len(grad_mode.threads_without_grad) == len(grad_mode.threads_in_inference) == 1
    for _ in range(3):
        t = threading.Thread(target=leave_modes_set)
        t.start()
        t.join()
        assert grad_mode.threads_without_grad == [] and grad_mode.threads_in_inference == []
    x = torch.ones(2, requires_grad=True)
    assert (x * 2).grad_fn is not None and not (x * 2).is_inference()
    with torch.no_grad():
        assert (x * 2).grad_fn is None and grad_mode.threads_without_grad == [None]
    assert grad_mode.threads_without_grad == []


def test_inference_mode_shortcut_marks_only_the_inference_threads_tensors():
    import threading

    import autograd_teach as torch
    seen, inside, done = {}, threading.Event(), threading.Event()

    def in_inference():
        with torch.inference_mode():
            inside.set()
            seen["other"] = torch.ones(2).is_inference()
            done.wait(5)
    t = threading.Thread(target=in_inference)
    t.start()
    inside.wait(5)
    seen["main"] = (torch.ones(2) * 2).is_inference()
    done.set()
    t.join()
    assert seen == {"other": True, "main": False}
    assert not torch.ones(1).is_inference()


def test_a_leaf_hook_registered_after_its_node_was_made_still_runs():
    """AccumulateGrad holds the leaf's hook list; a node made before the first
    hook is given the list when it is made."""
    import autograd_teach as torch
    x = torch.ones(2, requires_grad=True)
    y = x * 3                        # x's AccumulateGrad exists from here
    x.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert x.grad.tolist() == [30.0, 30.0]


@pytest.mark.parametrize("dtype", (np.float32, np.float64))
def test_where_without_dispatch_is_np_where(dtype):
    from autograd_teach.kernels import masks
    a = SPECIALS.astype(dtype)
    zero = masks.zero_of(np.dtype(dtype))
    for cond in (a < zero, a <= zero, np.isnan(a)):
        assert same_bits(masks.np_where(cond, zero, a), np.where(cond, zero, a))
        assert same_bits(masks.np_where(cond, a, zero), np.where(cond, a, zero))


def activation_maps(dtype, seed=0):
    """Arrays of every size around masks.BITS_FROM, with the special values
    mixed in, contiguous, transposed and strided."""
    from autograd_teach.kernels import masks
    rng = np.random.default_rng(seed)
    for n in (1, 7, masks.BITS_FROM - 1, masks.BITS_FROM, 3 * masks.BITS_FROM + 5, masks.MAXIMUM_UP_TO - 1,
              masks.MAXIMUM_UP_TO, masks.MAXIMUM_UP_TO + 3):
        a = rng.standard_normal(n).astype(dtype)
        a[rng.integers(0, n, n // 3 + 1)] = rng.choice(SPECIALS, n // 3 + 1).astype(dtype)
        yield a
    m = rng.standard_normal((64, 48)).astype(dtype)
    m[::5, ::3] = -0.0
    m[1::7] = np.nan
    yield m
    yield m.T
    yield m[::2, ::-1]


@pytest.mark.parametrize("dtype", (np.float16, np.float32, np.float64))
def test_relu_and_its_gradient_by_bit_masks_are_np_where(dtype):
    """kernels.relu / threshold_backward AND the bits of large maps with a mask:
    the same bits as the where they replace (-0.0 kept, NaN kept, a +0.0 gradient)."""
    from autograd_teach import kernels
    rng = np.random.default_rng(1)
    zero = dtype(0)
    with np.errstate(all="ignore"):      # float16 overflows on SPECIALS' 3e38: inf, wanted
        maps = list(activation_maps(dtype))
        grads = [rng.choice(SPECIALS, a.shape).astype(dtype) * rng.standard_normal(a.shape).astype(dtype)
                 for a in maps]
    for a, grad in zip(maps, grads):
        out = kernels.relu(a)
        assert same_bits(out, np.where(a < zero, zero, a))
        for result in (out, a):     # a holds negatives and NaN where a result would not
            assert same_bits(kernels.threshold_backward(grad, result), np.where(result <= zero, zero, grad))


NAN_WORDS = {np.float16: (np.uint16, [0x7e00, 0xfe00, 0x7e01, 0x7c01, 0xfc01, 0x7fff]),
             np.float32: (np.uint32, [0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0xff800001, 0x7fffffff]),
             np.float64: (np.uint64, [0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000001,
                                      0x7ff0000000000001, 0xfff0000000000001, 0x7fffffffffffffff])}
RELU_DTYPES = (np.float32, np.float64, np.float16, np.int8, np.uint8, np.int32, np.int64, np.bool_)


def relu_specials(dtype):
    """SPECIALS in dtype with NaNs of both signs, quiet and signaling, with
    payloads, and the largest denormal; for ints and bool their extremes."""
    if np.dtype(dtype).kind != "f":
        return np.array([0, 1, -1, 7, -128, 127], np.int64).astype(dtype)
    words, nans = NAN_WORDS[dtype]
    info = np.finfo(dtype)
    with np.errstate(over="ignore"):
        values = SPECIALS.astype(dtype)
    return np.concatenate([values, np.array(nans, words).view(dtype),
                           np.array([info.smallest_normal - info.smallest_subnormal, -info.max], dtype)])


def relu_layouts(values, seed=0):
    """values shuffled at every length up to 70 (numpy's SIMD loops: scalar tail,
    one vector, the unrolled body), around the kernels' size switches, 0-d,
    empty, strided, reversed, transposed and broadcast."""
    from autograd_teach.kernels import masks
    rng = np.random.default_rng(seed)
    long = rng.choice(values, 3 * masks.MAXIMUM_UP_TO)
    for n in [*range(71), masks.BITS_FROM - 1, masks.BITS_FROM, masks.MAXIMUM_UP_TO - 1, masks.MAXIMUM_UP_TO]:
        yield long[:n]
        yield long[1:n + 1]                 # not aligned as numpy allocates
    yield from (np.asarray(v) for v in values)
    yield from (long[::3], long[:200:-7], long[:600].reshape(20, 30).T, np.broadcast_to(values[:1], (5, 3)))
    yield long[:3 * masks.MAXIMUM_UP_TO // 2 * 2].reshape(-1, 2).T      # large and strided


def check_relu_kernels(dtypes=RELU_DTYPES):
    """kernels.relu and threshold_backward give np.where's bits on relu_layouts of
    relu_specials; the gradient for every special result against every special
    gradient. (Also run by a child process per numpy SIMD target, below.)"""
    from autograd_teach import kernels
    for dtype in dtypes:
        values = relu_specials(dtype)
        with np.errstate(invalid="ignore"):        # (a signaling NaN compared raises the flag)
            for a in relu_layouts(values):
                assert same_bits(kernels.relu(a), np.where(a < 0, 0, a).astype(a.dtype, copy=False)), (dtype, a)
            if np.dtype(dtype).kind != "f":
                continue
            results, grads = np.repeat(values, len(values)), np.tile(values, len(values))
            for r, g in ((results, grads), (kernels.relu(results), grads[::-1]), (results[::2], grads[1::2])):
                for threshold in (0, 0.5, -1):
                    assert same_bits(kernels.threshold_backward(g, r, threshold),
                                     np.where(r <= threshold, 0, g)), (dtype, r, g, threshold)
            for a, g in zip(relu_layouts(values, seed=1), relu_layouts(values[::-1], seed=2)):
                r = kernels.relu(np.asarray(a))
                assert same_bits(kernels.threshold_backward(g, r), np.where(r <= 0, 0, g)), (dtype, r, g)


def test_relu_kernels_are_np_where_on_every_special_value():
    check_relu_kernels()


@pytest.mark.parametrize("dtype", (np.float16, np.float32, np.float64))
def test_relu_gradient_through_the_engine_is_threshold_backward_of_the_result(dtype):
    """x.relu().backward(g): ReluBackward0's backward is threshold_backward itself
    (no frame of its own); x.grad has np.where's bits for every special value and
    gradient (signaling NaNs, -0.0, denormals), 0-d, empty, strided and broadcast."""
    import autograd_teach as torch
    values = relu_specials(dtype)
    for a, g in zip(relu_layouts(values, seed=3), relu_layouts(values[::-1], seed=4)):
        if a.shape != g.shape or a.size > 4096:
            continue
        x = torch.tensor(np.array(a), requires_grad=True)
        with np.errstate(invalid="ignore"):
            y = x.relu()
            y.backward(torch.tensor(np.array(g)))
            r = np.where(a < 0, 0, a).astype(a.dtype)
            expected = np.where(r <= 0, 0, g).astype(a.dtype)
        assert type(y.grad_fn).__name__ == "ReluBackward0"
        assert same_bits(y.detach().numpy(), r) and same_bits(x.grad.numpy(), expected), (dtype, a, g)


def test_relu_gradient_reads_the_result_as_backward_finds_it():
    """A result changed through .data (unseen by the version counter) is what
    backward masks with, as in PyTorch: threshold_backward(grad, result, 0), so a
    result made negative gives 0 (PyTorch 2.13: [0, 0, 0, 0, 5]). A shortcut that
    relied on relu's results never being negative would give the gradient there."""
    import autograd_teach as torch
    x = torch.tensor([1.0, -2.0, 3.0, 0.5, float("nan")], requires_grad=True)
    y = x.relu()
    y.data.mul_(-1)
    y.backward(torch.tensor([1.0, 2.0, -3.0, 4.0, 5.0]))
    assert same_bits(x.grad.numpy(), np.array([0, 0, 0, 0, 5], np.float32))


def test_relu_candidates_wrong_on_one_special_value_are_refused():
    """The probes catch a maximum giving +0.0 for -0.0 (as ARM's fmax does), a
    canonical NaN for a NaN with a payload, or a wrong bit only at some
    lengths, layouts or 0-d: the reference (np.where) is kept."""
    from autograd_teach.kernels import masks
    zero, ref = masks.zero_of(np.float32), masks.where_relu
    arm_like = lambda a: np.where(a == 0, zero, np.maximum(zero, a))               # noqa: E731
    canonical_nan = lambda a: np.where(np.isnan(a), np.float32(np.nan), ref(a))    # noqa: E731
    probes = masks.probes(np.float32)
    wrong = [arm_like, canonical_nan,
             lambda a: arm_like(a) if a.size > 40 else ref(a),
             lambda a: ref(a) if a.flags.c_contiguous else arm_like(a),
             lambda a: ref(a) if a.ndim else arm_like(a),
             lambda a: ref(a).astype(np.float64)]
    assert masks.first_exact(wrong, ref, probes) is ref
    right = lambda a: np.where(a < 0, np.float32(0), a)                            # noqa: E731
    assert masks.first_exact([*wrong, right], ref, probes) is right


def test_relu_kernels_are_exact_on_every_numpy_simd_target():
    """numpy chooses its loops at import among the SIMD targets of its build the
    CPU has; NPY_DISABLE_CPU_FEATURES turns targets off (one the CPU lacks is
    ignored). Under each, down to the baseline, the relu kernels choose their
    numpy call anew and give np.where's bits."""
    import os
    import pathlib
    import subprocess
    import sys
    from numpy._core._multiarray_umath import __cpu_dispatch__ as targets
    here = pathlib.Path(__file__).parent
    code = ("import sys; sys.path.insert(0, {!r}); import test_fast_paths as t; t.check_relu_kernels();"
            "from numpy._core._multiarray_umath import __cpu_features__ as f; print(' '.join(k for k in f if f[k]))")
    for i in range(len(targets)):
        off = targets[i:]
        env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(off))
        done = subprocess.run([sys.executable, "-c", code.format(str(here))], capture_output=True, text=True,
                              env=env, cwd=here.parent, timeout=300)
        assert done.returncode == 0, (off, done.stderr[-3000:])
        assert not set(off) & set(done.stdout.split()), (off, done.stdout)     # numpy did turn them off


def test_fma_in_chunks_is_one_fma():
    """A large fma is worked in chunks of FMA_CHUNK: the same bits as one pass,
    halfway and tiny cases included, with scalar and array operands."""
    from autograd_teach.kernels import float32
    rng = np.random.default_rng(2)
    n = 2 * float32.FMA_CHUNK + 12348     # (a multiple of 5: see the reshape below)
    assert n % 5 == 0
    a = rng.standard_normal(n).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    a[:12], c[:12] = SPECIALS, SPECIALS[::-1]
    a[12:20], c[12:20] = np.float32(1 + 2 ** -23), np.float32(2 ** -25)   # sums that land halfway in float64
    for b in (np.float32(-0.1), np.float32(3), rng.standard_normal(n).astype(np.float32)):
        with np.errstate(all="ignore"):
            for x, z in ((a, c), (a.reshape(-1, 5)[:, ::-1].T, c.reshape(-1, 5)[:, ::-1].T)):
                y = b if np.ndim(b) == 0 else b.reshape(x.shape)
                assert same_bits(float32.fma(x, y, z), float32._fma(x, y, z))


def test_large_product_with_a_transposed_small_right_side_is_blas():
    """F.linear's last layer on a large batch (x @ w.t() with few columns):
    past REPLAY_WORK it is numpy's product (PyTorch's order there was not
    found); a row-major right side keeps PyTorch's loop at any size."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((256, 256)).astype(np.float32)
    w = rng.standard_normal((10, 256)).astype(np.float32)
    assert same_bits(matmul_order.mm(a, w.T), np.matmul(a, w.T))
    b = np.ascontiguousarray(w.T)
    assert same_bits(matmul_order.mm(a, b), matmul_order._products_summed_in_order(a, b))
    small = a[:8, :64]
    assert same_bits(matmul_order.mm(small, w[:, :64].T), matmul_order._products_summed_in_order(small, w[:, :64].T))


@pytest.mark.parametrize("dtype", (np.float32, np.float64))
def test_sum_backward_and_short_sum_are_np_full_and_ndarray_sum(dtype):
    import autograd_teach as torch
    from autograd_teach.kernels.float32 import cascade_sum
    for value in SPECIALS.astype(dtype):
        for shape in ((), (0,), (3,), (2, 2), (1, 4)):
            x = torch.zeros(shape, dtype=torch.float32 if dtype == np.float32 else torch.float64,
                            requires_grad=True)
            x.sum().backward(torch.tensor(value))
            assert same_bits(x.grad.numpy(), np.full(shape, np.asarray(value)))
    for a in (SPECIALS[:4], SPECIALS[4:8], SPECIALS[:1], SPECIALS[:0], np.float32(-0.0) * np.ones((2, 2), np.float32)):
        a = a.astype(dtype)
        want = a.sum(keepdims=False)
        want = want if want else want + a.dtype.type(0)
        assert same_bits(cascade_sum(a), want)
        assert same_bits(cascade_sum(a, keepdims=True), a.sum(keepdims=True) + a.dtype.type(0))


def test_int_index_fast_path_is_the_general_select():
    """x[i] with a Python int takes a short way to SelectBackward0; it must be
    what the general path (_basic with a one-element index) gives: values,
    node, view (shared version counter), errors."""
    import autograd_teach as torch
    from autograd_teach.core import indexing
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    y = x * 1
    for i in (0, 2, -1, -3):
        fast, general = y[i], indexing._basic(y, (i,), False)
        assert fast.tolist() == general.tolist() and type(fast.grad_fn) is type(general.grad_fn)
        assert fast.grad_fn.name() == "SelectBackward0" and fast._version_box is y._version_box
        assert fast.grad_fn._saved_index == general.grad_fn._saved_index
    for i in (3, -4):
        with pytest.raises(IndexError) as fast_error:
            y[i]
        with pytest.raises(IndexError) as general_error:
            indexing._basic(y, (i,), False)
        assert str(fast_error.value) == str(general_error.value) == \
            f"index {i} is out of bounds for dimension 0 with size 3"
    y[1].sum().backward()
    assert x.grad.tolist() == [[0.0] * 4, [1.0] * 4, [0.0] * 4]
    assert y[np.int64(1)].tolist() == y[1].tolist()          # numpy ints: the general path, same result
    assert y[True].shape == (1, 3, 4)                         # a bool is not an int index (advanced)
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        torch.tensor(1.0)[0]


def test_a_truthy_create_graph_keeps_the_grad_mode_count_exact():
    import autograd_teach as torch
    from autograd_teach.core import grad_mode
    x = torch.ones(2, requires_grad=True)
    for create_graph in (2, 0, 1, "yes", ""):
        (x * x).sum().backward(create_graph=create_graph)
        assert grad_mode.threads_without_grad == [] and torch.is_grad_enabled()
    with torch.no_grad():
        y = x * 2
        assert y.grad_fn is None and grad_mode.threads_without_grad == [None]
    assert grad_mode.threads_without_grad == []


def test_a_given_root_gradient_of_the_same_dtype_is_not_copied_nor_kept():
    import autograd_teach as torch
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g = torch.tensor([3.0, 4.0])
    x.backward(g)                      # a leaf as root: its .grad is a copy, not g
    g.mul_(0)
    assert x.grad.tolist() == [3.0, 4.0]
    x.grad = None
    (x * 2).backward(torch.tensor([1.0, 1.0], dtype=torch.float64))   # another dtype: cast to the output's
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [2.0, 2.0]
    y = x * 3                         # a non-leaf root: its own grad_fn, no AccumulateGrad made for it
    y.backward(torch.ones(2))
    assert x.grad.tolist() == [5.0, 5.0]


def large_specials(shape, seed):
    """float32 values of `shape`, a quarter of them the special values."""
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 30).astype(np.float32)
    mask = rng.random(shape) < 0.25
    a[mask] = rng.choice(SPECIALS, size=int(mask.sum()))
    return a


def test_large_via_float64_and_sigmoid_in_place_are_the_general_lines():
    from autograd_teach.kernels import float32 as F
    with np.errstate(all="ignore"):
        for a in (large_specials((70, 64), 5), large_specials((64, 70), 6).T, large_specials((4096,), 7)):
            assert a.size >= F.IN_PLACE
            for fn in (np.exp, np.tanh, np.sin, np.log1p):
                assert same_bits(F.via_float64(fn, a), fn(a.astype(np.float64)).astype(np.float32)), fn
            assert same_bits(F.sigmoid(a), 1 / (1 + np.exp((-a).astype(np.float64)).astype(np.float32)))


def _col2im_by_offsets(cols, size, stride, padding, dilation):
    from autograd_teach.ops import conv
    nd = len(size)
    padded = np.zeros(cols.shape[:2] + tuple(s + 2 * p for s, p in zip(size, padding)), cols.dtype)
    conv._add_offsets(padded, cols, cols.shape[2:2 + nd], cols.shape[2 + nd:], stride, dilation)
    return padded[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, size))]


@pytest.mark.parametrize("kernel,size,padding", [((2, 2), (8, 8), (0, 0)), ((3, 2), (7, 9), (1, 0)), ((2,), (9,), (1,))])
def test_tiled_windows_add_in_one_step_as_offset_by_offset(kernel, size, padding):
    from autograd_teach.ops import conv
    out = tuple((s + 2 * p - k) // k + 1 for s, p, k in zip(size, padding, kernel))
    for dtype in (np.float32, np.float64):
        cols = large_specials((2, 3) + kernel + out, 8).astype(dtype)
        with np.errstate(all="ignore"):
            assert same_bits(conv._col2im(cols, size, kernel, padding, (1,) * len(kernel)),
                             _col2im_by_offsets(cols, size, kernel, padding, (1,) * len(kernel)))


def _conv_transpose_by_offsets(x, w, size, padding, dilation, groups):
    n, c, g, kernel, in_size = x.shape[0], x.shape[1], groups, w.shape[2:], x.shape[2:]
    cols = w.reshape(g, c // g, -1).transpose(0, 2, 1) @ x.reshape(n, g, c // g, int(np.prod(in_size)))
    cols = cols.reshape(n, w.shape[1] * g, *kernel, *in_size)
    return _col2im_by_offsets(cols, size, (1,) * len(kernel), padding, dilation)


@pytest.mark.parametrize("x_shape,w_shape,padding,dilation,groups", [
    ((3, 4, 6, 5), (4, 2, 3, 2), (0, 0), (1, 1), 1),
    ((2, 4, 5, 7), (4, 3, 2, 3), (1, 2), (2, 1), 2),
    ((2, 2, 9), (2, 3, 4), (2,), (3,), 1),
    ((0, 2, 4, 4), (2, 1, 2, 2), (0, 0), (1, 1), 1),
])
def test_conv_transpose_on_whole_rows_is_offset_by_offset(x_shape, w_shape, padding, dilation, groups):
    """Stride 1 (the input's gradient of every stride-1 convolution): x is
    widened with zero columns; the sums and their order must not change,
    -0.0, inf and nan in x included; a weight with inf or nan takes the
    general way (0 * inf would be nan)."""
    from autograd_teach.ops import conv
    k = w_shape[2:]
    size = tuple(i - 1 - 2 * p + d * (kk - 1) + 1 for i, p, d, kk in zip(x_shape[2:], padding, dilation, k))
    for dtype in (np.float32, np.float64):
        x = large_specials(x_shape, 9).astype(dtype)
        for w in (np.random.default_rng(10).standard_normal(w_shape).astype(dtype), large_specials(w_shape, 11).astype(dtype)):
            with np.errstate(all="ignore"):
                got = conv._conv_transpose(x, w, (1,) * len(k), padding, (0,) * len(k), dilation, groups)
                want = _conv_transpose_by_offsets(x, w, size, padding, dilation, groups)
            assert same_bits(got, np.ascontiguousarray(want)), (dtype, w)


def test_float32_fma_in_place_is_random_fma32():
    """kernels/float32.fma (the optimizers' and add(alpha)'s kernel) works on its
    float64 sum in place and checks the halfway cases on the bits left over;
    it must be random.fma32 bit for bit: halfway sums (c near -a*b), zeros,
    results below float32's normal range, inf, nan, broadcast scalars."""
    from autograd_teach.kernels.float32 import fma
    from autograd_teach.compat.random import fma32
    rng = np.random.default_rng(12)
    a = large_specials((5000,), 13)
    b = rng.standard_normal(5000).astype(np.float32)
    near = (a.astype(np.float64) * b).astype(np.float32)
    with np.errstate(all="ignore"):
        for c in (near, -near, np.zeros_like(near), near * np.float32(1e-30), np.float32(1e-38) * b, large_specials((5000,), 14)):
            assert same_bits(fma(a, b, c), fma32(a, b, c))
            assert same_bits(fma(a, np.float32(-0.1), c), fma32(a, np.float32(-0.1), c))
            assert same_bits(fma(np.float32(0.9), b, c), fma32(np.float32(0.9), b, c))
        assert same_bits(np.asarray(fma(np.float32(3), np.float32(1e-20), np.float32(1))),
                         np.asarray(fma32(np.float32(3), np.float32(1e-20), np.float32(1)))[()])


def _sequential_products(a, b):
    acc = a[:, 0:1] * b[0:1, :]
    for i in range(1, a.shape[1]):
        acc = acc + a[:, i:i + 1] * b[i:i + 1, :]
    return acc


@pytest.mark.parametrize("block", (1 << 20, 7))
def test_small_output_products_are_summed_left_to_right(block, monkeypatch):
    """mm's small outputs (PyTorch's own loop, not BLAS) sum all products at
    once with numpy's reduction over K: the loop's sums exactly, a NaN's
    payload aside (it prints as nan alike), and a sum of products that are
    all -0.0 is 0.0 (torch 2.13: torch.full((3, 5), -0.) @ torch.ones(5, 2)
    is +0.0), where the loop gave -0.0. In blocks of rows too."""
    monkeypatch.setattr(matmul_order, "BLOCK", block)
    rng = np.random.default_rng(15)
    with np.errstate(all="ignore"):
        for m, k, n in ((256, 256, 10), (3, 5, 2), (4, 100, 11), (5, 512, 3), (9, 4, 2)):
            for a, b in ((rng.standard_normal((m, k)), rng.standard_normal((k, n))),
                         (rng.choice(SPECIALS, (m, k)), rng.choice(SPECIALS, (k, n)))):
                a, b = a.astype(np.float32), b.astype(np.float32)
                got, want = matmul_order.mm(a, b), _sequential_products(a, b)
                nan = np.isnan(got) & np.isnan(want)
                assert same_bits(np.where(nan, 0, got), np.where(nan, 0, want)), (m, k, n)
        zeros = matmul_order.mm(np.full((3, 5), -0.0, np.float32), np.ones((5, 2), np.float32))
        assert zeros.tolist() == [[0.0] * 2] * 3 and not np.signbit(zeros).any()


def test_a_tensor_dataset_batch_is_the_collated_rows():
    """A DataLoader over a TensorDataset with default_collate takes each
    tensor's rows in one indexing; it must give what stacking each example's
    rows gives (values, dtype, shape, strides, no graph), and keep the
    general way where that differs: a tensor that requires grad (its graph),
    an index out of range (PyTorch's error)."""
    import autograd_teach as torch
    from autograd_teach.utils.data import dataloader as D
    x = torch.tensor(large_specials((7, 3, 2), 16))
    y = torch.arange(7)
    z = torch.tensor(np.arange(7) % 2 == 0)
    ds = torch.utils.data.TensorDataset(x, y, z, x[:, 0, 0])
    for index in ([3, 1, 6], [0], [-1, 2], list(range(7))):
        got = D._rows_at_once(ds.tensors, index)
        want = D.default_collate([ds[i] for i in index])
        assert len(got) == len(want) == 4
        for g, w in zip(got, want):
            assert same_bits(g.numpy(), w.numpy()) and g.numpy().strides == w.numpy().strides
            assert g.grad_fn is None and not g.requires_grad and g._base is None
    assert [b[1].tolist() for b in torch.utils.data.DataLoader(ds, 3)] == [[0, 1, 2], [3, 4, 5], [6]]
    w = torch.ones(7, requires_grad=True)
    batch = next(iter(torch.utils.data.DataLoader(torch.utils.data.TensorDataset(w), 3)))
    assert D._rows_at_once((w,), [0, 1]) is None and batch[0].grad_fn.name() == "StackBackward0"
    with torch.no_grad():
        assert D._rows_at_once((w,), [0, 1]) is not None
    assert D._rows_at_once(ds.tensors, [7]) is None and D._rows_at_once(ds.tensors, [-8]) is None
    with pytest.raises(IndexError, match="index 7 is out of bounds for dimension 0 with size 7"):
        list(torch.utils.data.DataLoader(ds, batch_sampler=[[1, 7]]))


def test_sigmoid_backward_in_one_array_is_the_formula():
    from autograd_teach.core.ops.pointwise import SigmoidBackward0
    node = SigmoidBackward0.__new__(SigmoidBackward0)
    with np.errstate(all="ignore"):
        for dtype in (np.float32, np.float64):
            for result, grad in ((large_specials((64, 65), 17), large_specials((64, 65), 18)),
                                 (large_specials((5,), 19), large_specials((3, 5), 20)),
                                 (large_specials((3, 5), 21).T, large_specials((5, 3), 22)),
                                 (np.asarray(np.float32(0.25)), np.asarray(np.float32(-0.0)))):
                r, g = result.astype(dtype), grad.astype(dtype)
                assert same_bits(np.asarray(node.backward(g, r)), np.asarray(g * (1 - r) * r))
        r32, g64 = large_specials((4, 4), 23), large_specials((4, 4), 24).astype(np.float64)
        assert same_bits(node.backward(g64, r32), g64 * (1 - r32) * r32)


def test_a_large_weight_gradient_is_the_same_sums_in_another_order(monkeypatch):
    """Past SMALL_COLUMNS the weight's gradient hands its columns to the
    product transposed: the same sums, in BLAS's other order, so equal to
    float32 rounding (not bit for bit: docs/float32.md says where the bits
    are PyTorch's); below it, the pixel-by-pixel layout, whose bits are."""
    from autograd_teach.ops import conv
    rng = np.random.default_rng(25)
    for x_shape, kernel, stride, padding, dilation, groups, out_c in (
            ((8, 2, 12, 11), (3, 3), (1, 1), (1, 1), (1, 1), 1, 4),
            ((4, 4, 9, 10), (2, 3), (2, 1), (0, 2), (1, 2), 2, 6)):
        x = rng.standard_normal(x_shape).astype(np.float32)
        out = conv._conv(x, rng.standard_normal((out_c, x_shape[1] // groups) + kernel).astype(np.float32),
                         stride, padding, dilation, groups)
        grad = rng.standard_normal(out.shape).astype(np.float32)
        small = conv._conv_weight(x, grad, kernel, stride, padding, dilation, groups)
        monkeypatch.setattr(conv, "SMALL_COLUMNS", 0)
        large = conv._conv_weight(x, grad, kernel, stride, padding, dilation, groups)
        monkeypatch.undo()
        assert large.shape == small.shape and large.dtype == np.float32
        np.testing.assert_allclose(large, small, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape, weight, stride, padding, dilation, groups", [
    ((9, 1, 12, 12), (6, 1, 5, 5), 1, 2, 1, 1),       # LeNet's first layer, smaller
    ((7, 6, 8, 8), (4, 6, 3, 3), 1, 0, 1, 1),
    ((5, 4, 9, 8), (6, 2, 3, 3), 2, 1, 1, 2),
    ((6, 4, 9, 8), (4, 4, 3, 2), 1, 1, 2, 1),
    ((5, 3, 11), (4, 3, 3), 1, 1, 1, 1),
])
def test_convolution_by_blocks_of_samples_is_one_pass(monkeypatch, shape, weight, stride, padding, dilation, groups):
    """ops/conv.py makes the columns a block of samples at a time (BLOCK
    elements): the output and the input's gradient are each sample's same
    sums, so the bits of one pass over the batch; the weight's gradient adds
    the blocks' sums in turn, so it only agrees to rounding."""
    from autograd_teach.ops import conv
    rng = np.random.default_rng(4)
    nd = len(shape) - 2
    x = rng.standard_normal(shape).astype(np.float32)
    x[0, 0, ..., :2] = -0.0
    w = rng.standard_normal(weight).astype(np.float32)
    args = ((stride,) * nd, (padding,) * nd, (dilation,) * nd)

    def run():
        out = conv._conv(x, w, *args, groups)
        grad = np.cos(np.arange(out.size, dtype=np.float32)).reshape(out.shape)
        extra = conv._backward_output_padding(x.shape[2:], out.shape[2:], w.shape[2:], *args)
        return (out, conv._conv_transpose(grad, w, args[0], args[1], extra, args[2], groups),
                conv._conv_weight(x, grad, w.shape[2:], *args, groups))
    monkeypatch.setattr(conv, "SMALL_COLUMNS", 0)      # the large inputs' weight gradient
    monkeypatch.setattr(conv, "BLOCK", 1 << 40)
    whole = run()
    monkeypatch.setattr(conv, "BLOCK", 1)              # one sample a block
    blocks = run()
    assert same_bits(blocks[0], whole[0]) and same_bits(blocks[1], whole[1])
    np.testing.assert_allclose(blocks[2], whole[2], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", (np.float32, np.float64))
def test_a_sum_of_one_vector_is_its_permuted_running_sum(dtype):
    """cascade_sum of one to two vectors' worth of elements (a batch of 10's
    loss) adds them as one running sum in _vectors_sum's order: the same bits."""
    from autograd_teach.kernels import float32
    rng = np.random.default_rng(5)
    lanes = float32.LANES_BYTES // np.dtype(dtype).itemsize
    for n in range(lanes, 2 * lanes):
        for x in (rng.standard_normal((3, n)), rng.choice(SPECIALS, (3, n)), np.full((1, n), -0.0),
                  rng.standard_normal((3, n)) * np.float32(2.0 ** 100)):
            x = x.astype(dtype)
            with np.errstate(all="ignore"):
                assert same_bits(float32._inner_sum(x), float32._vectors_sum(x, lanes)), (n, x)


@pytest.mark.parametrize("dtype", (np.float32, np.float64))
def test_add_with_alpha_is_fused_up_to_its_size_then_rounds_twice(dtype):
    """add/sub with an alpha (SGD's param.add_(grad, alpha=-lr)) is one
    fused multiply-add up to FUSED_UP_TO elements, PyTorch's bits; past it,
    numpy's a + alpha * b, as docs/float32.md says."""
    from autograd_teach import kernels
    from autograd_teach.kernels import float32
    rng = np.random.default_rng(6)
    for n in (float32.FUSED_UP_TO, float32.FUSED_UP_TO + 1):
        a, b = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
        got = kernels.add_scaled(a, -0.1, b)
        fused = kernels.fma(b, np.asarray(-0.1, dtype), a)
        twice = a + dtype(-0.1) * b
        assert same_bits(got, fused if n <= float32.FUSED_UP_TO else twice)
        assert not same_bits(fused, twice)       # (the two differ at these sizes: the test can fail)


def test_sigmoid_of_a_large_map_in_chunks_is_one_pass():
    """kernels.sigmoid works a contiguous activation map a chunk at a time:
    elementwise, so the bits of one pass (the specials too)."""
    from autograd_teach.kernels import float32
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(3 * float32.FMA_CHUNK + 7) * 30).astype(np.float32)
    a[:len(SPECIALS)] = SPECIALS
    with np.errstate(all="ignore"):
        for x in (a, a.reshape(5, -1), a[::-1]):
            assert same_bits(float32.sigmoid(x), float32._sigmoid_in_place(x))


def test_sleef_polynomial_checked_once_is_the_fma_chain():
    """kernels.sleef_exp's polynomial checks for double rounding once, after
    the chain, and redoes the flagged elements: the bits of one exact fma
    per step, on values of every scale, specials, and short values whose
    sums land halfway between two float32."""
    from autograd_teach.kernels import float32
    rng = np.random.default_rng(8)
    cases = [(rng.standard_normal(4000) * scale).astype(np.float32) for scale in (1e-30, 1e-3, 0.35, 1, 100)]
    cases += [SPECIALS, (np.arange(-20000, 20000) / 2.0 ** 16).astype(np.float32)]
    with np.errstate(all="ignore"):
        for s in cases:
            assert same_bits(float32._expf_polynomial(s), float32._expf_polynomial_fused(s))
