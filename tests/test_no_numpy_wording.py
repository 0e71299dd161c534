"""No numpy wording and no numpy warning reaches the learner (issue 20).

PyTorch computes with inf and nan silently and words its own errors; numpy
warns ("divide by zero encountered in log") and says "operands could not be
broadcast", "ufunc", "inhomogeneous shape". This sweeps the op surface (every
Tensor method, torch function and nn.functional function, with no argument, a
tensor or a number) over degenerate values (0, -1, +-inf, nan, huge, tiny), in
float32, float64, int64 and bool, forward and backward, with warnings turned
into errors, and checks that nothing that escapes speaks numpy."""
import warnings

import pytest

import autograd_teach as torch
import autograd_teach.nn.functional as F

NUMPYISMS = ("encountered in", "ufunc", "operands could not be broadcast", "setting an array element",
             "inhomogeneous", "broadcast together with remapped", "could not be broadcast", "numpy boolean",
             "arrays used as indices", "only integer scalar arrays")
VALUES = [0.0, -1.0, float("inf"), float("-inf"), float("nan"), 1e30, -1e30, 1e-40, 2.0, 0.5]
NOT_OPS = {"backward", "register_hook", "retain_grad", "requires_grad_", "share_memory_", "apply_", "map_", "tolist",
           "item", "numpy", "detach_", "uniform_", "normal_", "random_", "exponential_", "geometric_", "cauchy_",
           "log_normal_", "bernoulli_", "cuda", "pin_memory", "data_ptr", "storage", "untyped_storage",
           "register_post_accumulate_grad_hook", "load", "save", "manual_seed", "set_printoptions",
           "set_default_dtype", "set_grad_enabled", "use_deterministic_algorithms", "from_numpy"}


def numpy_wording(fn):
    """The first line of what fn raised (warnings are errors here), if it speaks numpy."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            fn()
        except Exception as e:     # noqa: BLE001 -- any PyTorch-worded error is fine
            text = f"{type(e).__name__}: {e}".splitlines()[0]
            if any(n in text for n in NUMPYISMS):
                return text
    return None


def run(op, x, *args):
    """op on x (requiring grad where it can), then backward through the result."""
    if x.is_floating_point():
        x = x.detach().requires_grad_()
    y = op(x, *args)
    for out in y if isinstance(y, tuple) else (y,):
        if getattr(out, "grad_fn", None) is not None and out.is_floating_point():
            out.sum().backward(retain_graph=True)


def inputs():
    floats = torch.tensor(VALUES)
    ints = torch.tensor([0, -1, 2, 3, 0, 5, 1, 1, 2, 0])
    return [floats, floats.double(), ints, ints > 0]


def tensor_methods():
    return sorted(n for n in dir(torch.Tensor) if not n.startswith("_") and n not in NOT_OPS
                  and callable(getattr(torch.Tensor, n, None)))


@pytest.mark.parametrize("name", tensor_methods())
def test_tensor_methods_on_degenerate_values_speak_pytorch(name):
    found = {}
    for x in inputs():
        for label, args in (("()", ()), ("(other)", (x.flip(0),)), ("(0)", (0,))):
            text = numpy_wording(lambda: run(lambda t, *a: getattr(t, name)(*a), x.clone(), *args))
            if text:
                found[f"{name}{label} {x.dtype}"] = text
    assert found == {}


@pytest.mark.parametrize("where", ["torch", "F"])
def test_functions_on_degenerate_values_speak_pytorch(where):
    module = torch if where == "torch" else F
    names = [n for n in dir(module) if not n.startswith("_") and n[0].islower() and n not in NOT_OPS
             and callable(getattr(module, n))]
    x, found = torch.tensor(VALUES), {}
    for name in names:
        for label, args in (("(x)", ()), ("(x, x)", (x.clone(),))):
            text = numpy_wording(lambda: run(getattr(module, name), x.clone(), *args))
            if text:
                found[f"{where}.{name}{label}"] = text
    assert found == {}


def test_the_sweep_sees_numpy_wording():
    """The check can fail: numpy's own warning and error are caught."""
    import numpy as np
    assert numpy_wording(lambda: np.log(np.zeros(1))) == "RuntimeWarning: divide by zero encountered in log"
    assert "could not be broadcast" in numpy_wording(lambda: np.ones(2) + np.ones(3))


def test_gradients_of_infinities_accumulate_silently_into_grad():
    x = torch.tensor([1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x * float("inf")).sum().backward()
        (x * float("-inf")).sum().backward()
        (x * float("inf") + x * float("-inf")).sum().backward()
    assert x.grad.isnan().all()


def test_numpy_warnings_are_the_learners_again_after_a_backward_even_a_failed_one():
    """The engine switches numpy's warnings off for a whole backward run (not
    node by node): afterwards the learner's own numpy code warns as before."""
    import numpy as np
    before = np.geterr()
    x = torch.tensor([0.0], requires_grad=True)
    y = x.log()
    y.sum().backward(retain_graph=True)
    assert np.geterr() == before
    x.register_hook(lambda g: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        y.sum().backward()
    assert np.geterr() == before
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="divide by zero"):
            np.log(np.zeros(1))
