"""The lessons' exercises: predict, then check, without seeing the answer first.

    from autograd_teach.lessons import Checker
    check = Checker("en")          # or Checker("zh"): every message in Chinese

    guess = ...                    # the learner replaces ... with a prediction
    check(guess, x.grad)           # x.grad is what the code really computed

``check`` never shows the answer before the guess:

- ``guess`` still ``...`` (or a list holding one): it prints only the prompt;
- a wrong guess: ✗, what *kind* of answer is expected (a bool, a number, a
  tensor of shape (2, 2)...) and, if the cell passes one, its ``hint=``;
  never the answer;
- a right guess: ✓, and then the answer;
- ``check(guess, answer, reveal=True)``: the answer, without a guess (giving up
  is allowed, but it is a choice, not a side effect of running the cell).

Equivalent forms count as the same answer: a list for a tensor, ``0``/``1`` for
``False``/``True``, a number for a tensor holding one number.  The same call
checks code the learner writes: ``check(my_result, reference)``.

A Checker holds its language and nothing else, so there is no global state:
each lesson makes its own in its first cell.  It knows nothing of the renderer.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["Checker", "MESSAGES", "matches", "kind_of"]

MESSAGES = {
    "en": {
        "prompt": "Your turn: replace ... with your prediction (or your code), then run this cell again.",
        "right": "✓ right.",
        "wrong": "✗ not yet: think again, change your guess (or your code) and rerun the cell.",
        "expected": "The answer is {kind}; yours is {got}.",
        "same_kind": "The kind is right ({kind}); the value is not.",
        "hint": "Hint:",
        "answer": "answer:",
        "why": "The reason is under 'Why' below.",
        "revealed": "(revealed without a guess)",
        "bool": "a bool",
        "bool_alt": " (True or False; 1 or 0 also count)",
        "number": "a number",
        "none": "None",
        "string": "a string",
        "tensor": "a tensor of shape {shape}",
        "tensor_alt": " (a nested list of numbers works too)",
        "list": "a list of {n} items",
        "bools": "a list of {n} bools",
        "bools_alt": " (True or False)",
        "numbers": "a list of {n} numbers",
        "numbers_alt": " (or a tensor of shape ({n},))",
        "strings": "a list of {n} strings",
        "other": "an object of type {name}",
    },
    "zh": {
        "prompt": "轮到你了：把 ... 换成你的预测（或你的代码），再运行一次这个单元格。",
        "right": "✓ 答对了。",
        "wrong": "✗ 还不对：再想一想，改一改猜测（或代码），重新运行这个单元格。",
        "expected": "答案是{kind}；你给的是{got}。",
        "same_kind": "类型对了（{kind}），数值不对。",
        "hint": "提示：",
        "answer": "答案：",
        "why": "原因见下面的“为什么”。",
        "revealed": "（没有猜测，直接查看了答案）",
        "bool": "一个布尔值",
        "bool_alt": "（True 或 False；写 1 或 0 也算）",
        "number": "一个数",
        "none": "None",
        "string": "一个字符串",
        "tensor": "一个形状为 {shape} 的张量",
        "tensor_alt": "（写成嵌套的数字列表也可以）",
        "list": "一个有 {n} 项的列表",
        "bools": "一个由 {n} 个布尔值组成的列表",
        "bools_alt": "（True 或 False）",
        "numbers": "一个由 {n} 个数组成的列表",
        "numbers_alt": "（或形状为 ({n},) 的张量）",
        "strings": "一个由 {n} 个字符串组成的列表",
        "other": "一个 {name} 类型的对象",
    },
}

RTOL, ATOL = 1e-5, 1e-6  # a guess of 0.1 matches a float32 0.1; typed numbers are never exact


def _values(x):
    """A Tensor (or anything with .tolist()) as plain Python numbers; others unchanged."""
    tolist = getattr(x, "tolist", None)
    return tolist() if callable(tolist) and not isinstance(x, (str, bytes)) else x


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _single(x):
    """The one number inside ``[[x]]``-like nesting, or ``x`` unchanged."""
    while isinstance(x, (list, tuple)) and len(x) == 1:
        x = x[0]
    return x


def matches(guess, answer):
    """Whether ``guess`` is ``answer``: numbers within a small tolerance, lists and
    tensors element by element with the same shape, a bool answer by a bool or by
    0/1, a one-number answer by that number, the rest by ==."""
    guess, answer = _values(guess), _values(answer)
    if isinstance(answer, bool):
        return (isinstance(guess, bool) or guess in (0, 1)) and _is_plain(guess) and guess == answer
    if isinstance(guess, bool):
        return False  # True is not the count 1
    if _is_number(answer) and _is_number(_single(guess)):
        guess = _single(guess)
    elif _is_number(_single(answer)) and _is_number(guess):
        answer = _single(answer)
    if _is_number(answer) and _is_number(guess):
        if math.isnan(answer) or math.isnan(guess):
            return math.isnan(answer) and math.isnan(guess)
        return math.isclose(guess, answer, rel_tol=RTOL, abs_tol=ATOL)
    if isinstance(answer, (list, tuple)):
        if not isinstance(guess, (list, tuple)) or len(guess) != len(answer):
            return False
        return all(matches(g, a) for g, a in zip(guess, answer))
    try:
        return bool(guess == answer)
    except (ValueError, TypeError):  # e.g. comparing arrays of different shapes
        return False


def _is_plain(x):
    return isinstance(x, (bool, int))


def kind_of(value, lang="en", forms=False):
    """What kind of answer ``value`` is, in words, without its value: ``a bool``,
    ``a number``, ``a tensor of shape (2, 2)``, ``a list of 3 bools``...; with
    ``forms``, followed by the other forms that count as the same answer."""
    kind, params = _kind(value)
    say = MESSAGES[lang]
    text = say[kind].format(**params)
    if forms and kind + "_alt" in say:
        text += say[kind + "_alt"].format(**params)
    return text


def _kind(value):
    """``(message key, format parameters)`` for :func:`kind_of`."""
    shape = getattr(value, "shape", None)
    if shape is not None and not isinstance(value, (str, bytes)) and callable(getattr(value, "tolist", None)):
        shape = tuple(shape)
        if len(shape) > 1:
            return "tensor", {"shape": shape}
        value = value.tolist()  # a number, or a list of numbers
    if value is None:
        return "none", {}
    if isinstance(value, bool):
        return "bool", {}
    if _is_number(value):
        return "number", {}
    if isinstance(value, str):
        return "string", {}
    if isinstance(value, (list, tuple)):
        values = [_values(v) for v in value]
        n = len(values)
        nested = _nested_shape(values)
        if nested is not None and len(nested) > 1:
            return "tensor", {"shape": nested}
        if values and all(isinstance(v, bool) for v in values):
            return "bools", {"n": n}
        if values and all(_is_number(v) for v in values):
            return "numbers", {"n": n}
        if values and all(isinstance(v, str) for v in values):
            return "strings", {"n": n}
        return "list", {"n": n}
    return "other", {"name": type(value).__name__}


def _nested_shape(values):
    """The shape of a rectangular nested list of numbers, or None."""
    if all(_is_number(v) for v in values):
        return (len(values),)
    if not all(isinstance(v, (list, tuple)) for v in values) or not values:
        return None
    inner = {_nested_shape(list(v)) for v in values}
    if len(inner) != 1 or None in inner:
        return None
    return (len(values),) + inner.pop()


class Checker:
    """``check = Checker(lang)``; then ``check(guess, answer, reveal=False, hint=None)``
    prints the prompt, ✗ with the kind of answer expected, or ✓ and the answer
    (see the module's docstring)."""

    def __init__(self, lang="en"):
        if lang not in MESSAGES:
            raise ValueError(f"lang must be one of {sorted(MESSAGES)}, got {lang!r}")
        self.lang = lang

    def __repr__(self):
        return f"Checker({self.lang!r})"

    def __call__(self, guess, answer, *, reveal=False, hint=None):
        say = MESSAGES[self.lang]
        if _placeholder(guess) and not reveal:
            print(say["prompt"])
            return
        if _placeholder(guess):
            print(say["answer"], _show(answer), say["revealed"])
            return
        right = matches(guess, answer)
        print(say["right"] if right else say["wrong"])
        if not right:
            self._explain(guess, answer, hint)
        if right or reveal:
            print(say["answer"], _show(answer))
            print(say["why"])
        # Returns nothing: a returned bool would be echoed as the cell's Out[] value.

    def _explain(self, guess, answer, hint):
        """What kind of answer is expected (never its value), and the cell's hint."""
        say = MESSAGES[self.lang]
        want, got = kind_of(answer, self.lang), kind_of(guess, self.lang)
        if want == got:
            print(say["same_kind"].format(kind=want))
        else:
            print(say["expected"].format(kind=kind_of(answer, self.lang, forms=True), got=got))
        if hint:
            print(say["hint"], hint)


def _placeholder(guess):
    """``...``, or a list still holding a ``...`` (code the learner has not written yet)."""
    return guess is ... or (isinstance(guess, (list, tuple)) and any(g is ... for g in guess))


# A float32 number shown with the digits its dtype holds: 0.9689124, where tolist()
# gives 0.9689124226570129 (the same float32; typed back, it checks ✓). float16's
# short form is further from its value than matches() allows, so it shows in full.
_SHORT = {"torch.float32": np.float32}


def _show(answer, short=None):
    """The answer as the learner would type it: a tensor as its list of numbers
    (tensors inside a list too), float32's with the digits float32 holds."""
    short = _SHORT.get(str(getattr(answer, "dtype", "")), short)
    answer = _values(answer)
    if isinstance(answer, (list, tuple)):
        inner = ", ".join(_show(v, short) for v in answer)
        return f"[{inner}]" if isinstance(answer, list) else f"({inner}{',' * (len(answer) == 1)})"
    return str(short(answer)) if short is not None and type(answer) is float else repr(answer)
