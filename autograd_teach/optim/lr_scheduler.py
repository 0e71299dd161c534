"""torch.optim.lr_scheduler: change each param_group's "lr" as training goes.

A scheduler is a small state machine beside the optimizer. Its constructor
saves every group's starting lr as `group["initial_lr"]` (the `base_lrs`) and
takes a first step to epoch 0; each `scheduler.step()` then adds one to
`last_epoch` and writes `get_lr()` into `group["lr"]`, where the optimizer's
next step reads it.

Most schedules are *chainable*, as in PyTorch: the new lr is computed from the
group's current lr (StepLR multiplies it by gamma), not from `base_lr` with a
closed form, so another scheduler (or you) may change the lr in between. The
two give the same number on paper, not in floating point: `0.1 * 0.5 * 0.5`
is not `0.1 * 0.5 ** 2` to the last bit, so the formulas here repeat
PyTorch's, operation by operation, and print the same digits.

PyTorch checks the order of calls: `optimizer.step()` must come before
`scheduler.step()`, or the first value of the schedule is skipped. It finds out
by wrapping the optimizer's `step` in an object that records the call; the
scheduler's second `step()` (its first after the constructor's) warns if it
has not been called yet."""
import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from weakref import ref

from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
_DOCS = "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


def _lrs(optimizer, key="lr"):
    return [group[key] for group in optimizer.param_groups]


class _TrackedStep:
    """optimizer.step, wrapped (once, by the first scheduler) to remember that it
    was called. PyTorch keeps the flag on the optimizer (`_opt_called`); here
    it stays on the wrapper, which the schedulers read as `optimizer.step`."""
    _wrapped_by_lr_sched = True           # the mark PyTorch's schedulers look for
    _opt_called = False

    def __init__(self, optimizer):
        self._optimizer = ref(optimizer)  # no cycle optimizer -> wrapper -> optimizer
        self._step = optimizer.step.__func__

    def __call__(self, *args, **kwargs):
        self._opt_called = True
        return self._step(self._optimizer(), *args, **kwargs)


def _track_step_called(optimizer):
    if not hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        optimizer.step = _TrackedStep(optimizer)


class LRScheduler:
    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't properly loaded the "
                        "optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs = _lrs(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _track_step_called(optimizer)
        self._step_count = 0
        self._is_initial = True           # the constructor's step: some schedules keep the lr as it is
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        return self._last_lr

    def get_lr(self):
        raise NotImplementedError

    def step(self, epoch=None):
        if self._step_count == 1:
            self._warn_if_out_of_order()
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:                         # the deprecated step(epoch): jump there with the closed form
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = _lrs(self.optimizer)

    def _warn_if_out_of_order(self):
        if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
            warnings.warn(
                "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                "initialization. Please, make sure to call `optimizer.step()` before "
                f"`lr_scheduler.step()`. See more details at {_DOCS}", UserWarning, stacklevel=3)
        elif not self.optimizer.step._opt_called:
            warnings.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                "will result in PyTorch skipping the first value of the learning rate schedule. "
                f"See more details at {_DOCS}", UserWarning, stacklevel=3)

    def _warn_get_lr_outside_step(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)


class _LRScheduler(LRScheduler):
    pass


class LambdaLR(LRScheduler):
    """lr = base_lr * lr_lambda(epoch): the one schedule that is not chainable."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self):
        """Plain functions and lambdas cannot be saved: they are stored as None;
        a callable object's attributes are."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas       # leave the caller's dict as it was
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class StepLR(LRScheduler):
    """lr *= gamma every step_size epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr *= gamma at each milestone (gamma ** n if a milestone is listed n times)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        if self.last_epoch not in self.milestones:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor on base_lr goes linearly from start_factor to end_factor in
    total_iters steps; chainable, each step multiplies the lr by the ratio of
    this step's factor to the last one's."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        span = self.end_factor - self.start_factor
        return [group["lr"] * (1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span))
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr *= gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        if self._is_initial:          # resuming from a checkpoint must not decay one step too far
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Closed form: lr_t = eta_min + (base_lr - eta_min) * (1 + cos(pi t / T_max)) / 2.
    Chainable form (what step() computes): lr_t = eta_min + (lr_{t-1} - eta_min)
    * (1 + cos(pi t / T_max)) / (1 + cos(pi (t-1) / T_max)), with a special
    step where that ratio would divide by zero (just past each minimum)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        groups = self.optimizer.param_groups
        if self._is_initial:
            return _lrs(self.optimizer)
        if self._step_count == 1 and self.last_epoch > 0:      # resumed: start from the closed form
            return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos((self.last_epoch) * math.pi / self.T_max))
                    / 2 for base_lr in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [group["lr"] + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (group["lr"] - self.eta_min) + self.eta_min
                for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]
