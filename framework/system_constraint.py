"""System constraints (Drake's SystemConstraint): a function f(context) with bounds that a
valid Context satisfies, equality f = 0 or inequality lower <= f <= upper.

A system gets one from outside with ``system.add_external_constraint(constraint)`` (an
ExternalSystemConstraint: description, bounds and ``calc(system, context) -> values``);
``check_system_constraints_satisfied(context, tol)`` evaluates them all, and a clone of
the system keeps them. An ExternalSystemConstraint without ``calc`` (the default one) adds
a constraint of size 0 described "<description> (disabled for this scalar type)", as in
Drake.
"""

import numpy as np

from .drake_enum import DrakeIntEnum

__all__ = ["ExternalSystemConstraint", "SystemConstraint", "SystemConstraintBounds",
           "SystemConstraintType"]


class SystemConstraintType(DrakeIntEnum):
    """Equality f(x) = 0 or inequality lower <= f(x) <= upper."""

    kEquality = 0
    kInequality = 1


def _bound(fn, name, values, size, fill):
    if values is None:
        return np.full(size, fill)
    a = np.array(values, dtype=float).reshape(-1)
    if size is not None and a.size != size:
        raise ValueError(f"{fn}: {name} has size {a.size}, expected {size}")
    return a


class SystemConstraintBounds:
    """The bounds of a constraint: ``SystemConstraintBounds(size)`` (or
    ``equality(size)``) is f = 0 of that size; ``SystemConstraintBounds(lower, upper)`` is
    lower <= f <= upper (None for -inf / +inf on one side).

    Parameters
    ----------
    lower : int or array_like or None
        The size of an equality constraint, or the lower bounds.
    upper : array_like or None, optional
        The upper bounds (given with `lower` as an array, or None).

    Raises
    ------
    ValueError
        Bounds of different sizes, lower > upper, a negative size, or equal bounds that
        are not zero (an equality constraint is f = 0, as in Drake).
    """

    def __init__(self, lower=0, upper=None, *args):
        fn = "SystemConstraintBounds"
        if args:
            raise TypeError(f"{fn}: expected (size) or (lower, upper), got {2 + len(args)} "
                            f"arguments")
        if isinstance(lower, (int, np.integer)) and upper is None:
            if lower < 0:
                raise ValueError(f"{fn}: size must be >= 0, got {lower}")
            self._lower = self._upper = np.zeros(int(lower))
            self._type = SystemConstraintType.kEquality
            return
        if lower is None and upper is None:
            raise ValueError(f"{fn}: give a size, or lower and/or upper bounds; got neither")
        size = None if lower is None else np.size(lower)
        size = np.size(upper) if size is None else size
        self._lower = _bound(fn, "lower", lower, size, -np.inf)
        self._upper = _bound(fn, "upper", upper, size, np.inf)
        if not np.all(self._lower <= self._upper):
            raise ValueError(f"{fn}: lower must be <= upper, got lower {self._lower.tolist()} "
                             f"and upper {self._upper.tolist()}")
        if np.any(self._lower != self._upper):
            self._type = SystemConstraintType.kInequality
        elif np.all(self._lower == 0.0):
            self._type = SystemConstraintType.kEquality
        else:
            raise ValueError(f"{fn}: equal lower and upper bounds must be 0 (an equality "
                             f"constraint is f = 0), got {self._lower.tolist()}")

    @classmethod
    def equality(cls, size):
        """The bounds of f = 0 with `size` elements."""
        return cls(int(size))

    def size(self):
        return self._lower.size

    def type(self):
        """kEquality or kInequality."""
        return self._type

    def lower(self):
        """Lower bounds, shape (size,) (a copy)."""
        return self._lower.copy()

    def upper(self):
        """Upper bounds, shape (size,) (a copy)."""
        return self._upper.copy()

    def __repr__(self):
        return (f"SystemConstraintBounds(lower={self._lower.tolist()}, "
                f"upper={self._upper.tolist()})")


