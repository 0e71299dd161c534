"""Grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode.

Every expected value below was observed in torch 2.13.0 (the comment
"PyTorch:" marks each); autograd_teach must give the same.
"""
import threading

import pytest

import autograd_teach as torch


@pytest.fixture(autouse=True)
def grad_enabled_around_each_test():
    torch.set_grad_enabled(True)
    yield
    assert torch.is_grad_enabled(), "a test left grad mode off"
    torch.set_grad_enabled(True)


def current():
    return torch.is_grad_enabled()


# ---- inference_mode ---------------------------------------------------------

def test_inference_mode_true_disables_grad():
    with torch.inference_mode():
        assert current() is False          # PyTorch: False
    with torch.inference_mode(True):
        assert current() is False          # PyTorch: False
    assert current() is True


def test_inference_mode_false_enables_grad_even_inside_no_grad():
    with torch.inference_mode(False):
        assert current() is True           # PyTorch: True
    with torch.no_grad():
        with torch.inference_mode(False):
            assert current() is True       # PyTorch: True (not "left as it is")
            x = torch.ones(2, requires_grad=True) * 2
            assert x.requires_grad is True  # PyTorch: True
        assert current() is False
    with torch.inference_mode():
        with torch.inference_mode(False):
            assert current() is True       # PyTorch: True
        assert current() is False          # PyTorch: False


def test_inference_mode_as_decorator():
    @torch.inference_mode
    def bare():
        return current()

    @torch.inference_mode()
    def called():
        return current()

    @torch.inference_mode(False)
    def off():
        return current()

    assert bare() is False                 # PyTorch: False
    assert called() is False               # PyTorch: False
    assert off() is True                   # PyTorch: True
    with torch.no_grad():
        assert off() is True               # PyTorch: True
    assert bare.__name__ == "bare"


# ---- generators -------------------------------------------------------------

def test_decorated_generator_runs_under_the_mode():
    @torch.no_grad()
    def gen():
        yield current()

    @torch.no_grad
    def gen2():
        yield current()
        yield current()

    @torch.enable_grad()
    def gen_on():
        yield current()

    @torch.set_grad_enabled(False)
    def gen_set():
        yield current()

    @torch.inference_mode()
    def gen_inf():
        yield current()

    assert list(gen()) == [False]          # PyTorch: [False]
    assert list(gen2()) == [False, False]  # PyTorch: [False, False]
    with torch.no_grad():
        assert list(gen_on()) == [True]    # PyTorch: [True]
    assert list(gen_set()) == [False]      # PyTorch: [False]
    assert current() is True               # PyTorch: True (decorating does not switch)
    assert list(gen_inf()) == [False]      # PyTorch: [False]


def test_caller_keeps_its_mode_between_yields():
    @torch.no_grad()
    def gen():
        yield current()
        yield current()

    it = gen()
    assert next(it) is False               # PyTorch: False
    assert current() is True               # PyTorch: True
    assert next(it) is False


def test_generator_send_throw_return_and_close():
    @torch.no_grad()
    def echo():
        x = yield current()
        yield (x, current())

    it = echo()
    assert next(it) is False               # PyTorch: False
    assert it.send(5) == (5, False)        # PyTorch: (5, False)

    @torch.no_grad()
    def catcher():
        try:
            yield 1
        except ValueError:
            yield ("caught", current())

    it = catcher()
    next(it)
    assert it.throw(ValueError) == ("caught", False)  # PyTorch: ('caught', False)
    assert current() is True               # PyTorch: True

    @torch.no_grad()
    def returns():
        yield 1
        return 7

    it = returns()
    next(it)
    with pytest.raises(StopIteration) as stop:
        next(it)
    assert stop.value.value == 7           # PyTorch: 7

    seen = []

    @torch.no_grad()
    def closing():
        try:
            yield 1
        finally:
            seen.append(current())

    it = closing()
    next(it)
    it.close()
    assert seen == [False] and current() is True


# ---- set_grad_enabled -------------------------------------------------------

@pytest.mark.parametrize("value, name", [(0, "int"), (1, "int"), (None, "NoneType"),
                                         ("x", "str"), (0.0, "float")])
