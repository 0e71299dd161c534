"""Record the order in which PyTorch's engine runs the nodes of a few graphs.

Run with real PyTorch (make goldens, or /path/to/torch-venv/bin/python
scripts/record_engine_order.py); writes tests/golden/engine_order.json."""
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "golden"))
from order_graphs import GRAPHS, run_order_torch  # noqa: E402

result = {build.__name__: run_order_torch(torch, build) for build in GRAPHS}
path = ROOT / "tests" / "golden" / "engine_order.json"
path.write_text(json.dumps({"torch": torch.__version__, "orders": result}, indent=1) + "\n")
print(f"wrote {path} ({len(result)} graphs, torch {torch.__version__})")
