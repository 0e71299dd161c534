"""scripts/lab.py's working copy (`make lab`): the lessons as stored, each notebook
with the language_info its kernel reports (so JupyterLab does not mark it
modified on opening: tests/browser/test_lesson_opens_clean.py), refreshed from
the repository only where the learner has not changed the copy."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lab_script", ROOT / "scripts" / "lab.py")
lab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lab)


def _lessons(tmp_path):
    stored = tmp_path / "notebooks"
    (stored / "en").mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
                   "language_info": {"name": "python", "file_extension": ".py"}}
    nb.cells.append(nbformat.v4.new_code_cell("x = 1  # 中文", id="c-000"))
    nbformat.write(nb, stored / "en" / "01.ipynb")
    (stored / "notes.txt").write_text("not a notebook\n")
    return stored


def test_the_copy_carries_the_kernels_language_info(tmp_path, monkeypatch):
    import sys
    from ipykernel.ipkernel import IPythonKernel
    monkeypatch.setattr(lab, "LESSONS", _lessons(tmp_path))
    info = lab.kernel_language_info()
    assert info == IPythonKernel.language_info and info["version"] == sys.version.split()[0]
    work = tmp_path / "work"
    assert sorted(lab.sync(work, info)) == ["en/01.ipynb", "notes.txt"]
    copy = json.loads((work / "en" / "01.ipynb").read_text(encoding="utf-8"))
    stored = json.loads((lab.LESSONS / "en" / "01.ipynb").read_text(encoding="utf-8"))
    assert copy["metadata"]["language_info"] == info
    assert copy["cells"] == stored["cells"] and copy["metadata"]["kernelspec"] == stored["metadata"]["kernelspec"]
    assert (work / "notes.txt").read_bytes() == (lab.LESSONS / "notes.txt").read_bytes()
    assert lab.sync(work, info) == []                  # up to date: nothing copied again


def test_the_learners_work_is_kept_and_an_untouched_copy_refreshed(tmp_path, monkeypatch):
    monkeypatch.setattr(lab, "LESSONS", _lessons(tmp_path))
    info = lab.kernel_language_info()
    work = tmp_path / "work"
    lab.sync(work, info)
    (lab.LESSONS / "notes.txt").write_text("changed in the repository\n")
    (work / "en" / "01.ipynb").write_text((work / "en" / "01.ipynb").read_text(encoding="utf-8")
                                          .replace("x = 1", "x = 2"), encoding="utf-8")   # the learner's edit
    nb = nbformat.read(lab.LESSONS / "en" / "01.ipynb", as_version=4)
    nb.cells[0].source = "x = 3"
    nbformat.write(nb, lab.LESSONS / "en" / "01.ipynb")
    assert lab.sync(work, info) == ["notes.txt"]
    assert "x = 2" in (work / "en" / "01.ipynb").read_text(encoding="utf-8")


def test_without_a_kernel_to_ask_the_copy_is_the_stored_file(tmp_path):
    stored = _lessons(tmp_path) / "en" / "01.ipynb"
    assert lab.working_copy(stored, None) == stored.read_bytes()
    other = {"name": "julia", "version": "1.10"}       # not the notebook's language: left alone
    assert lab.working_copy(stored, other) == stored.read_bytes()
