"""autograd_teach.lessons.Checker: never an answer before a right guess or an explicit reveal."""
import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.lessons import MESSAGES, Checker, kind_of, matches


def _say(capsys, check, *args, **kwargs):
    assert check(*args, **kwargs) is None  # nothing for Jupyter to echo as Out[]
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", sorted(MESSAGES))
def test_placeholder_prints_only_the_prompt(capsys, lang):
    check = Checker(lang)
    for placeholder in (..., [..., 3], (1, ...)):
        out = _say(capsys, check, placeholder, torch.tensor([4.0, 8.0]))
        assert out == MESSAGES[lang]["prompt"] + "\n"
        assert "4" not in out and "8" not in out


@pytest.mark.parametrize("lang", sorted(MESSAGES))
def test_a_wrong_guess_shows_no_answer(capsys, lang):
    out = _say(capsys, Checker(lang), [4.0, 9.0], torch.tensor([4.0, 8.0]))
    assert "✗" in out and "✓" not in out
    assert MESSAGES[lang]["answer"] not in out and "8" not in out


@pytest.mark.parametrize("lang", sorted(MESSAGES))
def test_a_right_guess_shows_the_answer(capsys, lang):
    out = _say(capsys, Checker(lang), [4, 8], torch.tensor([4.0, 8.0]))
    assert out.startswith("✓") and MESSAGES[lang]["answer"] + " [4.0, 8.0]" in out


@pytest.mark.parametrize("guess,answer,kind", [
    (4.5, torch.ones(2, 2), "a tensor of shape (2, 2)"),
    ("yes", False, "a bool"),
    ([1.0, 2.0], 3, "a number"),
    (1.0, ["SumBackward0", "MulBackward0"], "a list of 2 strings"),
    (3, torch.tensor([1.0, 2.0, 3.0]), "a tensor of shape (3,) (a list of 3 numbers works too)"),
    (3, [1.0, 2.0, 3.0], "a list of 3 numbers (or a tensor of shape (3,))"),
    (3, None, "None"),
])
def test_a_wrong_guess_says_what_kind_of_answer_is_wanted(capsys, guess, answer, kind):
    out = _say(capsys, Checker("en"), guess, answer)
    assert "✗" in out and f"The answer is {kind}" in out
    assert MESSAGES["en"]["answer"] not in out


def test_a_wrong_guess_of_the_right_kind_says_so_and_gives_the_hint(capsys):
    out = _say(capsys, Checker("zh"), [[0.0, 1.0], [2.0, 3.0]], torch.full((2, 2), 4.5), hint="每个元素都一样")
    assert "类型对了" in out and "(2, 2)" in out and "提示： 每个元素都一样" in out
    assert "4.5" not in out
    out = _say(capsys, Checker("en"), [[4.5, 4.5], [4.5, 4.5]], torch.full((2, 2), 4.5), hint="never shown")
    assert out.startswith("✓") and "never shown" not in out


def test_reveal_is_explicit(capsys):
    out = _say(capsys, Checker("zh"), ..., torch.tensor(3.0), reveal=True)
    assert "3.0" in out and MESSAGES["zh"]["revealed"] in out
    out = _say(capsys, Checker("en"), 2.0, torch.tensor(3.0), reveal=True)
    assert "✗" in out and "3.0" in out


def test_matching_rules():
    assert matches(0.1, torch.tensor(0.1))                 # float32 0.1 is 0.1 to the learner
    assert not matches(0.11, torch.tensor(0.1))
    assert matches([[1, 2]], torch.tensor([[1.0, 2.0]]))
    assert not matches([1, 2], torch.tensor([[1.0, 2.0]]))  # the shape counts
    assert matches(0, False) and matches(1, True)          # 0/1 for a bool answer
    assert matches([1, 0, 1], [True, False, True])
    assert not matches(2, True) and not matches(0.0, False)
    assert not matches(True, 1)                            # but True is not the count 1
    assert matches(180, torch.tensor([180.0])) and matches([[4.5]], 4.5)  # one number, any nesting
    assert not matches(4.5, torch.full((2, 2), 4.5))       # four numbers are not one
    assert matches(None, None) and not matches([], None)
    assert matches(["SumBackward0"], ["SumBackward0"])
    assert not matches("3", 3)
    assert matches(float("nan"), float("nan"))


