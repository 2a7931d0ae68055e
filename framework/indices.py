"""Drake's typed indices (InputPortIndex, OutputPortIndex, SubsystemIndex, ...).

Each is an ``int`` subclass: it compares and hashes as its integer, so it can be passed
wherever merganser takes an index and used as a key next to plain ints.
"""


class _TypedIndex(int):
    """A non-negative integer index; ``repr`` names its type as pydrake does."""

    __slots__ = ()

    def __new__(cls, value=0):
        i = int.__new__(cls, value)
        if i < 0:
            raise ValueError(f"{cls.__name__}: index must be >= 0, got {int(value)}")
        return i

    def __repr__(self):
        return f"{type(self).__name__}({int(self)})"

    def is_valid(self):
        """Always true: a typed index is built only from a valid (non-negative) value."""
        return True


class InputPortIndex(_TypedIndex):
    """Index of an input port in its system."""


class OutputPortIndex(_TypedIndex):
    """Index of an output port in its system."""


class SubsystemIndex(_TypedIndex):
    """Index of a subsystem in its diagram (order of addition)."""


class DiscreteStateIndex(_TypedIndex):
    """Index of a discrete state group."""


class AbstractStateIndex(_TypedIndex):
    """Index of an abstract state."""


class NumericParameterIndex(_TypedIndex):
    """Index of a numeric parameter."""


class AbstractParameterIndex(_TypedIndex):
    """Index of an abstract parameter."""


class CacheIndex(_TypedIndex):
    """Index of a cache entry of a system."""


class ContinuousStateIndex(_TypedIndex):
    """Index of a continuous state (a system has at most one: 0)."""


class SystemConstraintIndex(_TypedIndex):
    """Index of a constraint of a system (``add_external_constraint`` returns one)."""
