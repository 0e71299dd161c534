"""The lessons' exercises: predict, then check, without seeing the answer first.

    from autograd_teach.lessons import Checker
    check = Checker("en")          # or Checker("zh"): every message in Chinese

    guess = ...                    # the learner replaces ... with a prediction
    check(guess, x.grad)           # x.grad is what the code really computed

``check`` never shows the answer before the guess:

- ``guess`` still ``...`` (or a list holding one): it prints only the prompt;
- a wrong guess: ✗, what *kind* of answer is expected (a bool, a number, a
  tensor of shape (2, 2)...) and what the guess is (a tuple of 2 tensors of
  shape (3,), None, a generator...), or that its kind is right; and, if the
  cell passes one, its ``hint=``; never the answer;
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

import inspect
import math

import numpy as np

__all__ = ["Checker", "MESSAGES", "matches", "same_kind", "kind_of"]

MESSAGES = {
    "en": {
        "prompt": "Your turn: replace ... with your prediction (or your code), then run this cell again.",
        "right": "✓ right.",
        "wrong": "✗ not yet: think again, change your guess (or your code) and rerun the cell.",
        "expected": "The answer is {kind}; yours is {got}.",
        "same_kind": "The kind is right ({got}); the value is not.",
        "hint": "Hint:",
        "answer": "answer:",
        "why": "The reason is under 'Why' below.",
        "revealed": "(revealed without a guess)",
        # What a value is: the answer's kind, and what the learner gave.
        "none": "None",
        "bool": "a bool",
        "number": "a number",
        "string": "a string",
        "generator": "a generator",
        "other": "an object of type {name}",
        "tensor": "a tensor of shape {shape}{grad}",
        "scalar_tensor": "a tensor holding one number{grad}",
        "bool_tensor": "a tensor of bools of shape {shape}",
        "grad": " that requires grad",
        "array": "a numpy array of shape {shape}",
        "list": "list",
        "tuple": "tuple",
        "empty": "an empty {seq}",
        "nested": "a nested {seq} of numbers of shape {shape}",
        "seq_of": "a {seq} of {n} {items}",
        "mixed": "a {seq} of {n} item{s}: {items}",
        "many": "a {seq} of {n} items",
        "join": ", ",
        # ... and "the same kind" items in a list or tuple, one word per count.
        "of.number": "number{s}",
        "of.bool": "bool{s}",
        "of.string": "string{s}",
        "of.tensor": "tensor{s} of shape {shape}{grad}",
        "of.scalar_tensor": "tensor{s} holding one number{grad}",
        "of.grad": " requiring grad",
        # The other forms that count as the same answer.
        "bool_alt": " (True or False; 1 or 0 also count)",
        "tensor_alt": " (a nested list of numbers works too)",
        "vector_alt": " (a list of {n} numbers works too)",
        "scalar_alt": " (a plain number works too)",
        "bools_alt": " (True or False)",
        "numbers_alt": " (or a tensor of shape ({n},))",
        "tensors_alt": " (lists of numbers work too)",
        "scalar_tensors_alt": " (plain numbers work too)",
    },
    "zh": {
        "prompt": "轮到你了：把 ... 换成你的预测（或你的代码），再运行一次这个单元格。",
        "right": "✓ 答对了。",
        "wrong": "✗ 还不对：再想一想，改一改猜测（或代码），重新运行这个单元格。",
        "expected": "答案是{kind}；你给的是{got}。",
        "same_kind": "类型对了（{got}），数值不对。",
        "hint": "提示：",
        "answer": "答案：",
        "why": "原因见下面的“为什么”。",
        "revealed": "（没有猜测，直接查看了答案）",
        "none": "None",
        "bool": "一个布尔值",
        "number": "一个数",
        "string": "一个字符串",
        "generator": "一个生成器",
        "other": "一个 {name} 类型的对象",
        "tensor": "一个{grad}形状为 {shape} 的张量",
        "scalar_tensor": "一个{grad}只含一个数的张量",
        "bool_tensor": "一个形状为 {shape} 的布尔张量",
        "grad": "需要梯度、",
        "array": "一个形状为 {shape} 的 numpy 数组",
        "list": "列表",
        "tuple": "元组",
        "empty": "一个空{seq}",
        "nested": "一个形状为 {shape} 的嵌套数字{seq}",
        "seq_of": "一个由 {n} 个{items}组成的{seq}",
        "mixed": "一个由 {n} 项组成的{seq}：{items}",
        "many": "一个有 {n} 项的{seq}",
        "join": "、",
        "of.number": "数",
        "of.bool": "布尔值",
        "of.string": "字符串",
        "of.tensor": "{grad}形状为 {shape} 的张量",
        "of.scalar_tensor": "{grad}只含一个数的张量",
        "of.grad": "需要梯度、",
        "bool_alt": "（True 或 False；写 1 或 0 也算）",
        "tensor_alt": "（写成嵌套的数字列表也可以）",
        "vector_alt": "（写成 {n} 个数的列表也可以）",
        "scalar_alt": "（写一个数也可以）",
        "bools_alt": "（True 或 False）",
        "numbers_alt": "（或形状为 ({n},) 的张量）",
        "tensors_alt": "（每个写成数字列表也可以）",
        "scalar_tensors_alt": "（每个写成一个数也可以）",
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
    return _compare(guess, answer, values=True)


def same_kind(guess, answer):
    """Whether ``guess`` is a form :func:`matches` takes for ``answer`` (a list for a
    tensor, 0/1 for a bool...), so that only the values can make it wrong."""
    return _compare(guess, answer, values=False)


def _compare(guess, answer, values):
    guess, answer = _values(guess), _values(answer)
    if isinstance(answer, bool):
        kind = isinstance(guess, bool) or (_is_plain(guess) and guess in (0, 1))
        return kind and (not values or guess == answer)
    if isinstance(guess, bool):
        return False  # True is not the count 1
    if _is_number(answer) and _is_number(_single(guess)):
        guess = _single(guess)
    elif _is_number(_single(answer)) and _is_number(guess):
        answer = _single(answer)
    if _is_number(answer) and _is_number(guess):
        return not values or _close(guess, answer)
    if isinstance(answer, (list, tuple)):
        if not isinstance(guess, (list, tuple)) or len(guess) != len(answer):
            return False
        return all(_compare(g, a, values) for g, a in zip(guess, answer))
    if not values:
        return type(guess) is type(answer)
    try:
        return bool(guess == answer)
    except (ValueError, TypeError):  # e.g. comparing arrays of different shapes
        return False


def _close(guess, answer):
    if math.isnan(answer) or math.isnan(guess):
        return math.isnan(answer) and math.isnan(guess)
    return math.isclose(guess, answer, rel_tol=RTOL, abs_tol=ATOL)


def _is_plain(x):
    return isinstance(x, (bool, int))


def kind_of(value, lang="en", forms=False):
    """What ``value`` is, in words, without its value: ``a bool``, ``a number``,
    ``a tensor of shape (2, 2)``, ``a tuple of 2 tensors of shape (3,)``...; with
    ``forms``, followed by the other forms that count as the same answer."""
    say = MESSAGES[lang]
    key, params = _kind(value)
    text = _say_kind(key, params, say)
    alt = _alt_key(key, params)
    return text + say[alt].format(**params) if forms and alt else text


def _is_tensor(x):
    """A tensor (ours or PyTorch's): a shape and ``tolist()``; numpy's arrays and scalars aside."""
    return (getattr(x, "shape", None) is not None and callable(getattr(x, "tolist", None))
            and not isinstance(x, (str, bytes, np.ndarray, np.generic)))


def _kind(value):
    """``(message key, format parameters)`` for :func:`kind_of`: what the value is."""
    if isinstance(value, np.generic):
        value = value.item()  # a numpy number is a number to the learner
    if isinstance(value, np.ndarray):
        return "array", {"shape": value.shape}
    if _is_tensor(value):
        return _tensor_kind(value)
    if isinstance(value, (list, tuple)):
        return _sequence_kind(value)
    if value is None:
        return "none", {}
    if isinstance(value, bool):
        return "bool", {}
    if _is_number(value):
        return "number", {}
    if isinstance(value, str):
        return "string", {}
    if inspect.isgenerator(value):
        return "generator", {}
    return "other", {"name": type(value).__name__}


def _tensor_kind(tensor):
    """A bool tensor says so (numbers do not match bools); any tensor says whether it requires grad."""
    shape = tuple(tensor.shape)
    if "bool" in str(getattr(tensor, "dtype", "")):
        return "bool_tensor", {"shape": shape}
    params = {"shape": shape, "grad": bool(getattr(tensor, "requires_grad", False))}
    if len(shape) == 1:
        params["n"] = shape[0]  # for the other form of the answer: a list of n numbers
    return ("scalar_tensor" if shape == () else "tensor"), params


def _sequence_kind(value):
    """A list or tuple: nested numbers by their shape; items of one kind by their
    count and kind (``2 tensors of shape (3,)``); else each item in turn."""
    seq, n = ("tuple" if isinstance(value, tuple) else "list"), len(value)
    if n == 0:
        return "empty", {"seq": seq}
    nested = _nested_shape(value)
    if nested is not None and len(nested) > 1:
        return "nested", {"seq": seq, "shape": nested}
    items = [_kind(v) for v in value]
    key, params = items[0]
    if "of." + key in MESSAGES["en"] and all(item == items[0] for item in items):
        return "seq_of", {**params, "seq": seq, "n": n, "of": key}
    return "mixed", {"seq": seq, "n": n, "items": items}


def _say_kind(key, params, say):
    """The words for ``_kind``'s ``(key, params)`` in one language."""
    p = dict(params, s="" if params.get("n") == 1 else "s")
    if "seq" in p:
        p["seq"] = say[p["seq"]]
    if "grad" in p:
        p["grad"] = say["of.grad" if key == "seq_of" else "grad"] if p["grad"] else ""
    if key == "seq_of":
        p["items"] = say["of." + p["of"]].format(**p)
    elif key == "mixed":
        key = "mixed" if p["n"] <= 4 else "many"
        p["items"] = say["join"].join(_say_kind(k, q, say) for k, q in p["items"])
    return say[key].format(**p)


def _alt_key(key, params):
    """The message key of the other forms that count for an answer of this kind, or None."""
    if key == "tensor":
        return "vector_alt" if len(params["shape"]) == 1 else "tensor_alt"
    if key == "seq_of" and params["seq"] == "list":
        return {"bool": "bools_alt", "number": "numbers_alt", "tensor": "tensors_alt",
                "scalar_tensor": "scalar_tensors_alt"}.get(params["of"])
    return {"bool": "bool_alt", "scalar_tensor": "scalar_alt"}.get(key)


def _nested_shape(values):
    """The shape of a rectangular nested list of plain numbers, or None."""
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
        got = kind_of(guess, self.lang)
        if same_kind(guess, answer):
            print(say["same_kind"].format(got=got))
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
