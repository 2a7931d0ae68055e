"""Containers for port and state values: BasicVector (numeric) and Value (abstract)."""

import copy

import numpy as np


class BasicVector:
    """A fixed-size float64 vector, the value type of vector ports and state groups.

    Parameters
    ----------
    data : int or array_like, shape (n,)
        The size (zero-filled) or the initial values.
    """

    __slots__ = ("_data",)

    def __init__(self, data):
        if isinstance(data, (int, np.integer)):
            self._data = np.zeros(int(data))
        else:
            self._data = np.array(data, dtype=float).reshape(-1)

    @classmethod
    def _wrap(cls, array):
        """Wrap an existing float64 array without copying (the vector writes through)."""
        obj = cls.__new__(cls)
        obj._data = array
        return obj

    def size(self):
        """Number of elements."""
        return self._data.shape[0]

    def __len__(self):
        return self._data.shape[0]

    def get_value(self):
        """The values, as a read-only view, shape (n,)."""
        view = self._data.view()
        view.flags.writeable = False
        return view

    def value(self):
        """Alias of :meth:`get_value`."""
        return self.get_value()

    def get_mutable_value(self):
        """A writable view of the values, shape (n,)."""
        return self._data

    def set_value(self, value):
        """Overwrite all values; ``value`` must have exactly ``size()`` elements."""
        value = np.asarray(value, dtype=float)
        if value.size != self._data.shape[0]:
            raise ValueError(
                f"BasicVector.set_value: value has size {value.size}, expected {self._data.shape[0]}")
        self._data[:] = value.reshape(-1)

    def set_from_vector(self, value):
        """Alias of :meth:`set_value` (Drake's SetFromVector)."""
        self.set_value(value)

    def get_mutable_vector(self):
        """Return self, so that ``derivatives.get_mutable_vector().set_value(x)`` works."""
        return self

    def get_vector(self):
        """Return self."""
        return self

    def copy_to_vector(self):
        """A copy of the values, shape (n,)."""
        return self._data.copy()

    def __getitem__(self, i):
        return self._data[i]

    def __setitem__(self, i, value):
        self._data[i] = value

    def __repr__(self):
        return f"BasicVector({self._data.tolist()})"


class Value:
    """A type-erased holder for an abstract (non-numeric) value, as Drake's AbstractValue.

    Parameters
    ----------
    value : object
        The held value; ``clone()`` deep-copies it.
    """

    __slots__ = ("_value",)

    def __init__(self, value=None):
        self._value = value

    def get_value(self):
        """The held object."""
        return self._value

    def get_mutable_value(self):
        """The held object (mutable)."""
        return self._value

    def set_value(self, value):
        """Replace the held object."""
        self._value = value

    def clone(self):
        """A deep copy."""
        return Value(copy.deepcopy(self._value))

    def __repr__(self):
        return f"Value({self._value!r})"


AbstractValue = Value


def as_value(model_value):
    """Return ``model_value`` as a :class:`Value` (wrapping raw objects)."""
    return model_value if isinstance(model_value, Value) else Value(model_value)
