"""Grad mode, inference mode and custom-Function forwards are per thread, as
in PyTorch: what one thread switches off never stops another from recording.

Threads are put in lockstep with Events, so every interleaving below is forced,
not left to the scheduler."""
import threading

import numpy as np
import pytest

import autograd_teach as torch

TIMEOUT = 10   # seconds; a deadlock fails the test instead of hanging it


def run_in_thread(fn):
    out, err = [], []

    def body():
        try:
            out.append(fn())
        except BaseException as e:   # re-raised in the main thread
            err.append(e)
    t = threading.Thread(target=body)
    t.start()
    return t, out, err


def join(t, err):
    t.join(TIMEOUT)
    assert not t.is_alive(), "thread did not finish"
    if err:
        raise err[0]


def test_a_background_no_grad_block_does_not_stop_recording_here():
    inside, done = threading.Event(), threading.Event()

    def background():
        with torch.no_grad():
            inside.set()
            assert done.wait(TIMEOUT)
            return torch.is_grad_enabled()

    t, out, err = run_in_thread(background)
    assert inside.wait(TIMEOUT)
    x = torch.ones(2, requires_grad=True)
    y = x * 2                     # the other thread is inside no_grad right now
    recording = torch.is_grad_enabled()
    done.set()
    join(t, err)
    assert recording is True
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert out == [False]         # and the other thread's own block was in force


def test_overlapping_with_blocks_in_two_threads_leave_grad_mode_on():
    # A enters, B enters, A exits, B exits: with one global flag, B restores
    # A's "off" and grad mode stays off for good.
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def thread_a():
        with torch.no_grad():
            a_in.set()
            assert b_in.wait(TIMEOUT)
        a_out.set()
        return torch.is_grad_enabled()

    def thread_b():
        assert a_in.wait(TIMEOUT)
        with torch.no_grad():
            b_in.set()
            assert a_out.wait(TIMEOUT)
        return torch.is_grad_enabled()

    ta, out_a, err_a = run_in_thread(thread_a)
    tb, out_b, err_b = run_in_thread(thread_b)
    join(ta, err_a)
    join(tb, err_b)
    assert out_a == [True] and out_b == [True]
    assert torch.is_grad_enabled() is True
    assert (torch.ones(1, requires_grad=True) * 2).requires_grad


def test_set_grad_enabled_false_in_a_thread_stays_in_that_thread():
    def background():
        torch.set_grad_enabled(False)    # a plain call, never undone
        return torch.is_grad_enabled()

    t, out, err = run_in_thread(background)
    join(t, err)
    assert out == [False]
    assert torch.is_grad_enabled() is True


def test_inference_mode_is_per_thread():
    inside, done = threading.Event(), threading.Event()

    def background():
        with torch.inference_mode():
            inside.set()
            assert done.wait(TIMEOUT)
            return torch.is_inference_mode_enabled(), torch.ones(1).is_inference()

    t, out, err = run_in_thread(background)
    assert inside.wait(TIMEOUT)
    here = torch.is_inference_mode_enabled(), torch.is_grad_enabled(), torch.ones(1).is_inference()
    done.set()
    join(t, err)
    assert here == (False, True, False)
    assert out == [(True, True)]


def test_a_custom_forward_running_in_a_thread_does_not_stop_recording_here():
    # Function.apply runs forward with grad mode off: that must be the
    # forward's thread only.
    in_forward, done = threading.Event(), threading.Event()

    class Slow(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            in_forward.set()
            assert done.wait(TIMEOUT)
            return x * 3

        @staticmethod
        def backward(ctx, grad):
            return grad * 3

    a = torch.ones(2, requires_grad=True)
    t, out, err = run_in_thread(lambda: Slow.apply(a))
    assert in_forward.wait(TIMEOUT)
    b = torch.ones(2, requires_grad=True)
    c = b.exp()
    done.set()
    join(t, err)
    assert type(c.grad_fn).__name__ == "ExpBackward0"
    out[0].sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


def test_backward_from_several_threads_at_once():
    # Each thread owns its graph and leaves; the engine shares no state
    # between runs, so each gets its own exact gradient.
    n = 8
    start = threading.Barrier(n)

    def work(k):
        x = torch.full((3,), float(k), requires_grad=True)
        y = x
        start.wait(TIMEOUT)
        for _ in range(200):
            y = y * 1.0 + x * 0.0
        (y * y).sum().backward()
        return x.grad.tolist()

    threads = [run_in_thread(lambda k=k: work(k)) for k in range(n)]
    for k, (t, out, err) in enumerate(threads):
        join(t, err)
        assert np.allclose(out[0], [2.0 * k] * 3)


def test_detach_and_data_of_an_inference_tensor_are_inference_tensors():
    # PyTorch 2.13: True, True, and both refuse to be saved for backward
    with torch.inference_mode():
        it = torch.ones(2)
    a = torch.ones(2, requires_grad=True)
    for t in (it.detach(), it.data):
        assert t.is_inference()
        with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
            a * t
    assert not it.clone().is_inference()
