"""WrapToSystem: wraps chosen elements of a vector into intervals (Drake's WrapToSystem)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._validation import as_size


class WrapToSystem(LeafSystem):
    """y = u, except that each element given an interval [low, high) is wrapped into it.

    ::

        u ──▶ ┌──────────────┐
              │ WrapToSystem │ ──▶ y
              └──────────────┘

    For an element with interval [low, high): y_i = low + (u_i - low) mod (high - low),
    so y_i is in [low, high) and differs from u_i by a whole number of periods (an angle
    wrapped to [-π, π), for instance). Elements without an interval pass through.
    ``y`` is direct feedthrough of ``u``.

    Parameters
    ----------
    size : int
        Size of ``u`` and ``y``.
    """

    @lists_valid_keywords
    def __init__(self, size):
        super().__init__()
        self._n = as_size("WrapToSystem", "size", size)
        self._low = np.full(self._n, -np.inf)
        self._high = np.full(self._n, np.inf)
        self._wrapped = np.zeros(self._n, dtype=bool)
        self.declare_vector_input_port("u", self._n)
        self.declare_vector_output_port("y", self._n, self._calc_y, [self.input_port_ticket(0)])

    def set_interval(self, index, low, high):
        """Wrap element ``index`` into [low, high); requires low < high, both finite."""
        i = int(index)
        if not 0 <= i < self._n:
            raise IndexError(f"WrapToSystem.set_interval: index must be in [0, {self._n}), "
                             f"got {index} in system '{self.get_name()}'")
        low, high = float(low), float(high)
        if not (np.isfinite(low) and np.isfinite(high) and low < high):
            raise ValueError(f"WrapToSystem.set_interval: need finite low < high, got "
                             f"low={low}, high={high} in system '{self.get_name()}'")
        self._low[i], self._high[i] = low, high
        self._wrapped[i] = True

    def _calc_y(self, context, output):
        y = output.get_mutable_value()
        y[:] = self.get_input_port(0).eval(context)
        w = self._wrapped
        low, period = self._low[w], self._high[w] - self._low[w]
        wrapped = low + np.mod(y[w] - low, period)
        # Rounding in mod can land exactly on high; the interval is half-open.
        y[w] = np.where(wrapped >= self._high[w], low, wrapped)
