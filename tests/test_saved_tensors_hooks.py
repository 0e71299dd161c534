"""Hooks for saved tensors: only inside the block, only in its thread, the
innermost wins, nothing left switched on afterwards."""
import threading

import autograd_teach as torch
from autograd_teach.compat import saved_hooks


def test_off_until_a_block_opens_and_after_it_closes():
    assert saved_hooks.in_use == 0
    packed = []
    a = torch.ones(3, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        assert saved_hooks.in_use == 1
        y = a.sin()
    z = a.cos()
    assert saved_hooks.in_use == 0 and len(packed) == 1
    assert y.grad_fn.saved_values["self"].hooks is not None and z.grad_fn.rich_saved_values()["self"].hooks is None


def test_the_innermost_block_wins_and_backward_uses_what_unpack_returns():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: "outer", lambda t: 1 / 0):
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 3, lambda t: t):
            y = (a * a).sum()          # both saved tensors come back tripled
    y.backward()
    assert a.grad.tolist() == [6.0, 12.0]     # d(a*a): other + self, each unpacked as 3a


def test_hooks_belong_to_the_thread_that_opened_the_block():
    seen = []
    a = torch.ones(2, requires_grad=True)
    ready, done = threading.Event(), threading.Event()

    def other_thread():
        ready.wait()
        seen.append(a.exp().grad_fn.saved_values["result"].hooks)   # no hooks in this thread
        done.set()

    t = threading.Thread(target=other_thread)
    t.start()
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
        ready.set()
        done.wait()
    t.join()
    assert seen == [None]


def test_a_pack_hook_that_saves_does_not_pack_again():
    calls = []

    def pack(t):
        calls.append(1)
        return t.sin()      # saves t itself: no hook runs inside the hook
    a = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        a.cos()
    assert calls == [1]


def test_a_recorded_backward_of_hooked_saved_tensors_draws():
    """The recorder reads saved tensors for the chain rule; one kept by the
    hooks is not there to read (PyTorch keeps only what pack_hook returned)."""
    from autograd_teach import viz
    a = torch.ones(3, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
        y = (a.sin() * a).sum()
    with viz.record() as rec:
        y.backward()
    assert len(rec.steps) >= 3 and "<svg" in viz.draw(y).svg()
