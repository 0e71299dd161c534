"""The constraints of torch/distributions/constraints.py that Normal,
Bernoulli, Uniform and Categorical use: what a parameter or a value must
satisfy. check(value) gives a bool tensor; the repr is what PyTorch's
ValueError prints."""
import numpy as np

from ..core.tensor import Tensor


def _bool(array):
    return Tensor._wrap(np.asarray(array, dtype=bool))


def _data(value):
    return value._data if isinstance(value, Tensor) else value


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A parameter whose valid values depend on another (Uniform's support):
    validation skips it."""

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


class _DependentProperty(property, _Dependent):
    """A property on an instance, a dependent constraint on the class."""

    def __init__(self, fn=None, *, is_discrete=False, event_dim=0):
        super().__init__(fn)
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _Real(Constraint):
    def check(self, value):
        return _bool(_data(value) == _data(value))       # False for NaN


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        v = _data(value)
        return _bool((v == 0) | (v == 1))


class _Bounds(Constraint):
    """A constraint with bounds, printed as PyTorch prints them."""
    names = ()

    def __init__(self, *bounds):
        for name, bound in zip(self.names, bounds):
            setattr(self, name, bound)

    def __repr__(self):
        args = ", ".join(f"{n}={getattr(self, n)}" for n in self.names)
        return f"{type(self).__name__[1:]}({args})"


class _GreaterThan(_Bounds):
    names = ("lower_bound",)

    def check(self, value):
        return _bool(_data(self.lower_bound) < _data(value))


class _LessThan(_Bounds):
    names = ("upper_bound",)

    def check(self, value):
        return _bool(_data(value) < _data(self.upper_bound))


class _Interval(_Bounds):
    names = ("lower_bound", "upper_bound")

    def check(self, value):
        v = _data(value)
        return _bool((_data(self.lower_bound) <= v) & (v <= _data(self.upper_bound)))


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        v = _data(value)
        return _bool((v % 1 == 0) & (self.lower_bound <= v) & (v <= self.upper_bound))


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        v = _data(value)
        with np.errstate(invalid="ignore"):                  # inf + -inf: nan, which fails the check
            return _bool(np.all(v >= 0, axis=-1) & (np.abs(v.sum(-1) - 1) < 1e-6))


class _Multinomial(Constraint):
    """Counts: none negative, at most upper_bound in all (PyTorch checks no more)."""
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        v = _data(value)
        return _bool(np.all(v >= 0, axis=-1) & (v.sum(-1) <= self.upper_bound))


class _IndependentConstraint(Constraint):
    """base_constraint over the last reinterpreted_batch_ndims dims at once."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)._data
        if result.ndim < self.reinterpreted_batch_ndims:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        result = result.reshape(result.shape[:result.ndim - self.reinterpreted_batch_ndims] + (-1,))
        return _bool(result.all(-1))

    def __repr__(self):
        return f"{type(self).__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
greater_than = _GreaterThan
less_than = _LessThan
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
simplex = _Simplex()
multinomial = _Multinomial
