"""lr_scheduler and nn.utils clipping, off the golden path: the closed forms
agree with the chainable steps, the order warning fires once and only when it
should, state round-trips, clipping edge cases (the printed behaviour against
PyTorch is in tests/golden/programs/optim_lr_scheduler.py and nn_clip_grad.py)."""
import math
import warnings

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import nn
from autograd_teach.optim import lr_scheduler


def make_opt(lr=0.1, groups=1):
    params = [nn.Parameter(torch.ones(2)) for _ in range(groups)]
    return torch.optim.SGD([{"params": [p]} for p in params], lr=lr)


SCHEDULES = [
    lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
    lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 4, 4], gamma=0.3),
    lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9),
    lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.01),
    lambda o: lr_scheduler.LinearLR(o, start_factor=0.2, total_iters=4),
    lambda o: lr_scheduler.ConstantLR(o, factor=0.25, total_iters=3),
    lambda o: lr_scheduler.PolynomialLR(o, total_iters=6, power=1.5),
]


@pytest.mark.parametrize("make", SCHEDULES)
def test_chainable_steps_follow_the_closed_form(make):
    opt = make_opt(groups=2)
    sched = make(opt)
    for _ in range(23):
        opt.step()
        sched.step()
        closed = sched._get_closed_form_lr()
        assert sched.get_last_lr() == [g["lr"] for g in opt.param_groups]
        assert np.allclose(sched.get_last_lr(), closed, rtol=1e-9, atol=1e-12)


def test_constructor_writes_initial_lr_and_does_not_overwrite_it():
    opt = make_opt(lr=1.0)
    lr_scheduler.LinearLR(opt, start_factor=0.5)
    assert opt.param_groups[0]["lr"] == 0.5
    sched = lr_scheduler.StepLR(opt, step_size=1)
    assert opt.param_groups[0]["initial_lr"] == 1.0 and sched.base_lrs == [1.0]


def order_warnings(record):
    return [w for w in record if "before `optimizer.step()`" in str(w.message)]


def test_stepping_the_scheduler_first_warns_once():
    opt = make_opt()
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        sched.step()
        sched.step()
    assert len(order_warnings(record)) == 1


def test_right_order_does_not_warn_and_two_schedulers_wrap_step_once():
    opt = make_opt()
    a = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    wrapped = opt.step
    b = lr_scheduler.StepLR(opt, step_size=2)
    assert opt.step is wrapped
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        opt.step()
        a.step()
        b.step()
    assert record == []
    assert math.isclose(opt.param_groups[0]["lr"], 0.05)


def test_overriding_step_after_construction_warns():
    opt = make_opt()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    opt.step = lambda: None
    with pytest.warns(UserWarning, match="has been overridden after learning rate scheduler"):
        sched.step()


def test_wrapped_step_still_updates_and_returns_the_closure_loss():
    opt = make_opt(lr=0.5)
    lr_scheduler.StepLR(opt, step_size=1)
    p = opt.param_groups[0]["params"][0]
    p.grad = torch.ones(2)
    assert opt.step(lambda: 7.0) == 7.0
    assert p.tolist() == [0.5, 0.5]
    assert opt.step._opt_called is True


def test_state_dict_round_trip_resumes_the_same_schedule():
    opt = make_opt()
    sched = lr_scheduler.CosineAnnealingLR(opt, T_max=6)
    for _ in range(4):
        opt.step()
        sched.step()
    saved = sched.state_dict()
    assert "optimizer" not in saved
    opt2 = make_opt(lr=0.1)
    sched2 = lr_scheduler.CosineAnnealingLR(opt2, T_max=1)
    sched2.load_state_dict(saved)
    opt2.param_groups[0]["lr"] = opt.param_groups[0]["lr"]
    for _ in range(5):
        opt.step()
        sched.step()
        opt2.step()
        sched2.step()
        assert sched2.get_last_lr() == sched.get_last_lr()


class Halving:
    def __init__(self):
        self.factor = 0.5

    def __call__(self, epoch):
        return self.factor ** epoch


def test_lambda_state_saves_callable_objects_not_functions():
    opt = make_opt(groups=2)
    fn = Halving()
    sched = lr_scheduler.LambdaLR(opt, [fn, lambda e: 1.0])
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"factor": 0.5}, None]
    fn.factor = 0.9
    sched.load_state_dict(state)
    assert fn.factor == 0.5 and "lr_lambdas" in state


