"""Anomaly detection: off until asked, names the node that made a nan, and
leaves nothing subscribed once switched off."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.core import engine


def observers():
    with engine._observers_lock:
        return list(engine._observers)


def test_off_until_asked_and_nothing_left_behind():
    before = observers()
    assert not torch.is_anomaly_enabled()
    with torch.autograd.set_detect_anomaly(True):
        assert torch.is_anomaly_enabled() and len(observers()) == len(before) + 1
    assert not torch.is_anomaly_enabled() and observers() == before


def test_the_node_that_made_the_nan_is_named_and_grad_is_untouched():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    x.grad = torch.tensor([5.0, 5.0])
    with pytest.warns(UserWarning, match="Error detected in DivBackward0"):
        with torch.autograd.set_detect_anomaly(True):
            with pytest.raises(RuntimeError, match=r"Function 'DivBackward0' returned nan values in its 1th output."):
                (x / x).sum().backward()
    assert np.array_equal(x.grad.numpy(), [5.0, 5.0])     # the failed backward put .grad back


def test_without_anomaly_mode_the_nan_reaches_grad():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    (x / x).sum().backward()
    assert np.isnan(x.grad.numpy()[0])


def test_check_nan_false_lets_it_through():
    x = torch.tensor([0.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (x / x).sum().backward()
    assert np.isnan(x.grad.numpy()[0])


def test_backward_in_threads_while_on():
    errors = []

    def work(value):
        x = torch.tensor([value], requires_grad=True)
        try:
            (x / x).sum().backward()
        except RuntimeError as e:
            errors.append(str(e))

    with torch.autograd.set_detect_anomaly(True):
        threads = [threading.Thread(target=work, args=(v,)) for v in (0.0, 1.0, 0.0, 2.0)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(errors) == 2 and all("DivBackward0" in e for e in errors)
