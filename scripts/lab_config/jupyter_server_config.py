"""The server's config under `make lab` (scripts/lab.py adds this folder to
JUPYTER_CONFIG_PATH, beside the learner's own config): a lesson is saved with
its replays, not with widget views whose model dies with the kernel
(lab.keep_replays)."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("autograd_teach_lab", Path(__file__).resolve().parent.parent / "lab.py")
_lab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_lab)
c.ContentsManager.pre_save_hook = _lab.keep_replays  # noqa: F821 (c: the config this file fills)
