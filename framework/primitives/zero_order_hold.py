"""ZeroOrderHold: samples its input periodically and holds it (Drake's ZeroOrderHold)."""

import numpy as np

from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_positive_float, as_size


class ZeroOrderHold(LeafSystem):
    """Holds the input sampled at t = offset + k·period.

    ::

        u ──▶ ┌───────────────┐
              │ ZeroOrderHold │ ──▶ y
              └───────────────┘

    A periodic discrete update sets x[n+1] = u(t_n); the output is the held value
    y = x, so there is no direct feedthrough. The held value starts at 0 (or set it with
    ``latch_input_port_to_state``).

    Parameters
    ----------
    period_sec : float
        Sampling period (s), > 0.
    size : int
        Vector size.
    offset_sec : float
        Time of the first sample (s), >= 0.
    """

    def __init__(self, period_sec, size, offset_sec=0.0):
        super().__init__()
        self._period = as_positive_float("ZeroOrderHold", "period_sec", period_sec)
        self._offset = float(offset_sec)
        if not self._offset >= 0.0:
            raise ValueError(f"ZeroOrderHold: offset_sec must be >= 0, got {offset_sec}")
        n = as_size("ZeroOrderHold", "size", size)
        self.declare_vector_input_port("u", n)
        self.declare_discrete_state(n)
        self.declare_periodic_discrete_update_event(self._period, self._offset, self._latch)
        self.declare_state_output_port("y", 0)

    def period(self):
        return self._period

    def offset(self):
        return self._offset

    def latch_input_port_to_state(self, context):
        """Copy the current input into the held value of ``context``."""
        ctx = self._context_from(context, "ZeroOrderHold.latch_input_port_to_state")
        ctx.set_discrete_state(0, self.get_input_port(0).eval(ctx))

    def _latch(self, context, discrete_state):
        discrete_state.set_value(self.get_input_port(0).eval(context))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact discrete-time linearization: A = 0, B = I, C = I, D = 0."""
        n = self.get_input_port(0).size()
        matrices = (np.zeros((n, n)), np.eye(n), np.eye(n), np.zeros((n, n)))
        return select_ports(self, matrices, input_port_index, output_port_index)
