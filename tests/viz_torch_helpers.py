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
    # PyTorch splits a few sums between its threads (BatchNorm's channels-last
    # statistics), and kernels/batch_norm_order.py adds in the order of 2
    # threads, as the goldens were recorded: so 2 on every machine.
    torch.set_num_threads(2)
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


class Watching:
    """begin subscribed to the engine's one registry of observers while
    torch_record watches real PyTorch's engine; .remove() ends both."""

    def __init__(self, begin):
        from autograd_teach.core import engine
        from autograd_teach.viz import torch_record
        self.handles = [torch_record.watch()]          # first: it refuses a torch that is not PyTorch
        self.handles.append(engine.add_observer(begin))

    def remove(self):
        for handle in self.handles:
            handle.remove()
