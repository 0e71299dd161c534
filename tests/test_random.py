"""autograd_teach's random numbers are PyTorch's, bit for bit (no torch needed).

tests/golden/random.json holds sequences of calls recorded from PyTorch
2.13 (scripts/record_random_goldens.py); each is replayed here on
autograd_teach through the same helper and must give identical values.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.compat import random as R

GOLDEN = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("random_calls", GOLDEN / "random_calls.py")
calls_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(calls_mod)

CASES = json.loads((GOLDEN / "random.json").read_text())["cases"]
RESULT_KEYS = ("values", "count", "sha256", "head")


def _case_id(i, case):
    fns = "-".join(c["fn"] for c in case["calls"])
    return f"{i}-seed{case['seed']}-{fns}"[:80]


@pytest.mark.parametrize("case", CASES, ids=[_case_id(i, c) for i, c in enumerate(CASES)])
def test_sequence_matches_pytorch(case):
    torch.manual_seed(case["seed"])
    for n, call in enumerate(case["calls"]):
        spec = {k: v for k, v in call.items() if k not in RESULT_KEYS}
        got = calls_mod.summarize(calls_mod.encode(calls_mod.run_call(torch, spec)))
        want = {k: call[k] for k in RESULT_KEYS if k in call}
        assert got == want, f"call {n} of the sequence: {spec}"


def test_engine_is_the_standard_mt19937():
    # numpy's legacy RandomState seeds an mt19937 the same way (init_genrand)
    # and, for the full uint32 range, hands out the raw words.
    for seed in (0, 5489, 2**32 - 1):
        ours = R._MT19937(seed).random(2000)
        ref = np.random.RandomState(seed).randint(0, 2**32, size=2000, dtype=np.uint32)
        assert np.array_equal(ours, ref)
    # only the low 32 bits of a 64-bit seed reach the engine
    assert np.array_equal(R._MT19937(2**32 + 7).random(10), R._MT19937(7).random(10))


def test_manual_seed_reads_a_64_bit_int_like_pytorch():
    torch.manual_seed(-1)
    assert torch.initial_seed() == 2**64 - 1
    torch.manual_seed(2**63)
    assert torch.initial_seed() == 2**63
    for bad in (2**64, -(2**63) - 1):
        with pytest.raises(ValueError, match="Overflow when unpacking long long"):
            torch.manual_seed(bad)
    assert "Generator" in repr(torch.manual_seed(0))


def test_seed_draws_a_fresh_64_bit_seed():
    s = torch.seed()
    assert 0 <= s < 2**64 and torch.initial_seed() == s


def test_reseeding_drops_the_cached_normal_sample():
    torch.manual_seed(0)
    a = torch.randn(1).tolist()       # leaves a cached second sample
    torch.manual_seed(0)
    assert torch.randn(1).tolist() == a


def test_unseeded_process_starts_from_the_fixed_default_seed():
    code = ("import autograd_teach as t; s = t.initial_seed(); a = t.rand(3).tolist();"
            "t.manual_seed(67280421310721); print(s, a == t.rand(3).tolist())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).parent.parent, check=True).stdout.split()
    assert out == ["67280421310721", "True"]


def test_fma_emulation_rounds_once():
    # 1 + 2**-30 squared is 1 + 2**-29 + 2**-60: rounded separately the
    # 2**-60 is lost before the subtraction; fused it survives.
    a = 1 + 2.0**-30
    assert R.fma64(a, a, -(1 + 2.0**-29)) == 2.0**-60
    a32 = np.float32(1 + 2.0**-12)
    assert R.fma32(a32, a32, np.float32(-(1 + 2.0**-11))) == np.float32(2.0**-24)
    # a32*a32 = 1 + 2**-11 + 2**-24 lies halfway between two float32s; a
    # tiny c must decide the rounding (a float64 sum would lose it and tie).
    up, down = R.fma32(np.full(2, a32), a32, np.float32([2.0**-60, -(2.0**-60)]))
    assert up == np.float32(1 + 2.0**-11 + 2.0**-23) and down == np.float32(1 + 2.0**-11)


# ---- Generator objects ---------------------------------------------------------

def test_a_generator_is_a_stream_of_its_own():
    g = torch.Generator().manual_seed(5)
    torch.manual_seed(5)
    ref = [torch.rand(3).tolist(), torch.randn(20).tolist(), torch.randint(0, 9, (4,)).tolist(),
           torch.randperm(7).tolist(), torch.normal(0.0, 2.0, (3,)).tolist()]
    torch.manual_seed(123)
    mine = [torch.rand(3, generator=g).tolist(), torch.randn(20, generator=g).tolist(),
            torch.randint(0, 9, (4,), generator=g).tolist(), torch.randperm(7, generator=g).tolist(),
            torch.normal(0.0, 2.0, (3,), generator=g).tolist()]
    assert mine == ref
    after = torch.rand(2).tolist()          # the default stream did not move
    torch.manual_seed(123)
    assert torch.rand(2).tolist() == after


def test_manual_seed_returns_the_default_generator():
    assert torch.manual_seed(1) is torch.default_generator
    assert torch.default_generator.initial_seed() == torch.initial_seed() == 1
    g = torch.Generator()
    assert g.manual_seed(2) is g and g.initial_seed() == 2
    with pytest.raises(RuntimeError, match="manual_seed expected a long, but got float"):
        g.manual_seed(2.0)
    assert torch.manual_seed(2.0).initial_seed() == 2       # torch.manual_seed takes int(seed)


def test_state_round_trips_mid_block_and_with_a_cached_normal():
    g = torch.Generator().manual_seed(0)
    for n in (0, 1, 623, 624, 625, 1300):
        g.manual_seed(0)
        torch.rand(n, generator=g)
        torch.randn(1, generator=g)                       # leaves a cached second sample
        s = g.get_state()
        want = [torch.randn(1, generator=g).tolist(), torch.rand(700, generator=g).tolist()]
        h = torch.Generator().set_state(s)
        assert [torch.randn(1, generator=h).tolist(), torch.rand(700, generator=h).tolist()] == want
        assert torch.equal(h.get_state(), g.get_state())


def test_set_state_misuse():
    g = torch.Generator()
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056 but found the input RNG "
                                           "state size to be 3"):
        g.set_state(torch.zeros(3, dtype=torch.uint8))
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        g.set_state(torch.zeros(5056))
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        g.set_state(torch.zeros(5056, dtype=torch.uint8))
    with pytest.raises(RuntimeError, match="device type not an accelerator"):
        torch.Generator("meta")
    assert torch.equal(g.get_state(), torch.Generator().get_state())    # failed set_states changed nothing


def test_threads_sharing_a_generator_take_whole_draws():
    import threading
    g = torch.Generator().manual_seed(8)
    results = []

    def run():
        for _ in range(5):
            results.append(torch.randn(300, generator=g).tolist())
    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    g.manual_seed(8)
    sequential = [torch.randn(300, generator=g).tolist() for _ in range(20)]
    assert sorted(results) == sorted(sequential)


def test_bernoulli_consumes_one_random64_per_element():
    g, ref = torch.Generator().manual_seed(4), torch.Generator().manual_seed(4)
    mask = R.bernoulli((3, 5), 0.3, g)
    u = R._uniform01_f64(ref.stream.engine, 15).reshape(3, 5)
    assert np.array_equal(mask, (u < 0.3).astype(np.float64))
    assert torch.equal(g.get_state(), ref.get_state())


def test_copies_and_pickles_of_a_generator_continue_its_stream():
    import copy
    import pickle
    g = torch.Generator().manual_seed(3)
    torch.randn(5, generator=g)
    for other in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert other is not g and other.initial_seed() == 3
        assert torch.equal(other.get_state(), g.get_state())
    h = copy.deepcopy(g)
    assert torch.rand(4, generator=h).tolist() == torch.rand(4, generator=g).tolist()


def test_init_functions_and_inplace_draws_use_the_given_generator():
    g, ref = torch.Generator().manual_seed(1), torch.Generator().manual_seed(1)
    torch.manual_seed(0)
    w = torch.empty(3, 4)
    torch.nn.init.xavier_uniform_(w, generator=g)
    bound = 3.0 ** 0.5 * (2.0 / 7.0) ** 0.5     # init's formula: sqrt(3) * gain * sqrt(2 / (fan_in + fan_out))
    assert w.tolist() == torch.empty(3, 4).uniform_(-bound, bound, generator=ref).tolist()
    torch.nn.init.normal_(w, 0.0, 0.01, generator=g)
    assert w.tolist() == torch.empty(3, 4).normal_(0.0, 0.01, generator=ref).tolist()
    after = torch.rand(2).tolist()               # the default stream was not used
    torch.manual_seed(0)
    assert torch.rand(2).tolist() == after
