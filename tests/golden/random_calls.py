"""Replay one random-number call on a torch-like module and encode its values.

Shared by scripts/record_random_goldens.py (real PyTorch) and
tests/test_random.py (autograd_teach), so both sides make the very same call.
A call is a dict such as ``{"fn": "randn", "shape": [17], "dtype": "float32"}``
(see ``run_call``); its values are encoded exactly: floats as ``float.hex``
strings, integers as ints.  Long results are stored as a SHA-256 of the
encoded list plus their first few values (enough to debug a mismatch).
"""

from __future__ import annotations

import hashlib
import json

FULL_LIMIT = 64  # results longer than this are stored as a digest


def run_call(torch, call):
    """Make ``call`` through the module's public API; return the tensor (a
    list for manual_seed: the initial_seed() that follows, which can exceed
    int64)."""
    fn = call["fn"]
    dtype = getattr(torch, call["dtype"]) if "dtype" in call else None
    if fn == "rand":
        return torch.rand(tuple(call["shape"]), dtype=dtype)
    if fn == "randn":
        return torch.randn(tuple(call["shape"]), dtype=dtype)
    if fn == "randn_size":  # the size= keyword, as in randn(size=())
        return torch.randn(size=tuple(call["shape"]), dtype=dtype)
    if fn == "uniform_":
        return torch.zeros(tuple(call["shape"]), dtype=dtype).uniform_(call["a"], call["b"])
    if fn == "normal_":
        return torch.zeros(tuple(call["shape"]), dtype=dtype).normal_(call["mean"], call["std"])
    if fn == "randint":
        return torch.randint(call["low"], call["high"], tuple(call["shape"]))
    if fn == "randperm":
        return torch.randperm(call["n"])
    if fn == "manual_seed":  # reseed in the middle of a sequence
        torch.manual_seed(call["seed"])
        return [torch.initial_seed()]
    raise ValueError(f"unknown call {fn}")


def encode(result) -> list:
    values = result if isinstance(result, list) else result.reshape(-1).tolist()
    return [v.hex() if isinstance(v, float) else int(v) for v in values]


def summarize(values: list) -> dict:
    """What a golden stores for one call's encoded values."""
    if len(values) <= FULL_LIMIT:
        return {"values": values}
    digest = hashlib.sha256(json.dumps(values).encode()).hexdigest()
    return {"count": len(values), "sha256": digest, "head": values[:8]}