def test_set_grad_enabled_wants_a_bool(value, name):
    # PyTorch: TypeError "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not int"
    with pytest.raises(TypeError) as err:
        torch.set_grad_enabled(value)
    assert str(err.value) == f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {name}"
    assert current() is True


def test_set_grad_enabled_object_reused_as_context_manager():
    s = torch.set_grad_enabled(False)
    assert current() is False              # PyTorch: False (takes effect at once)
    torch.set_grad_enabled(True)
    with s:
        assert current() is False          # PyTorch: False
    assert current() is True               # PyTorch: True
    with s:
        assert current() is False          # PyTorch: False
        with torch.enable_grad():
            assert current() is True       # PyTorch: True
        assert current() is False          # PyTorch: False
    assert current() is True               # PyTorch: True


def test_set_grad_enabled_restores_the_mode_from_when_it_was_made():
    s = torch.set_grad_enabled(False)      # made while grad was on
    with s:
        pass
    torch.set_grad_enabled(False)
    with s:
        assert current() is False
    assert current() is True               # PyTorch: True (not False, the mode at `with`)

    torch.set_grad_enabled(False)
    s2 = torch.set_grad_enabled(True)      # made while grad was off
    torch.set_grad_enabled(False)
    with s2:
        assert current() is True           # PyTorch: True
    assert current() is False              # PyTorch: False
    torch.set_grad_enabled(True)


def test_set_grad_enabled_with_block_and_decorator():
    with torch.set_grad_enabled(False):
        assert current() is False          # PyTorch: False
    assert current() is True               # PyTorch: True
    torch.set_grad_enabled(False)
    with torch.set_grad_enabled(True):
        assert current() is True           # PyTorch: True
    assert current() is False              # PyTorch: False
    torch.set_grad_enabled(True)

    @torch.set_grad_enabled(False)
    def f():
        return current()

    assert current() is True               # PyTorch: True
    assert f() is False                    # PyTorch: False
    assert current() is True               # PyTorch: True


# ---- nesting and exceptions -------------------------------------------------

def test_nesting_restores_each_level():
    with torch.no_grad():
        assert current() is False
        with torch.enable_grad():
            assert current() is True
            with torch.inference_mode():
                assert current() is False
                with torch.set_grad_enabled(True):
                    assert current() is True
                assert current() is False
            assert current() is True
        assert current() is False
    assert current() is True


def test_recursive_decorated_calls_nest():
    @torch.no_grad()
    def depth(n):
        inner = depth(n - 1) if n else []
        return [current()] + inner

    @torch.enable_grad()
    def on():
        return depth(2), current()

    with torch.no_grad():
        assert on() == ([False, False, False], True)
        assert current() is False


@pytest.mark.parametrize("make", [torch.no_grad, torch.enable_grad, torch.inference_mode,
                                  lambda: torch.inference_mode(False),
                                  lambda: torch.set_grad_enabled(False),
                                  lambda: torch.set_grad_enabled(True)])
@pytest.mark.parametrize("outer", [True, False])
def test_exception_inside_block_restores_mode(make, outer):
    torch.set_grad_enabled(outer)
    with pytest.raises(ValueError):
        with make():
            raise ValueError
    assert current() is outer              # PyTorch: the mode from before the block
    torch.set_grad_enabled(True)


def test_exception_inside_decorated_function_restores_mode():
    @torch.no_grad()
    def bad():
        raise KeyError

    with pytest.raises(KeyError):
        bad()
    assert current() is True               # PyTorch: True


def test_enter_returns_none_and_bare_decorators_keep_names():
    with torch.no_grad() as r1, torch.set_grad_enabled(False) as r2, torch.inference_mode() as r3:
        assert (r1, r2, r3) == (None, None, None)   # PyTorch: None, None, None

    @torch.enable_grad
    def eg():
        return current()

    with torch.no_grad():
        assert eg() is True                # PyTorch: True
    assert eg.__name__ == "eg"


def test_grad_mode_is_per_thread():
    """As in PyTorch (thread-local), a new thread starts with grad mode on,
    whatever the thread that started it has set."""
    seen = []

    def worker():
        seen.append(current())

    with torch.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen == [True]                  # PyTorch: [True]
