"""Complex tensors of a real PyTorch graph (autograd_teach has no complex
dtype, so only PyTorch's graphs have them): a large one is summed up by its
norm, imaginary parts counted.  (Their values print as Python's complex repr:
compat.printing.format_tensor has no complex style, reported to the lead.)"""
from viz_torch_helpers import import_torch

torch = import_torch()
from autograd_teach import viz  # noqa: E402
from autograd_teach.viz import values  # noqa: E402


def test_a_large_complex_tensor_is_summed_up_by_its_norm(recwarn):
    torch.manual_seed(0)
    t = torch.randn(10, dtype=torch.complex64)
    assert values.short(t) == f"shape (10,), norm {torch.linalg.vector_norm(t).item():.4g}"
    assert not [w for w in recwarn if "imaginary" in str(w.message)]     # numpy's ComplexWarning


def test_a_complex_gradient_too_large_to_keep_is_summed_up_by_its_norm(recwarn):
    torch.manual_seed(0)
    z = torch.randn(5000, dtype=torch.complex64, requires_grad=True)
    y = (z * z).abs().sum()
    with viz.record() as rec:
        y.backward()
    grad = next(s.leaf_grad for s in rec.last.steps if s.leaf_grad is not None)
    assert isinstance(grad, values.Summary)
    assert values.full(grad) == f"shape (5000,), norm {torch.linalg.vector_norm(z.grad).item():.4g}"
    assert not [w for w in recwarn if "imaginary" in str(w.message)]
