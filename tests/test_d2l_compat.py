"""What d2l chapters 2-5 need beyond the goldens (tests/golden/programs/d2l_*.py):
the exact fma behind arange/linspace, torch.save/load's own format and its
errors, numpy's argument names. Core tests: torch is not imported."""
import io
import random
from fractions import Fraction

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.compat import random as random_module
from autograd_teach.compat import range_factories, serialization


def exact_fma(a, b, c, dtype):
    return dtype(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


def hard_fma_cases(rng, n):
    """For the fma arange and linspace compute with (random.fma64 / fma32):
    products that nearly cancel the addend, ties, tiny and huge exponents."""
    for _ in range(n):
        a = rng.uniform(-1, 1) * 2.0 ** rng.randint(-40, 40)
        b = float(rng.randint(-(2 ** 20), 2 ** 20)) if rng.random() < 0.5 else rng.uniform(-8, 8)
        kind = rng.random()
        if kind < 0.3:
            c = -(a * b)                       # the result is the product's rounding error
        elif kind < 0.5:
            c = -(a * b) * (1 + 2.0 ** -rng.randint(20, 52))
        else:
            c = rng.uniform(-1, 1) * 2.0 ** rng.randint(-60, 60)
        yield a, b, c


def test_fma_is_correctly_rounded_in_double():
    rng = random.Random(0)
    a, b, c = map(np.array, zip(*hard_fma_cases(rng, 4000)))
    got = random_module.fma64(a, b, c)
    want = np.array([exact_fma(x, y, z, float) for x, y, z in zip(a, b, c)])
    assert np.array_equal(got, want)
    assert np.array_equal(got != (a * b + c), want != (a * b + c))   # and the naive formula differs somewhere
    assert (want != a * b + c).any()


def test_fma_is_correctly_rounded_in_float32():
    rng = random.Random(1)
    cases = [tuple(np.float32(v) for v in t) for t in hard_fma_cases(rng, 4000)]
    a, b, c = (np.array(v, dtype=np.float32) for v in zip(*cases))
    got = random_module.fma32(a, b, c)
    want = np.array([exact_fma(x, y, z, np.float32) for x, y, z in zip(a, b, c)], dtype=np.float32)
    assert got.dtype == np.float32 and np.array_equal(got, want)


def test_arange_vectors_start_from_a_rounded_base():
    """float32: values 0..15 come from two vectors of 8, the rest from the scalar formula."""
    x = torch.arange(-8.0, 8.0, 0.1)
    assert x[80].item() == 4.440892098500626e-16 and len(x) == 160
    head = range_factories.arange_values(0.1, 1.9, 0.1, np.float32)          # 18 values: 16 vectorized + 2
    base = np.float32(0.1 + 8 * 0.1)
    assert head[8] == base and head[9] == np.float32(float(base) + 0.1)


def test_arange_and_linspace_edges():
    assert torch.arange(0).shape == (0,) and torch.linspace(2, 5, 0).shape == (0,)
    assert torch.linspace(2.5, 5, 1).tolist() == [2.5]
    big = torch.arange(0.0, 1.0, 1 / 3000.0, dtype=torch.float64)
    assert len(big) == 3000 and big[0].item() == 0.0
    with pytest.raises(RuntimeError, match="unsupported range"):
        torch.arange(float("nan"))
    with pytest.raises(ValueError, match="step must be nonzero"):
        torch.arange(0, 5, 0.5, dtype=torch.int64)


def roundtrip(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64, torch.int8, torch.int16,
                                   torch.int32, torch.int64, torch.uint8, torch.bool])
def test_save_load_keeps_values_dtype_shape(dtype):
    x = torch.arange(24).reshape(2, 3, 4).to(dtype)
    for t in (x, x.transpose(0, 2), x[:, 1], x[0, 0, 0], x[:0]):
        back = roundtrip(t)
        assert back.dtype is t.dtype and back.shape == t.shape and back.tolist() == t.tolist()


def test_loaded_tensors_are_copies_not_views_of_the_file_or_of_each_other():
    x = torch.arange(4.0)
    a, b = roundtrip([x, x[1:]])
    a[1] = 100.0
    assert b.tolist() == [1.0, 2.0, 3.0] and x.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert a._version == 1 and b._version == 0


def test_a_file_not_written_by_save_is_refused_clearly(tmp_path):
    zipped = tmp_path / "pytorch.pt"
    zipped.write_bytes(b"PK\x03\x04" + b"\0" * 40)
    with pytest.raises(RuntimeError, match=r"not written by autograd_teach.save: it is in PyTorch's format"):
        torch.load(zipped)
    other = tmp_path / "other"
    other.write_bytes(b"hello")
    with pytest.raises(RuntimeError, match="another format"):
        torch.load(str(other))
    with pytest.raises(FileNotFoundError):
        torch.load(tmp_path / "missing")


def test_the_file_is_the_header_and_a_pickle_of_plain_values(tmp_path):
    torch.save({"w": torch.ones(2)}, tmp_path / "f")
    raw = (tmp_path / "f").read_bytes()
    assert raw.startswith(serialization.MAGIC)
    assert b"numpy" not in raw and b"Tensor" not in raw       # nothing but the rebuild function is looked up


