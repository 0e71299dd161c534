"""The base of torch.optim.lr_scheduler: change each param_group's "lr" as training goes.

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
import warnings
from weakref import ref

from ..core.tensor import Tensor
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
    """group[key] of every group; an lr given as a Tensor is copied, so that
    what get_last_lr() returns cannot change the optimizer's."""
    return [group[key].clone() if isinstance(group[key], Tensor) else group[key] for group in optimizer.param_groups]


def _set_lr(group, lr):
    """An lr that is a Tensor is filled in place (the optimizer may hold it), never replaced."""
    if isinstance(group["lr"], Tensor):
        group["lr"].fill_(lr.item() if isinstance(lr, Tensor) else lr)
    else:
        group["lr"] = lr


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
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
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
        self._initial_step()

    def _initial_step(self):
        """The constructor's step (SequentialLR takes it again when a schedule's turn comes)."""
        self._step_count = 0
        self._is_initial = True           # some schedules keep the lr as it is on this step
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
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        """One step without the checks: to the next epoch by get_lr(), or to
        `epoch` by the closed form where there is one."""
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
            _set_lr(group, lr)
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