class ExternalSystemConstraint:
    """A constraint to add to a system from outside (Drake's ExternalSystemConstraint).

    Parameters
    ----------
    description : str
        A name for messages (default ``"empty"``, Drake's for the default constraint).
    bounds : SystemConstraintBounds, optional
        Default: an equality of size 0.
    calc : callable, optional
        ``calc(system, context) -> array_like, shape (bounds.size(),)``. Without one the
        constraint is added disabled (size 0).
    """

    def __init__(self, description="empty", bounds=None, calc=None):
        if not isinstance(description, str):
            raise TypeError(f"ExternalSystemConstraint: description must be a str, got "
                            f"{type(description).__name__}")
        bounds = SystemConstraintBounds() if bounds is None else bounds
        if not isinstance(bounds, SystemConstraintBounds):
            raise TypeError(f"ExternalSystemConstraint: bounds must be SystemConstraintBounds, "
                            f"got {type(bounds).__name__}")
        if calc is not None and not callable(calc):
            raise TypeError(f"ExternalSystemConstraint: calc must be callable(system, context), "
                            f"got {calc!r}")
        self._description, self._bounds, self._calc = description, bounds, calc

    def description(self):
        return self._description

    def bounds(self):
        return self._bounds

    def get_calc(self):
        """The calc function, or None."""
        return self._calc


class SystemConstraint:
    """A constraint of one system (Drake's SystemConstraint): ``calc(context)`` gives f,
    ``check_satisfied(context, tol)`` compares it with the bounds.

    Parameters
    ----------
    system : System
        The constrained system; a context given to `calc` must belong to it.
    calc : callable
        ``calc(system, context) -> array_like, shape (bounds.size(),)``.
    bounds : SystemConstraintBounds
    description : str
    """

    def __init__(self, system, calc, bounds, description):
        self._system, self._calc = system, calc
        self._bounds, self._description = bounds, description

    def calc(self, context):
        """f(context), ndarray of shape (size(),).

        Raises
        ------
        ValueError
            `context` is not the constrained system's, or calc gave another size.
        """
        self._system._check_context(context, "SystemConstraint.calc")
        value = np.array(self._calc(self._system, context), dtype=float).reshape(-1)
        if value.size != self.size():
            raise ValueError(f"SystemConstraint.calc: constraint {self._description!r} gave "
                             f"{value.size} values, expected {self.size()}")
        return value

    def check_satisfied(self, context, tol):
        """Whether f(context) is within `tol` (>= 0) of its bounds (|f| <= tol for an
        equality)."""
        tol = float(tol)
        if not tol >= 0.0:
            raise ValueError(f"SystemConstraint.check_satisfied: tol must be >= 0, got {tol}")
        value = self.calc(context)
        if self.is_equality_constraint():
            return bool(np.all(np.abs(value) <= tol))
        return bool(np.all(value - self._bounds._lower >= -tol)
                    and np.all(self._bounds._upper - value >= -tol))

    def get_system(self):
        return self._system

    def bounds(self):
        return self._bounds

    def size(self):
        return self._bounds.size()

    def type(self):
        return self._bounds.type()

    def is_equality_constraint(self):
        return self._bounds.type() == SystemConstraintType.kEquality

    def lower_bound(self):
        return self._bounds.lower()

    def upper_bound(self):
        return self._bounds.upper()

    def description(self):
        return self._description


def _disabled(system, context):
    return np.zeros(0)


def make_constraint(system, external):
    """The SystemConstraint that `external` (an ExternalSystemConstraint) adds to `system`."""
    if not isinstance(external, ExternalSystemConstraint):
        raise TypeError(f"add_external_constraint: constraint must be an "
                        f"ExternalSystemConstraint, got {type(external).__name__}")
    if external.get_calc() is None:
        return SystemConstraint(system, _disabled, SystemConstraintBounds(),
                                f"{external.description()} (disabled for this scalar type)")
    return SystemConstraint(system, external.get_calc(), external.bounds(),
                            external.description())
