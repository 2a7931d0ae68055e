"""Saturation: element-wise clamping to limits (Drake's Saturation)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports
from ._validation import as_size, as_vector


class Saturation(LeafSystem):
    """Outputs y = min(max(u, min_value), max_value), element-wise.

    Constant limits, ``Saturation(min_value, max_value)``::

        u0 ──▶ ┌────────────┐
               │ Saturation │ ──▶ y0
               └────────────┘

    Variable limits, ``Saturation(input_size=n)``::

        u0 ────────▶ ┌────────────┐
        max_value ─▶ │ Saturation │ ──▶ y0
        min_value ─▶ └────────────┘

    ``y0`` is direct feedthrough of every input. Limits must satisfy min <= max
    (an infinite limit disables that side).

    Parameters
    ----------
    min_value, max_value : float or array_like, shape (n,)
        Constant limits (a scalar with a vector other limit is broadcast).
    input_size : int, optional
        Give this (and no constant limits) for the variable-limit form.
    """

    @lists_valid_keywords
    def __init__(self, min_value=None, max_value=None, *, input_size=None):
        super().__init__()
        if input_size is not None:
            if min_value is not None or max_value is not None:
                raise ValueError(
                    "Saturation: give either constant limits (min_value, max_value) or input_size "
                    "for limit input ports, not both")
            n = as_size("Saturation", "input_size", input_size)
            self._min = self._max = None
        else:
            if min_value is None or max_value is None:
                raise ValueError("Saturation: min_value and max_value are both required")
            n = max(np.size(min_value), np.size(max_value))
            self._min = as_vector("Saturation", "min_value", min_value, n)
            self._max = as_vector("Saturation", "max_value", max_value, n)
            bad = np.flatnonzero(self._min > self._max)
            if bad.size:
                i = int(bad[0])
                raise ValueError(
                    f"Saturation: min_value[{i}] = {self._min[i]} exceeds max_value[{i}] = "
                    f"{self._max[i]}")
        self.declare_vector_input_port("u0", n)
        if self._min is None:
            self.declare_vector_input_port("max_value", n)
            self.declare_vector_input_port("min_value", n)
        self.declare_vector_output_port("y0", n, self._calc_output, [self.all_input_ports_ticket()])

    def get_input_port(self, i_or_name=None, warn_deprecated=True, *, port_index=None,
                       port_name=None):
        """The port ``u0`` when called without an argument, else by index or name."""
        i_or_name = self._index_or_name("get_input_port", i_or_name, port_index, port_name)
        return super().get_input_port(0 if i_or_name is None else i_or_name)

    def get_min_value_port(self):
        return super().get_input_port("min_value")

    def get_max_value_port(self):
        return super().get_input_port("max_value")

    def _limits(self, context):
        if self._min is not None:
            return self._min, self._max
        lo = self.get_min_value_port().eval(context)
        hi = self.get_max_value_port().eval(context)
        bad = np.flatnonzero(lo > hi)
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                f"Saturation: system '{self.get_name()}' got min_value[{i}] = {lo[i]} greater than "
                f"max_value[{i}] = {hi[i]} at time {context.get_time()}")
        return lo, hi

    def _calc_output(self, context, output):
        lo, hi = self._limits(context)
        np.clip(self.get_input_port(0).eval(context), lo, hi, out=output.get_mutable_value())

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization of the active branch per element: ∂y/∂u = 1 strictly inside
        the limits; at or beyond a limit y follows that limit (∂y/∂max or ∂y/∂min = 1 for
        variable limits, 0 for constant ones)."""
        lo, hi = self._limits(context)
        u = self.get_input_port(0).eval(context)
        n = u.size
        at_max = u >= hi
        at_min = (u <= lo) & ~at_max
        blocks = [np.diag((~at_max & ~at_min).astype(float))]
        if self._min is None:      # inputs u0, max_value, min_value
            blocks += [np.diag(at_max.astype(float)), np.diag(at_min.astype(float))]
        D = np.hstack(blocks) if n else np.zeros((0, 0))
        return select_ports(self, feedthrough_matrices(D), input_port_index, output_port_index)
