"""torch.autograd.detect_anomaly / set_detect_anomaly: while on, every
backward checks each gradient a node returns for nan and raises PyTorch's
error naming that node ("Function 'DivBackward0' returned nan values in its
0th output."), instead of letting the nan spread into .grad.

Off until switched on, by a call (set_detect_anomaly(True)) or a `with`
block; the check runs as an engine observer (engine.add_observer), so the
engine itself has no anomaly code. PyTorch's mode is process-wide too."""
import threading
import warnings

import numpy as np

from ..core import engine
from ..core.node import Node

_lock = threading.Lock()
_state = {"enabled": False, "check_nan": True, "handle": None}

WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled "
           "for debugging.")


class _NanCheck:
    """One backward run's watcher: each gradient a node sends on, checked for nan."""

    def step(self, node, grad_outputs, grad_inputs):
        for i, g in enumerate(grad_inputs):
            if g is not None and np.isnan(g).any():
                # PyTorch also prints the forward call's traceback, which it records
                # for every node made while anomaly mode is on; this core records none.
                warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                              "  (not recorded: autograd_teach keeps no forward tracebacks)", UserWarning,
                              stacklevel=2)
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")

    def end(self):
        pass


def _begin(roots):
    # Observers see real PyTorch's runs too while viz records them: those are
    # PyTorch's anomaly mode's business, not ours.
    ours = all(isinstance(root, Node) for root in roots)
    return _NanCheck() if _state["check_nan"] and ours else None


def _switch(enabled, check_nan=True):
    with _lock:
        _state["enabled"], _state["check_nan"] = bool(enabled), bool(check_nan)
        if enabled and _state["handle"] is None:
            _state["handle"] = engine.add_observer(_begin)
        elif not enabled and _state["handle"] is not None:
            _state["handle"].remove()
            _state["handle"] = None


def is_anomaly_enabled():
    return _state["enabled"]


def is_anomaly_check_nan_enabled():
    return _state["check_nan"]


class set_detect_anomaly:
    """Switch anomaly detection on or off, now; as a `with` block, for the block only."""

    def __init__(self, mode, check_nan=True):
        self.prev = (_state["enabled"], _state["check_nan"])
        _switch(mode, check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _switch(*self.prev)
        return False


class detect_anomaly:
    """`with torch.autograd.detect_anomaly():` anomaly detection for the block (a warning says it is slow)."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn(WARNING, UserWarning, stacklevel=2)

    def __enter__(self):
        self.prev = (_state["enabled"], _state["check_nan"])
        _switch(True, self.check_nan)
        return self

    def __exit__(self, *exc):
        _switch(*self.prev)
        return False
