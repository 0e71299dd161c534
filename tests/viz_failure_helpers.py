"""Shared by the failed-backward tests of both engines (tests/test_viz_failed_backward.py,
our engine's; tests/test_viz_torch_failed.py, real PyTorch's): viz must draw the two alike."""
import re
import threading

import pytest

from autograd_teach import viz

SECOND_TIME = "RuntimeError: Trying to backward through the graph a second time"
LATER_FAILED = "a later backward() from here failed"


def caption(diagram):
    """The caption's lines, as the footer of the DOT source has them (CJK text is padded for the layout)."""
    return [line.rstrip("\xa0") for line in re.findall(r'<td align="left" border="0">([^<]+)<', diagram.source)]


def two_threads_one_failing(square_sum, rounds):
    """One thread backwards once per graph, the other twice, the second failing: each
    thread's graphs are drawn with their finished run, a note of the failure only on
    the failing thread's (a run recorded in one thread never stands for another's)."""
    results, errors = {}, []
    barrier = threading.Barrier(2)

    def work(fail):
        try:
            for _ in range(rounds):
                y, _ = square_sum()
                barrier.wait()
                y.backward(retain_graph=not fail)
                if fail:
                    with pytest.raises(RuntimeError):
                        y.backward()
                results.setdefault(fail, []).append(y)
        except BaseException as e:         # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(f,)) for f in (False, True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(results) == [False, True] and all(len(ys) == rounds for ys in results.values())
    for fail, ys in results.items():
        for y in ys:
            d = viz.draw(y)
            assert len(d.steps) == 3
            assert (LATER_FAILED in " ".join(caption(d))) is fail
