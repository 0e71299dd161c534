"""The lessons' exercises: predict, then check, without seeing the answer first.

    from autograd_teach.lessons import Checker
    check = Checker("en")          # or Checker("zh"): every message in Chinese

    guess = ...                    # the learner replaces ... with a prediction
    check(guess, x.grad)           # x.grad is what the code really computed

``check`` never shows the answer before the guess:

- ``guess`` still ``...`` (or a list holding one): it prints only the prompt;
- a wrong guess: ✗, and nothing else;
- a right guess: ✓, and then the answer;
- ``check(guess, answer, reveal=True)``: the answer, without a guess (giving up
  is allowed, but it is a choice, not a side effect of running the cell).

The same call checks code the learner writes: ``check(my_result, reference)``.

A Checker holds its language and nothing else, so there is no global state:
each lesson makes its own in its first cell.  It knows nothing of the renderer.
"""
from __future__ import annotations

import math

__all__ = ["Checker", "MESSAGES", "matches"]

MESSAGES = {
    "en": {
        "prompt": "Your turn: replace ... with your prediction (or your code), then run this cell again.",
        "right": "✓ right.",
        "wrong": "✗ not yet: think again, change your guess (or your code) and rerun the cell.",
        "answer": "answer:",
        "why": "The reason is under 'Why' below.",
        "revealed": "(revealed without a guess)",
    },
    "zh": {
        "prompt": "轮到你了：把 ... 换成你的预测（或你的代码），再运行一次这个单元格。",
        "right": "✓ 答对了。",
        "wrong": "✗ 还不对：再想一想，改一改猜测（或代码），重新运行这个单元格。",
        "answer": "答案：",
        "why": "原因见下面的“为什么”。",
        "revealed": "（没有猜测，直接查看了答案）",
    },
}

RTOL, ATOL = 1e-5, 1e-6  # a guess of 0.1 matches a float32 0.1; typed numbers are never exact


def _values(x):
    """A Tensor (or anything with .tolist()) as plain Python numbers; others unchanged."""
    tolist = getattr(x, "tolist", None)
    return tolist() if callable(tolist) and not isinstance(x, (str, bytes)) else x


def matches(guess, answer):
    """Whether ``guess`` is ``answer``: numbers within a small tolerance, lists and
    tensors element by element with the same shape, bools only by bools, the rest by ==."""
    guess, answer = _values(guess), _values(answer)
    if isinstance(answer, bool) or isinstance(guess, bool):
        return type(guess) is type(answer) and guess == answer
    if isinstance(answer, (int, float)) and isinstance(guess, (int, float)):
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


class Checker:
    """``check = Checker(lang)``; then ``check(guess, answer, reveal=False)`` prints
    the prompt, ✗, or ✓ and the answer (see the module's docstring)."""

    def __init__(self, lang="en"):
        if lang not in MESSAGES:
            raise ValueError(f"lang must be one of {sorted(MESSAGES)}, got {lang!r}")
        self.lang = lang

    def __repr__(self):
        return f"Checker({self.lang!r})"

    def __call__(self, guess, answer, *, reveal=False):
        say = MESSAGES[self.lang]
        if _placeholder(guess) and not reveal:
            print(say["prompt"])
            return
        if _placeholder(guess):
            print(say["answer"], _show(answer), say["revealed"])
            return
        right = matches(guess, answer)
        print(say["right"] if right else say["wrong"])
        if right or reveal:
            print(say["answer"], _show(answer))
            print(say["why"])
        # Returns nothing: a returned bool would be echoed as the cell's Out[] value.


def _placeholder(guess):
    """``...``, or a list still holding a ``...`` (code the learner has not written yet)."""
    return guess is ... or (isinstance(guess, (list, tuple)) and any(g is ... for g in guess))


def _show(answer):
    """The answer as the learner would type it: a tensor as its list of numbers."""
    return repr(_values(answer))