def test_errors():
    opt = make_opt()
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        lr_scheduler.StepLR([], 1)
    with pytest.raises(KeyError, match="initial_lr"):
        lr_scheduler.StepLR(opt, 1, last_epoch=2)
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        lr_scheduler.LambdaLR(opt, [abs, abs])
    with pytest.raises(ValueError, match="Starting multiplicative factor"):
        lr_scheduler.LinearLR(opt, start_factor=1.5)


# -- torch.nn.utils: clipping and parameters as a vector ---------------------------

def params_with_grads(*grads, dtype=torch.float32):
    params = []
    for g in grads:
        p = nn.Parameter(torch.zeros(1 if g is None else len(g), dtype=dtype))
        p.grad = None if g is None else torch.tensor(g, dtype=dtype)
        params.append(p)
    return params


@pytest.mark.parametrize("norm_type", [1, 2.0, 3.5, float("inf")])
def test_clipping_brings_the_total_norm_down_to_max_norm(norm_type):
    params = params_with_grads([3.0, -4.0, 1.5], [12.0], [0.25, -2.0])
    everything = np.array([3.0, -4.0, 1.5, 12.0, 0.25, -2.0])
    total = nn.utils.clip_grad_norm_(params, 2.0, norm_type)
    assert math.isclose(total.item(), np.linalg.norm(everything, norm_type), rel_tol=1e-6)
    after = np.concatenate([p.grad.numpy() for p in params])
    assert math.isclose(np.linalg.norm(after, norm_type), 2.0, rel_tol=1e-5)
    assert np.allclose(after / everything, after[0] / everything[0])   # one scale for every gradient


def test_small_gradients_are_left_as_they_are_and_none_grads_skipped():
    params = params_with_grads([0.3, -0.4], None, dtype=torch.float64)
    total = nn.utils.clip_grad_norm_(iter(params), max_norm=1.0)
    assert total.dtype == torch.float64 and math.isclose(total.item(), 0.5)
    assert params[0].grad.tolist() == [0.3, -0.4] and params[1].grad is None


def test_a_generator_is_read_once_and_an_empty_one_warns():
    params = params_with_grads([30.0, 40.0])
    total = nn.utils.clip_grad_norm_((p for p in params), 5.0)
    assert total.item() == 50.0 and np.allclose(params[0].grad.numpy(), [3.0, 4.0])
    with pytest.warns(UserWarning, match="empty generator"):
        assert nn.utils.clip_grad_norm_((p for p in []), 1.0).item() == 0.0


def test_clipping_is_not_recorded_by_autograd():
    params = params_with_grads([3.0, 4.0])
    total = nn.utils.clip_grad_norm_(params[0], 1.0)
    assert total.grad_fn is None and not total.requires_grad and params[0].grad.grad_fn is None


def test_non_finite_total_norm():
    params = params_with_grads([float("nan"), 1.0])
    with pytest.raises(RuntimeError, match="total norm of order 2.0 for gradients"):
        nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
    params = params_with_grads([float("inf"), 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                    # inf * 0 gives nan silently, as in PyTorch
        assert nn.utils.clip_grad_norm_(params, 1.0).item() == float("inf")
    assert np.isnan(params[0].grad.numpy()[0])


def test_clip_grad_value_and_the_deprecated_name():
    params = params_with_grads([-3.0, 0.5, 2.0], None)
    assert nn.utils.clip_grad_value_(params, 1) is None
    assert params[0].grad.tolist() == [-1.0, 0.5, 1.0]
    with pytest.warns(FutureWarning, match="clip_grad_norm_"):
        nn.utils.clip_grad_norm(params, 1.0)


def test_parameters_to_vector_and_back():
    model = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(model.parameters())
    assert vec.shape == (8,) and type(vec.grad_fn).__name__ == "CatBackward0"
    vec.sum().backward()
    assert model.weight.grad.tolist() == [[1.0] * 3] * 2
    nn.utils.vector_to_parameters(torch.arange(8.0), model.parameters())
    assert model.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and model.bias.tolist() == [6.0, 7.0]
    assert isinstance(model.weight, nn.Parameter) and model.weight.requires_grad
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: numpy.ndarray"):
        nn.utils.vector_to_parameters(np.zeros(8), model.parameters())


# -- the schedulers that are not StepLR & co (printed against PyTorch in
# tests/golden/programs/optim_lr_schedulers_more.py and optim_reduce_lr_on_plateau.py)

def stepped(sched, n):
    lrs = []
    for _ in range(n):
        sched.optimizer.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    return lrs


def test_warm_restarts_step_by_step_equal_the_jumps():
    a = lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=3, T_mult=2, eta_min=0.01)
    by_step = stepped(a, 30)
    b = lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=3, T_mult=2, eta_min=0.01)
    by_jump = []
    for epoch in range(1, 31):
        b.step(epoch)
        by_jump.append(b.get_last_lr()[0])
    assert np.allclose(by_step, by_jump, rtol=1e-12)
    restarts = [i + 1 for i, lr in enumerate(by_step) if lr == 0.1]
    assert restarts == [3, 9, 21]          # periods 3, 6, 12


