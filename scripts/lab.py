"""`make lab`: JupyterLab on a working copy of the lessons, opening index.ipynb.

    .venv/bin/python scripts/lab.py [--workdir .lab] [-- jupyter lab options]

JupyterLab writes to what it opens (its metadata on open, the learner's
outputs on autosave), so it never serves ``notebooks/`` itself: the lessons are
copied into ``--workdir`` (``.lab/``, git-ignored) and the server's root is
that copy.  A copy is refreshed from the repository when the lesson changed
there and the learner has not touched the copy (``.copied.json`` remembers
what was copied); a lesson the learner changed is left alone.  Delete the
folder to start again from the stored lessons.

A copied notebook carries the ``language_info`` its kernel will report, Python
version included (:func:`working_copy`): the stored lessons leave the version
out, and JupyterLab, writing the kernel's value on opening, would mark every
lesson modified before the learner touched it.

A lesson the learner ran is saved as the stored lessons are: a ``viz.show()``
output keeps its replay (HTML) and drops its widget view
(:func:`keep_replays`, the server's ``pre_save_hook``, set by
``lab_config/jupyter_server_config.py``).  A saved widget view
needs its kernel-side model, which is gone once the notebook is closed: reopened,
it said "Error displaying widget: model not found" where the replay was.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "notebooks"
MANIFEST = ".copied.json"
START = "index.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REPLAY = 'class="at-replay"'          # the HTML a viz.show() output carries beside its widget view


def keep_replays(model, **_):
    """pre_save_hook: drop the widget view of every output that also holds a replay."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    for cell in model["content"].get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            html = data.get("text/html", "")
            if WIDGET_VIEW in data and REPLAY in ("".join(html) if isinstance(html, list) else html):
                del data[WIDGET_VIEW]


def kernel_language_info():
    """The ``language_info`` the lessons' kernel reports when it starts: ipykernel's
    own, Python version included.  The kernel runs this interpreter (jupyter_client
    starts a ``python`` kernelspec with the server's ``sys.executable``)."""
    try:
        from ipykernel.ipkernel import IPythonKernel
    except ImportError:      # no kernel here to ask: the copy keeps the stored metadata
        return None
    return dict(IPythonKernel.language_info)


def working_copy(source, language_info=None):
    """The bytes of ``source``'s working copy.  A notebook gets ``language_info``:
    JupyterLab writes what the kernel reports into an open notebook, and any change
    (the stored lessons leave the Python version out) marks it modified before the
    learner did anything.  The same value changes nothing, so the copy opens clean."""
    data = source.read_bytes()
    if source.suffix != ".ipynb" or language_info is None:
        return data
    nb = json.loads(data)
    if nb.get("metadata", {}).get("language_info", {}).get("name") != language_info.get("name"):
        return data
    nb["metadata"]["language_info"] = language_info
    return (json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _lesson_files():
    for path in sorted(LESSONS.rglob("*")):
        rel = path.relative_to(LESSONS)
        if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            yield rel


def sync(workdir, language_info=None):
    """Copy the lessons into ``workdir`` (notebooks with ``language_info``, see
    :func:`working_copy`); return the files copied (relative paths)."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    manifest_path = workdir / MANIFEST
    copied = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    done = []
    for rel in _lesson_files():
        source, target = LESSONS / rel, workdir / rel
        data = working_copy(source, language_info)
        new = _digest(data)
        if target.exists():
            have = _digest(target.read_bytes())
            untouched = have == copied.get(str(rel))
            if have == new or not untouched:     # up to date, or the learner's own work
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        copied[str(rel)] = new
        done.append(str(rel))
    manifest_path.write_text(json.dumps(copied, indent=1, sort_keys=True))
    return done


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", default=str(ROOT / ".lab"), help="where the working copy lives")
    parser.add_argument("lab_args", nargs="*", help="options for jupyter lab (after --)")
    args = parser.parse_args(argv)
    workdir = Path(args.workdir).resolve()
    fresh = sync(workdir, kernel_language_info())
    print(f"Lessons: a working copy in {workdir} ({len(fresh)} file(s) refreshed); "
          f"notebooks/ stays as stored. Opening {START}.", flush=True)
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={workdir}",
           f"--LabApp.default_url=/lab/tree/{START}", *args.lab_args]
    config = [str(Path(__file__).resolve().parent / "lab_config"), os.environ.get("JUPYTER_CONFIG_PATH")]
    env = dict(os.environ, JUPYTER_CONFIG_PATH=os.pathsep.join(filter(None, config)))   # keep_replays
    os.execve(sys.executable, cmd, env)


if __name__ == "__main__":
    main()
