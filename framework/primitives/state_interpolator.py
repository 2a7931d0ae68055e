"""StateInterpolatorWithDiscreteDerivative: [q; q̇] from q alone (Drake's)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ._linearization import select_ports
from ._validation import as_vector
from .discrete_derivative import _SampledDifference, _context_or_state


class StateInterpolatorWithDiscreteDerivative(_SampledDifference):
    """Outputs state = [q; v] where v is the DiscreteDerivative of q.

    ::

                   ┌─────────────────────────────────────────┐
        position ─▶│ StateInterpolatorWithDiscreteDerivative │ ──▶ state
                   └─────────────────────────────────────────┘

    The position half of ``state`` is direct feedthrough of ``position``; the velocity
    half is (q[k] − q[k−1]) / h from samples every h seconds (see DiscreteDerivative,
    including ``suppress_initial_transient``).

    Parameters
    ----------
    num_positions : int
        Size of q.
    time_step : float
        Sampling period h (s).
    suppress_initial_transient : bool
        Output zero velocity until two samples have been taken (default True).
    """

    @lists_valid_keywords
    def __init__(self, num_positions, time_step, suppress_initial_transient=True):
        super().__init__()
        self._declare_sampler("StateInterpolatorWithDiscreteDerivative", num_positions,
                              time_step, suppress_initial_transient)
        self.declare_vector_input_port("position", self._n)
        self.declare_vector_output_port("state", 2 * self._n, self._calc_state,
                                        [self.xd_ticket(), self.input_port_ticket(0)])

    def set_initial_position(self, context=None, position=None, *, state=None):
        """Set the sample history in ``context`` (or ``state``, a State of this system)
        to ``position`` (zero velocity), shape (n,)."""
        self._set_history("set_initial_position", *_context_or_state(context, state),
                          position, None)

    def set_initial_state(self, context=None, position=None, velocity=None, *, state=None):
        """Set the history in ``context`` (or ``state``) so that the output is
        [position; velocity], shapes (n,)."""
        fn = "set_initial_state"
        q = as_vector(fn, "position", position, self._n)
        v = as_vector(fn, "velocity", velocity, self._n)
        self._set_history(fn, *_context_or_state(context, state), q, q - v * self._h)

    def _calc_state(self, context, output):
        y = output.get_mutable_value()
        y[:self._n] = self.get_input_port(0).eval(context)
        y[self._n:] = self._difference(context)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact discrete-time linearization: C = [0; C_diff], D = [I; 0]."""
        A, B, C_diff = self._difference_linearization(context)
        n = self._n
        C = np.vstack([np.zeros_like(C_diff), C_diff])
        D = np.vstack([np.eye(n), np.zeros((n, n))])
        return select_ports(self, (A, B, C, D), input_port_index, output_port_index)
