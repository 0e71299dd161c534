"""A lesson opened in JupyterLab is not marked modified before the learner does anything.

When a kernel starts, JupyterLab writes the kernel's ``language_info`` (and
kernelspec) into the notebook's metadata; the shared model ignores a value equal
to the one there (a deep comparison), and any other value marks the notebook
modified (the tab's dot, "Save changes?" on close, an autosave rewriting it).
ipykernel reports the Python version, which the stored lessons leave out (it
differs between machines), so ``make lab``'s working copy carries the one its
kernel reports (scripts/lab.py, ``working_copy``).  This opens a lesson as the
working copy has it and, to show the test can see the difference, the same
lesson as stored (marked modified: the defect this fixes)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from test_lesson_e2e import _in_panel, open_notebook

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "en" / "02_backward_and_gradients.ipynb"

_spec = importlib.util.spec_from_file_location("lab_script", ROOT / "scripts" / "lab.py")
lab_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lab_script)

# Whether the notebook is modified once JupyterLab has applied what the kernel
# reported: the kernel's info and spec are awaited here after JupyterLab's own
# handlers (registered first, so they ran first), then one more turn of the loop.
DIRTY_JS = _in_panel("""
  return (async () => {
    const kernel = panel.sessionContext.session.kernel;
    const info = await kernel.info;
    await kernel.spec;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const tab = [...document.querySelectorAll('.lm-TabBar-tab')].find((t) => t.dataset.id === panel.id);
    return {dirty: panel.context.model.dirty, tabDirty: !!tab && tab.classList.contains('jp-mod-dirty'),
            reported: info.language_info, stored: panel.context.model.getMetadata('language_info')};
  })();
""")


def dirty_after_kernel_start(page, path):
    return page.evaluate(DIRTY_JS, path)


@pytest.mark.parametrize("clean", [True, False], ids=["working-copy", "as-stored"])
def test_a_fresh_working_copy_opens_unmodified(lab, page, clean):
    info = lab_script.kernel_language_info() if clean else None
    name = f"clean-{clean}.ipynb"
    (lab.root / name).write_bytes(lab_script.working_copy(LESSON, info))
    open_notebook(page, lab, name, workspace=f"clean-{clean}")
    state = dirty_after_kernel_start(page, name)
    assert state["reported"]["version"] == lab_script.kernel_language_info()["version"]
    assert state["dirty"] is (not clean) and state["tabDirty"] is (not clean), state
    assert state["stored"] == state["reported"]          # JupyterLab's value, whatever was on disk


def test_the_stored_lessons_metadata_is_what_ipykernel_reports_but_the_version():
    """The builder's language_info and kernelspec are ipykernel's and the python3
    kernelspec's (JupyterLab writes both on open), the Python version left out."""
    from jupyter_client.kernelspec import KernelSpecManager
    spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    reported = lab_script.kernel_language_info()
    assert builder.LANGUAGE_INFO == {k: v for k, v in reported.items() if k != "version"}
    kernel = KernelSpecManager().get_kernel_spec("python3")
    assert builder.KERNELSPEC == {"name": "python3", "display_name": kernel.display_name, "language": kernel.language}
