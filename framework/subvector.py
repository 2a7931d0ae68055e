"""Subvector and Supervector: views over parts of vectors (Drake's)."""

import numpy as np

from .value import BasicVector, VectorBase


def _array(fn, vector):
    """The float64 array behind ``vector`` (a VectorBase, BasicVector or ndarray), no copy."""
    if isinstance(vector, BasicVector):
        return vector._data
    if isinstance(vector, np.ndarray) and vector.dtype == np.float64 and vector.ndim == 1:
        return vector
    raise TypeError(f"{fn}: expected a VectorBase, BasicVector or 1-D float64 ndarray, got "
                    f"{type(vector).__name__}")


class Subvector(VectorBase):
    """Elements ``first_element`` to ``first_element + num_elements`` of ``vector``, a view
    (writes go to ``vector``; read-only when ``vector`` is)."""

    def __new__(cls, vector, first_element, num_elements):
        array = _array("Subvector", vector)
        first, count = int(first_element), int(num_elements)
        if first < 0 or count < 0 or first + count > array.size:
            raise IndexError(f"Subvector: elements [{first}, {first + count}) out of range for "
                             f"a vector of size {array.size}")
        return array[first:first + count].view(cls)


class Supervector:
    """The concatenation of ``subvectors`` (VectorBase, BasicVector or ndarray), reading
    and writing through to them (Drake's Supervector)."""

    __slots__ = ("_parts", "_starts")

    def __init__(self, subvectors):
        self._parts = [_array("Supervector", v) for v in subvectors]
        self._starts = np.cumsum([0] + [p.size for p in self._parts])

    def size(self):
        return int(self._starts[-1])

    def __len__(self):
        return self.size()

    def _locate(self, i):
        i = int(i)
        if i < 0:
            i += self.size()
        if not 0 <= i < self.size():
            raise IndexError(f"Supervector: index {i} out of range for size {self.size()}")
        part = int(np.searchsorted(self._starts, i, side="right")) - 1
        return self._parts[part], i - int(self._starts[part])

    def get_at_index(self, index):
        array, k = self._locate(index)
        return float(array[k])

    def set_at_index(self, index, value):
        array, k = self._locate(index)
        array[k] = value

    __getitem__ = get_at_index
    __setitem__ = set_at_index

    def copy_to_vector(self):
        """All values, a new ndarray of shape (size(),)."""
        return np.concatenate(self._parts) if self._parts else np.zeros(0)

    get_value = copy_to_vector

    def set_from_vector(self, value):
        value = np.asarray(value, dtype=float).reshape(-1)
        if value.size != self.size():
            raise ValueError(f"Supervector.set_from_vector: value has size {value.size}, "
                             f"expected {self.size()}")
        for array, start in zip(self._parts, self._starts):
            array[:] = value[start:start + array.size]

    def set_zero(self):
        for array in self._parts:
            array[:] = 0.0

    def __repr__(self):
        return f"Supervector({self.copy_to_vector().tolist()})"