def test_language_is_checked():
    with pytest.raises(ValueError):
        Checker("fr")
    assert "✓" in MESSAGES["en"]["right"] and "✓" in MESSAGES["zh"]["right"]


def test_the_answer_shows_the_digits_of_its_dtype_and_types_back_to_it(capsys):
    """float32's tolist() gives 0.9689124226570129 for the float32 0.9689124: the
    answer shows the short form, which typed back as a guess is the same float32
    and checks ✓; float64 and float16 (whose short form matches() would refuse)
    keep all their digits; tensors inside a list are lists."""
    import numpy as np
    from autograd_teach.lessons import _show
    assert _show(torch.tensor([0.1, 1 / 3])) == "[0.1, 0.33333334]"
    assert _show(torch.tensor([1 / 3], dtype=torch.float64)) == "[0.3333333333333333]"
    assert _show(torch.tensor([[1 / 3, -2.0]], dtype=torch.float16)) == "[[0.333251953125, -2.0]]"
    assert _show([torch.tensor(-4.0), torch.tensor(-2.0)]) == "[-4.0, -2.0]"
    assert _show(torch.tensor(2.5)) == "2.5" and _show((1.25,)) == "(1.25,)" and _show(True) == "True"
    assert _show(torch.tensor([1, 2])) == "[1, 2]" and _show([0.1, 1 / 3]) == "[0.1, 0.3333333333333333]"
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.standard_normal(200) * 10.0 ** rng.integers(-6, 6, 200), [0.0, -0.0, 1e-3]])
    answer = torch.tensor(values.astype(np.float32))
    shown = _show(answer)
    typed = np.array(eval(shown), np.float32)
    assert typed.view(np.uint32).tolist() == answer.numpy().view(np.uint32).tolist()    # the same numbers, to the bit
    assert len(shown) < len(repr(answer.tolist()))
    Checker("en")(eval(shown), answer)
    assert capsys.readouterr().out.startswith("✓")


# What a learner gives, and how ✗ must describe it: what it is (a list or a tuple,
# of how many of what; a tensor's shape; bools; requires grad), never another kind.
def _gen():
    yield 1.0


@pytest.mark.parametrize("guess,en,zh", [
    ([torch.ones(3), torch.zeros(3)], "a list of 2 tensors of shape (3,)", "一个由 2 个形状为 (3,) 的张量组成的列表"),
    ((torch.ones(3), torch.zeros(3)), "a tuple of 2 tensors of shape (3,)", "一个由 2 个形状为 (3,) 的张量组成的元组"),
    ([torch.tensor(1.0), torch.tensor(2.0)], "a list of 2 tensors holding one number",
     "一个由 2 个只含一个数的张量组成的列表"),
    ((1.0, 2.0), "a tuple of 2 numbers", "一个由 2 个数组成的元组"),
    ([1.5], "a list of 1 number", "一个由 1 个数组成的列表"),
    (torch.tensor(2.5), "a tensor holding one number", "一个只含一个数的张量"),
    (2.5, "a number", "一个数"),
    (None, "None", "None"),
    (torch.ones(2, 3), "a tensor of shape (2, 3)", "一个形状为 (2, 3) 的张量"),
    (torch.ones(3), "a tensor of shape (3,)", "一个形状为 (3,) 的张量"),
    (torch.ones(3, requires_grad=True) * 2, "a tensor of shape (3,) that requires grad",
     "一个需要梯度、形状为 (3,) 的张量"),
    (torch.tensor([True, False]), "a tensor of bools of shape (2,)", "一个形状为 (2,) 的布尔张量"),
    (np.ones((2, 2)), "a numpy array of shape (2, 2)", "一个形状为 (2, 2) 的 numpy 数组"),
    (np.float32(1.5), "a number", "一个数"),
    ([[0.0, 1.0], [2.0, 3.0]], "a nested list of numbers of shape (2, 2)", "一个形状为 (2, 2) 的嵌套数字列表"),
    ([], "an empty list", "一个空列表"),
    ([torch.ones(3), None], "a list of 2 items: a tensor of shape (3,), None",
     "一个由 2 项组成的列表：一个形状为 (3,) 的张量、None"),
    (_gen(), "a generator", "一个生成器"),
    ([torch.ones(2, requires_grad=True)] * 2, "a list of 2 tensors of shape (2,) requiring grad",
     "一个由 2 个需要梯度、形状为 (2,) 的张量组成的列表"),
    ([torch.ones(2)] * 5 + [None], "a list of 6 items", "一个有 6 项的列表"),
    ({"a": 1}, "an object of type dict", "一个 dict 类型的对象"),
])
def test_kind_of_says_what_the_value_is(guess, en, zh):
    assert kind_of(guess, "en") == en
    assert kind_of(guess, "zh") == zh


