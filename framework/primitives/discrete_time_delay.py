"""DiscreteTimeDelay: its input delayed by a whole number of sampling periods (Drake's)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._validation import as_positive_float, as_size


class DiscreteTimeDelay(LeafSystem):
    """y(t) = u(t_k - N h): the input sampled N periods before the latest sample.

    ::

        u ──▶ ┌───────────────────┐
              │ DiscreteTimeDelay │ ──▶ delayed_u
              └───────────────────┘

    The input is sampled every ``update_sec`` = h seconds from t = 0 into a buffer of the
    last N + 1 samples (discrete state, oldest first, zeros initially); the output is the
    oldest one, so it is zero until N periods have passed. No direct feedthrough.

    Parameters
    ----------
    update_sec : float
        Sampling period h (s), > 0.
    delay_time_steps : int
        N, the delay in periods (>= 0; 0 behaves as a ZeroOrderHold).
    vector_size : int
        Size of u.
    """

    @lists_valid_keywords
    def __init__(self, update_sec, delay_time_steps, vector_size):
        super().__init__()
        self._period = as_positive_float("DiscreteTimeDelay", "update_sec", update_sec)
        self._steps = as_size("DiscreteTimeDelay", "delay_time_steps", delay_time_steps, 0)
        self._n = as_size("DiscreteTimeDelay", "vector_size", vector_size)
        self.declare_vector_input_port("u", self._n)
        self.declare_discrete_state((self._steps + 1) * self._n)
        self.declare_periodic_discrete_update_event(self._period, 0.0, self._sample)
        self.declare_vector_output_port("delayed_u", self._n, self._calc_delayed,
                                        [self.xd_ticket()])

    def update_sec(self):
        return self._period

    def delay_time_steps(self):
        return self._steps

    def _sample(self, context, discrete_state):
        buffer = discrete_state.get_mutable_value(0)
        n = self._n
        buffer[:-n] = context.get_discrete_state(0)[n:]       # drop the oldest sample
        buffer[-n:] = self.get_input_port(0).eval(context)

    def _calc_delayed(self, context, output):
        output.set_value(context.get_discrete_state(0)[:self._n])
