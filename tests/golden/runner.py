"""Run a golden program against a torch-like module and capture what it prints.

The same runner is used to record the goldens with real PyTorch
(scripts/record_goldens.py) and to check autograd_teach against them
(tests/test_golden.py), so both sides see identical capture rules:

* stdout is captured;
* each warning is written into the stream where it happens, as
  ``<Category>: <first line of message>``;
* an uncaught exception ends the program and appends
  ``<ExceptionType>: <first line of message>``.

Both sides are normalized the same way before comparison: object addresses
``at 0x1f2e...`` become ``at 0x\u2026`` and trailing whitespace goes.  A program
whose output depends on the run or the machine (id(), data_ptr(), build paths)
declares extra masks in comment lines ``# golden-mask: <regex>``; every match
becomes ``<masked>``, line by line.  Say why next to each mask.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import os
import re
import sys
import warnings

# Submodules a program may import as ``torch.X``; they are pointed at the
# module under test for the duration of a run.
SUBMODULES = ("nn", "nn.functional", "nn.init", "nn.utils", "optim.lr_scheduler", "autograd", "autograd.functional", "optim", "utils", "utils.data",
              "distributions", "distributions.multinomial", "distributions.categorical", "distributions.normal",
              "distributions.bernoulli", "distributions.uniform", "distributions.kl", "distributions.constraints",
              "distributions.distribution", "distributions.exp_family",
              "autograd.function", "autograd.forward_ad", "func", "utils.checkpoint")

ADDRESS = re.compile(r"at 0x[0-9a-fA-F]+")
ADDRESS_MASK = "at 0x\u2026"
MASK_HEADER = re.compile(r"^#\s*golden-mask:\s?(.*?)\s*$")
MASKED = "<masked>"


def _first_line(message) -> str:
    lines = str(message).splitlines()
    return lines[0] if lines else ""


def _reset(torch_module) -> None:
    """Undo global state a previous program may have changed."""
    if hasattr(torch_module, "set_grad_enabled"):
        torch_module.set_grad_enabled(True)
    if hasattr(torch_module, "set_printoptions"):
        try:
            torch_module.set_printoptions(profile="default", sci_mode=None)
        except TypeError:  # a core without profiles: spell the defaults out
            torch_module.set_printoptions(
                precision=4, threshold=1000, edgeitems=3, linewidth=80
            )
    # autograd_teach draws PyTorch's random stream, so seeding makes random
    # values comparable and independent of which programs ran before.
    if hasattr(torch_module, "manual_seed"):
        torch_module.manual_seed(0)


@contextlib.contextmanager
def _torch_aliased(torch_module):
    """Make ``import torch`` (and its submodules) yield ``torch_module``."""
    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    try:
        sys.modules["torch"] = torch_module
        for sub in SUBMODULES:
            try:
                mod = importlib.import_module(f"{torch_module.__name__}.{sub}")
            except ImportError:
                # None makes ``import torch.X`` fail loudly instead of loading
                # the package's file a second time under the torch name.
                mod = None
            sys.modules[f"torch.{sub}"] = mod
        yield
    finally:
        # Drop the aliases; keep what real torch imported lazily during the run
        # (jacobian loads torch._functorch...): importing it twice registers its ops twice.
        for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
            if k not in saved and getattr(sys.modules[k], "__name__", None) != k:
                del sys.modules[k]
        sys.modules.update(saved)


def run_program(source: str, torch_module, filename: str = "<golden>") -> str:
    """Execute ``source`` with ``import torch`` bound to ``torch_module``.

    Returns everything the program printed, warnings and a final uncaught
    exception included (see module docstring).
    """
    out = io.StringIO()

    def showwarning(message, category, filename, lineno, file=None, line=None):
        out.write(f"{category.__name__}: {_first_line(message)}\n")

    code = compile(source, filename, "exec")
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    _reset(torch_module)
    cwd = os.getcwd()      # a program may chdir (d2l 5.5 saves files): the tests after it must not notice
    try:
        with _torch_aliased(torch_module), warnings.catch_warnings(), \
                contextlib.redirect_stdout(out):
            # Every occurrence is shown (not once per line), so the output does
            # not depend on which stack frame a library attributes it to.
            warnings.simplefilter("always")
            # Python hides these outside __main__ by default; library-internal
            # deprecations are not part of what a tutorial reader sees.
            for category in (DeprecationWarning, PendingDeprecationWarning,
                             ImportWarning, ResourceWarning):
                warnings.filterwarnings("ignore", category=category)
            warnings.showwarning = showwarning
            try:
                exec(code, namespace)
            except Exception as e:  # the program's own uncaught error
                out.write(f"{type(e).__name__}: {_first_line(e)}\n")
    finally:
        _reset(torch_module)
        os.chdir(cwd)
    return out.getvalue()


def parse_masks(source: str) -> list[re.Pattern]:
    """Extra masks declared by a program as ``# golden-mask: <regex>`` lines."""
    masks = []
    for line in source.splitlines():
        m = MASK_HEADER.match(line.strip())
        if m:
            masks.append(re.compile(m.group(1)))
    return masks


def normalize(output: str, masks=()) -> list[str]:
    """Lines to compare: addresses and declared masks replaced, trailing
    whitespace (per line and at the end) dropped."""
    lines = []
    for line in output.splitlines():
        line = ADDRESS.sub(ADDRESS_MASK, line)
        for mask in masks:
            line = mask.sub(MASKED, line)
        lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_file(path, torch_module) -> list[str]:
    """Run one program file and return its normalized output lines."""
    source = open(path, encoding="utf-8").read()
    output = run_program(source, torch_module, filename=str(path))
    return normalize(output, parse_masks(source))
