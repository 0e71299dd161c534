"""x.add(array), torch.add(x, [1, 2]), ...: PyTorch's argument parser's
TypeError, word for word (compat/signatures.py). The golden
misuse_methods_refuse_arrays checks many more against torch 2.13."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.compat import signatures

ARRAY = np.array([1.0, 2.0])


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"])
def test_one_overload_names_the_argument(name):
    x = torch.tensor([1.5, -2.0])
    with pytest.raises(TypeError) as e:
        getattr(x, name)(ARRAY)
    assert str(e.value) == f"{name}(): argument 'other' (position 1) must be Tensor, not numpy.ndarray"
    assert x.tolist() == [1.5, -2.0] and x._version == 0


def test_several_overloads_are_listed_with_what_did_not_match():
    with pytest.raises(TypeError) as e:
        torch.tensor([1.0]).pow([1.0, 2])
    assert str(e.value) == (
        "pow() received an invalid combination of arguments - got (list), but expected one of:\n"
        " * (Tensor exponent)\n"
        "      didn't match because some of the arguments have invalid types: (!list of [float, int]!)\n"
        " * (Number exponent)\n"
        "      didn't match because some of the arguments have invalid types: (!list of [float, int]!)\n")


def test_only_overloads_of_the_calls_length_say_what_did_not_match():
    with pytest.raises(TypeError) as e:
        torch.tensor([1.0]).divide(None)
    lines = str(e.value).splitlines()
    assert lines[1:] == [" * (Tensor other)",
                         "      didn't match because some of the arguments have invalid types: (!NoneType!)",
                         " * (Tensor other, *, str rounding_mode)",
                         " * (Number other)",
                         "      didn't match because some of the arguments have invalid types: (!NoneType!)",
                         " * (Number other, *, str rounding_mode)"]
    with pytest.raises(TypeError) as e:
        torch.tensor([1.0]).subtract(ARRAY)     # both overloads take alpha too: no reasons given
    assert str(e.value).splitlines()[1:] == [" * (Tensor other, *, Number alpha = 1)",
                                             " * (Number other, Number alpha = 1)"]


def test_the_functions_count_positions_from_input():
    x = torch.tensor([1.0])
    with pytest.raises(TypeError, match=r"^add\(\): argument 'other' \(position 2\) must be Tensor, not list$"):
        torch.add(x, [1.0])
    with pytest.raises(TypeError, match=r"^mul\(\): argument 'input' \(position 1\) must be Tensor, not numpy.ndarray$"):
        torch.mul(ARRAY, x)
    with pytest.raises(TypeError) as e:
        torch.true_divide(ARRAY, 2)
    # the listing matches types by name, and no Python type is named Number: the 2 is marked too
    assert str(e.value).splitlines()[-1] == \
        "      didn't match because some of the arguments have invalid types: (!numpy.ndarray!, !int!)"
    with pytest.raises(TypeError, match=r"^pow\(\) received an invalid combination"):
        torch.pow(ARRAY, x)


def test_the_numpy_style_names_and_comparisons_speak_in_their_own_names():
    x = torch.tensor([1.0, 2.0])
    for name in ("true_divide", "multiply", "subtract", "divide", "true_divide_", "eq", "lt", "clamp_min",
                 "floor_divide", "remainder", "fmod"):
        with pytest.raises(TypeError, match=rf"^{name}\(\) received an invalid combination of arguments - got "
                                            r"\(numpy.ndarray\)"):
            getattr(x, name)(ARRAY)
    for name in ("atan2", "maximum", "minimum"):
        with pytest.raises(TypeError, match=rf"^{name}\(\): argument 'other' \(position 1\) must be Tensor"):
            getattr(x, name)(ARRAY)


@pytest.mark.parametrize("name", ["floor_divide_", "remainder_", "fmod_", "clamp_min_", "clamp_max_"])
def test_the_in_place_forms_speak_in_their_own_names(name):
    x = torch.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match=rf"^{name}\(\) received an invalid combination of arguments"):
        getattr(x, name)(ARRAY)
    for name, text in (("atan2_", "atan2_(): argument 'other' (position 1) must be Tensor, not int"),
                       ("copy_", "copy_(): argument 'other' (position 1) must be Tensor, not numpy.ndarray")):
        with pytest.raises(TypeError) as e:
            getattr(x, name)(2 if name == "atan2_" else ARRAY)
        assert str(e.value) == text
    assert x.tolist() == [1.0, 2.0] and x._version == 0
    assert x.copy_(3).tolist() == [3.0, 3.0]      # a number is copied (broadcast) as PyTorch's copy_ does


def test_numbers_numpy_scalars_and_tensors_still_pass():
    w = torch.tensor([1.5, -2.0], requires_grad=True)
    y = w.add(np.float64(1)).mul(np.int64(2)).true_divide(torch.tensor(4.0)).pow(np.float32(2)).subtract(1)
    assert y.grad_fn.name() == "SubBackward0"
    y.sum().backward()
    assert np.allclose(w.grad.numpy(), [(1.5 + 1) * 2 / 4 * 2 * 2 / 4, (-2.0 + 1) * 2 / 4 * 2 * 2 / 4])
    assert torch.pow(2, torch.tensor([3.0])).tolist() == [8.0]
    assert torch.divide(torch.tensor([3.0]), 2).tolist() == [1.5]
    x = torch.tensor([1.0, 2.0])
    assert (x == ARRAY).tolist() == [True, True]       # __eq__ reads the array as a tensor, as PyTorch's
    x[:] = np.array([5.0, 6.0])                        # and so does setitem
    assert x.tolist() == [5.0, 6.0]


def test_the_parser_text_for_an_overload_set_it_was_not_given():
    err = signatures.invalid_arguments("clamp_max", ("s",), torch.Tensor)
    assert str(err).startswith("clamp_max() received an invalid combination of arguments - got (str), but expected")
    assert " * (Number max)\n      didn't match because some of the arguments have invalid types: (!str!)" in str(err)
