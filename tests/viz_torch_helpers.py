"""Shared by the tests that need real PyTorch (tests/test_viz_torch*.py).

`make test` installs the pinned torch==2.13.0 into .venv, so they run there.
Without torch they are skipped, except in CI (``CI`` set), where a missing
torch is a failure: these tests must never be skipped silently there.
"""
import os

import pytest


def import_torch():
    try:
        import torch
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI is set but PyTorch is not installed: `make test` installs torch==2.13.0",
                        pytrace=False)
        pytest.skip("real PyTorch is not installed (`make test` installs torch==2.13.0)",
                    allow_module_level=True)
    assert torch.__version__.split("+")[0] == "2.13.0", "the tests are written against torch 2.13.0"
    return torch


class Log:
    """A minimal watcher of either engine: one dict per run, steps as (name, in, out)."""

    def __init__(self):
        self.runs = []

    def begin(self, roots):
        run = {"roots": list(roots), "steps": [], "ended": False}
        self.runs.append(run)

        class Watcher:
            def step(self, node, grad_outputs, grad_inputs):
                run["steps"].append((node, grad_outputs, grad_inputs))

            def end(self):
                run["ended"] = True
        return Watcher()

    def names(self, i=-1):
        return [name(n) for n, _, _ in self.runs[i]["steps"]]


def name(node):
    return node.name().rsplit("::", 1)[-1]


class Recording:
    """What draw(recording=...) and show(recording=...) read (record.Recording's
    fields), built by a watcher of either engine: the stand-in for the viz
    recorder's subscription to torch_record until that lands."""

    def __init__(self, roots):
        self.roots = list(roots)
        self.steps = []


class Step:
    def __init__(self, index, fn, grad_output, grad_inputs, leaf_grad):
        self.index, self.fn, self.grad_output = index, fn, grad_output
        self.grad_inputs, self.leaf_grad = grad_inputs, leaf_grad


def recording_watcher(recordings):
    """A begin() that appends one Recording per backward run to ``recordings``."""
    def begin(roots):
        rec = Recording(roots)
        recordings.append(rec)

        class Watcher:
            def step(self, node, grad_outputs, grad_inputs):
                var = getattr(node, "variable", None)
                grad = getattr(var, "grad", None)
                leaf = None if grad is None else grad.detach().numpy().copy()
                rec.steps.append(Step(len(rec.steps), node, grad_outputs[0], grad_inputs, leaf))

            def end(self):
                pass
        return Watcher()
    return begin