def test_a_list_of_tensors_is_not_called_a_tensor(capsys):
    """Lesson 7's exercise 7.4 checks [y.detach(), x.grad]: a wrong f gives a list
    of two tensors of shape (3,), which ✗ called "a tensor of shape (2, 3)"."""
    x = torch.tensor([1.0, 2.0, 3.0])
    answer = [x ** 2, x]
    out = _say(capsys, Checker("en"), [x ** 2, 2 * x], answer)
    assert "The kind is right (a list of 2 tensors of shape (3,)); the value is not." in out
    assert "(2, 3)" not in out
    out = _say(capsys, Checker("zh"), (x ** 2, 2 * x), answer)
    assert "类型对了（一个由 2 个形状为 (3,) 的张量组成的元组），数值不对。" in out
    out = _say(capsys, Checker("en"), 3.0, answer)
    assert "The answer is a list of 2 tensors of shape (3,) (lists of numbers work too); yours is a number." in out


@pytest.mark.parametrize("guess,answer,said", [
    (torch.tensor(5.0), 3.0, "The kind is right (a tensor holding one number)"),     # a 0-d tensor counts as a number
    (np.array([1.0, 2.0]), torch.tensor([3.0, 4.0]), "The kind is right (a numpy array of shape (2,))"),
    (torch.ones(2, requires_grad=True) * 1, torch.zeros(2), "The kind is right (a tensor of shape (2,) that requires grad)"),
    ((1.0, 2.0), torch.tensor([3.0, 4.0]), "The kind is right (a tuple of 2 numbers)"),
    (_gen(), [1.0], "The answer is a list of 1 number (or a tensor of shape (1,)); yours is a generator."),
    (torch.ones(2), torch.tensor(3.0), "The answer is a tensor holding one number (a plain number works too); "
                                       "yours is a tensor of shape (2,)."),
    (2, True, "The answer is a bool (True or False; 1 or 0 also count); yours is a number."),
    (0, True, "The kind is right (a number)"),
])
def test_a_wrong_guess_is_described_as_what_it_is(capsys, guess, answer, said):
    out = _say(capsys, Checker("en"), guess, answer)
    assert "✗" in out and said in out, out


def test_both_languages_have_every_message_with_the_same_fields():
    import re
    assert set(MESSAGES["en"]) == set(MESSAGES["zh"])
    for key, english in MESSAGES["en"].items():
        fields = set(re.findall(r"{(\w+)}", english)) - {"s"}     # {s}: English plurals only
        assert fields == set(re.findall(r"{(\w+)}", MESSAGES["zh"][key])), key
