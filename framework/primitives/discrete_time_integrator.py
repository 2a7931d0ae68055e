"""DiscreteTimeIntegrator: forward-Euler integration of the input (Drake's)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_positive_float, as_size, as_vector


class DiscreteTimeIntegrator(LeafSystem):
    """x[n+1] = x[n] + h u[n], y[n] = x[n], updated every h = ``time_step`` from t = 0.

    ::

        u ──▶ ┌────────────────────────┐
              │ DiscreteTimeIntegrator │ ──▶ y
              └────────────────────────┘

    The state (discrete group 0) starts at 0; set it per context with
    ``set_integral_value(context, value)``. No direct feedthrough.

    Parameters
    ----------
    size : int
        Size of u, x and y.
    time_step : float
        h (s), > 0.
    """

    @lists_valid_keywords
    def __init__(self, size, time_step):
        super().__init__()
        n = as_size("DiscreteTimeIntegrator", "size", size)
        self._h = as_positive_float("DiscreteTimeIntegrator", "time_step", time_step)
        self.declare_vector_input_port("u", n)
        self.declare_discrete_state(n)
        self.declare_periodic_discrete_update_event(self._h, 0.0, self._update)
        self.declare_state_output_port("y", 0)

    def time_step(self):
        """h (s)."""
        return self._h

    def set_integral_value(self, context, value):
        """Set the integral (the state) in ``context``, shape (size,)."""
        ctx = self._context_from(context, "DiscreteTimeIntegrator.set_integral_value")
        ctx.set_discrete_state(0, as_vector("DiscreteTimeIntegrator.set_integral_value",
                                            "value", value, self.get_input_port(0).size()))

    def _update(self, context, discrete_state):
        discrete_state.set_value(context.get_discrete_state(0)
                                 + self._h * self.get_input_port(0).eval(context))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact discrete-time linearization: A = I, B = h I, C = I, D = 0."""
        n = self.get_input_port(0).size()
        matrices = (np.eye(n), self._h * np.eye(n), np.eye(n), np.zeros((n, n)))
        return select_ports(self, matrices, input_port_index, output_port_index)