def test_cyclic_lr_is_periodic_and_stays_between_its_bounds():
    lrs = stepped(lr_scheduler.CyclicLR(make_opt(), 0.01, 0.1, step_size_up=3, step_size_down=2), 25)
    assert all(0.01 - 1e-15 <= lr <= 0.1 + 1e-15 for lr in lrs)
    assert np.allclose(lrs[:20], lrs[5:], rtol=1e-12)
    halving = stepped(lr_scheduler.CyclicLR(make_opt(), 0.0, 0.1, step_size_up=2, mode="triangular2"), 12)
    assert np.allclose([max(halving[i:i + 4]) for i in (0, 4, 8)], [0.1, 0.05, 0.025])


def test_one_cycle_peaks_at_max_lr_ends_at_min_lr_and_refuses_one_more_step():
    opt = torch.optim.SGD([nn.Parameter(torch.ones(2))], lr=1.0, momentum=0.9)
    sched = lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=20, pct_start=0.25)
    lrs = [sched.get_last_lr()[0]] + stepped(sched, 19)
    assert lrs[0] == pytest.approx(0.5 / 25) and max(lrs) == pytest.approx(0.5)
    assert lrs.index(max(lrs)) == 4 and lrs[-1] == pytest.approx(0.5 / 25 / 1e4)
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.95)   # back up as the lr came down
    opt.step()
    sched.step()                       # step 20 of 20 is allowed ...
    with pytest.raises(ValueError, match="Tried to step 21 times"):
        sched.step()                   # ... the next is not


def test_sequential_lr_is_its_parts_closed_forms_one_after_the_other():
    opt = make_opt(lr=1.0)
    warm = lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=4)
    decay = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    seq = lr_scheduler.SequentialLR(opt, [warm, decay], milestones=[4])
    lrs = [seq.get_last_lr()[0]] + stepped(seq, 10)
    expected = [0.1 + 0.9 * min(t, 4) / 4 for t in range(4)] + [0.5 ** ((t - 4) // 2) for t in range(4, 15)]
    assert np.allclose(lrs, expected[:11], rtol=1e-12)


def test_chained_schedulers_multiply():
    opt = make_opt(lr=1.0)
    chain = lr_scheduler.ChainedScheduler([lr_scheduler.ExponentialLR(opt, gamma=0.9),
                                           lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)])
    lrs = stepped(chain, 9)
    assert np.allclose(lrs, [0.9 ** t * 0.5 ** (t // 3) for t in range(1, 10)], rtol=1e-12)


def plateau(metrics, **kwargs):
    opt = make_opt(lr=1.0)
    sched = lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    out = []
    for m in metrics:
        sched.step(m)
        out.append(sched.get_last_lr()[0])
    return out


def test_plateau_reduces_after_patience_and_waits_out_the_cooldown():
    assert plateau([1, 1, 1, 1, 1, 1], patience=1, factor=0.5) == [1, 1, 0.5, 0.5, 0.25, 0.25]
    assert plateau([1, 1, 1, 1, 1, 1, 1], patience=0, factor=0.5, cooldown=2) == [1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25]
    assert plateau([1, 2, 3, 2, 2], mode="max", patience=0, factor=0.5) == [1, 1, 1, 0.5, 0.25]
    assert plateau([1] * 8, patience=0, factor=0.1, min_lr=0.005) == [1, 0.1, 0.010000000000000002, 0.005, 0.005,
                                                                     0.005, 0.005, 0.005]


def test_a_nan_metric_is_never_an_improvement():
    assert plateau([float("nan")] * 4, patience=1, factor=0.5) == [1, 0.5, 0.5, 0.25]
    opt = make_opt()
    sched = lr_scheduler.ReduceLROnPlateau(opt)
    sched.step(float("nan"))
    assert sched.best == float("inf") and sched.num_bad_epochs == 1


def test_plateau_thresholds():
    # rel: 0.95 is not below 1 * (1 - 0.1); abs: it is below 1 - 0.01
    assert plateau([1, 0.95, 0.95], patience=0, factor=0.5, threshold=0.1) == [1, 0.5, 0.25]
    assert plateau([1, 0.95, 0.95], patience=0, factor=0.5, threshold=0.01, threshold_mode="abs") == [1, 1, 0.5]