def test_weights_only_refuses_other_classes_and_false_allows_them():
    obj = {"f": Fraction(1, 3)}
    with pytest.raises(Exception, match="Unsupported global: GLOBAL fractions.Fraction") as info:
        roundtrip(obj)
    assert type(info.value).__name__ == "UnpicklingError"
    assert roundtrip(obj, weights_only=False) == obj


def test_numpy_names_in_every_reduction():
    A = torch.arange(6.0).reshape(2, 3)
    for name in ("sum", "mean", "prod", "var", "std", "argmax", "argmin"):
        assert getattr(A, name)(axis=1, keepdims=True).shape == (2, 1), name
        assert getattr(torch, name)(A, 1, keepdims=True).shape == (2, 1), name
    assert A.max(axis=0, keepdims=True).values.shape == (1, 3) and A.min(1, keepdims=True).indices.shape == (2, 1)
    with pytest.raises(TypeError, match=r"^mean\(\) got an unexpected keyword argument 'keepdims'$"):
        A.mean(0, keepdim=True, keepdims=True)


@pytest.mark.parametrize("fn", [
    lambda A: torch.linalg.norm(A),
    lambda A: torch.linalg.norm(A, dim=1),
    lambda A: torch.linalg.norm(A, 1, dim=0),
    lambda A: torch.linalg.matrix_norm(A, keepdim=True),
    lambda A: torch.linalg.vector_norm(A, 3, dim=(0, 1)),
    lambda A: torch.linalg.vector_norm(A, float("inf"), dim=1),
    lambda A: torch.linalg.norm(A, "fro") ** 2 / 2,
], ids=["norm", "norm_dim", "norm_ord1", "matrix_norm", "vector_norm_p3", "vector_norm_inf", "l2_penalty"])
def test_linalg_norms_gradcheck(fn):
    from autograd_teach.autograd import gradcheck
    rng = np.random.default_rng(3)
    A = torch.tensor(rng.uniform(0.3, 2.0, (3, 4)) * rng.choice([-1, 1], (3, 4)), dtype=torch.float64,
                     requires_grad=True)
    assert gradcheck(fn, (A,))
    assert fn(A).grad_fn.name() in ("LinalgVectorNormBackward0", "DivBackward0")


def test_linalg_norms_not_implemented_say_so():
    A = torch.ones(2, 2)    # (the matrix norms of ord 2, 'nuc', 1, inf: tests/test_linalg_decompositions.py)
    with pytest.raises(NotImplementedError):
        torch.linalg.vector_norm(A, float("-inf"))


def test_tensor_class_prints_as_the_package_attribute_and_still_pickles():
    import copy
    import pickle
    x = torch.arange(3.0, requires_grad=True)
    assert str(type(x)) == "<class 'autograd_teach.Tensor'>"    # d2l 2.1: type(X) next to numpy's
    assert torch.Tensor is type(x)
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is torch.Tensor and y.tolist() == [0.0, 1.0, 2.0] and y.requires_grad
    z = copy.deepcopy(torch.nn.Parameter(torch.ones(2)))
    assert type(z) is torch.nn.Parameter and z.requires_grad


def test_multinomial_refuses_what_it_cannot_draw_exactly():
    with pytest.raises(NotImplementedError, match="float32 probabilities only"):
        torch.multinomial(torch.ones(3, dtype=torch.float64), 1)
    assert torch.multinomial(torch.ones(3, dtype=torch.float64), 4, True).shape == (4,)


def test_multinomial_draws_one_uniform_per_sample_from_the_default_generator():
    torch.manual_seed(3)
    first = torch.multinomial(torch.tensor([0.2, 0.8]), 50, True)
    after = torch.rand(1)
    torch.manual_seed(3)
    u = torch.rand(50, dtype=torch.float64)          # the same 50 random64 words
    assert torch.equal(first, (u > 0.2).long()) and torch.equal(after, torch.rand(1))
    torch.manual_seed(3)
    assert torch.equal(first, torch.multinomial(torch.tensor([0.4, 1.6]), 50, True))   # rows are normalized
    with pytest.raises(NotImplementedError, match="generator"):
        torch.multinomial(torch.ones(2), 1, generator=torch.Generator())
    counts = torch.distributions.Multinomial(1000, torch.tensor([0.0, 1.0, 3.0])).sample((2,))
    assert counts.dtype == torch.float32 and counts.sum(-1).tolist() == [1000.0, 1000.0] and counts[:, 0].sum() == 0


def test_legacy_types_are_dtype_checks_not_classes_of_tensors():
    x = torch.FloatTensor([1, 2])
    assert type(x) is torch.Tensor and str(torch.FloatTensor) == "<class 'autograd_teach.FloatTensor'>"
    assert isinstance(x, torch.FloatTensor) and not isinstance(x, torch.LongTensor)
    assert torch.LongTensor(2, 3).tolist() == [[0, 0, 0], [0, 0, 0]]     # uninitialized in PyTorch: zeros here
    assert not torch.cuda.is_available() and torch.cuda.device_count() == 0
