"""What the learner is told about a backward that failed.

A second ``y.backward()`` raises PyTorch's "Trying to backward through the
graph a second time ..."; so can a hook, or a custom Function's backward.
The recording of such a run (recording.Recording.error) holds the steps that
ran before it raised.  draw() then shows, as a demanding teacher would want:

* the last run from the same tensor that finished, as it was, with a note
  that a later backward() from it failed and PyTorch's error text
  (``"caption.later_failed"``);
* when no run from it finished, the failed run's partial steps, and the step
  at which it stopped, with the error (``"caption.failed"``).

A failure is ``(lang key, {"k": step, "error": text})``, or None.
"""
from __future__ import annotations

import textwrap

from .lang import t

ERROR_WIDTH = 100        # characters per caption line of the error text
ERROR_LINES = 6          # at most this many lines of it in a caption
STATUS_CHARS = 120       # at most this much of it in the widget's one status line


def failure_of(recording):
    """The failure to tell about when ``recording`` is drawn, or None."""
    if recording.error is not None:
        return "caption.failed", {"k": len(recording) + 1, "error": recording.error}
    if recording.later_error is not None:
        return "caption.later_failed", {"k": 0, "error": recording.later_error}
    return None


def caption_lines(failure, lang=None):
    """The caption's lines: what happened, then the error as PyTorch worded it."""
    if failure is None:
        return []
    key, fill = failure
    lines = textwrap.wrap(fill["error"], ERROR_WIDTH) or [fill["error"]]
    if len(lines) > ERROR_LINES:
        lines = lines[:ERROR_LINES - 1] + [lines[ERROR_LINES - 1][:ERROR_WIDTH - 1] + "\u2026"]
    return [t(key, lang, k=fill["k"])] + lines


def status_note(failure, lang=None):
    """One line for the widget's status: the failure and the start of its error."""
    if failure is None:
        return None
    key, fill = failure
    error = " ".join(fill["error"].split())
    if len(error) > STATUS_CHARS:
        error = error[:STATUS_CHARS - 1] + "\u2026"
    return t(key.replace("caption.", "status."), lang, k=fill["k"], error=error)


def summary_line(failure):
    """The plain-text summary's line (English, whole error)."""
    if failure is None:
        return None
    key, fill = failure
    return t(key, "en", k=fill["k"]).rstrip(":") + ": " + " ".join(fill["error"].split())
