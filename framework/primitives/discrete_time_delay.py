"""DiscreteTimeDelay: its input delayed by a whole number of sampling periods (Drake's)."""

import copy

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..value import Value
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
    abstract_model_value : Value or object, optional
        Give it instead of ``vector_size`` for abstract ports: the buffer is then abstract
        state 0 (a list of N + 1 values, copies of this one initially), shifted by a
        periodic unrestricted update.
    """

    @lists_valid_keywords
    def __init__(self, update_sec, delay_time_steps, vector_size=None, *,
                 abstract_model_value=None):
        super().__init__()
        self._period = as_positive_float("DiscreteTimeDelay", "update_sec", update_sec)
        self._steps = as_size("DiscreteTimeDelay", "delay_time_steps", delay_time_steps, 0)
        if (vector_size is None) == (abstract_model_value is None):
            raise TypeError("DiscreteTimeDelay: give exactly one of vector_size and "
                            "abstract_model_value")
        self._abstract = abstract_model_value is not None
        if self._abstract:
            model = (abstract_model_value if isinstance(abstract_model_value, Value)
                     else Value(abstract_model_value))
            self.declare_abstract_input_port("u", model)
            buffer = [copy.deepcopy(model.get_value()) for _ in range(self._steps + 1)]
            self.declare_abstract_state(Value(buffer))
            self.declare_periodic_unrestricted_update_event(self._period, 0.0,
                                                            self._sample_abstract)
            self.declare_abstract_output_port("delayed_u", model.clone, self._calc_abstract,
                                              [self.xa_ticket()])
            return
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

    def _sample_abstract(self, context, state):
        buffer = list(context.get_abstract_state(0).get_value()[1:])     # drop the oldest sample
        buffer.append(copy.deepcopy(self.get_input_port(0).eval(context)))
        state.set_abstract_state(0, buffer)

    def _calc_abstract(self, context, output):
        output.set_value(copy.deepcopy(context.get_abstract_state(0).get_value()[0]))

    def _sample(self, context, discrete_state):
        buffer = discrete_state.get_mutable_value(0)
        n = self._n
        buffer[:-n] = context.get_discrete_state(0)[n:]       # drop the oldest sample
        buffer[-n:] = self.get_input_port(0).eval(context)

    def _calc_delayed(self, context, output):
        output.set_value(context.get_discrete_state(0)[:self._n])
