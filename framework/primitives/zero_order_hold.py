"""ZeroOrderHold: samples its input periodically and holds it (Drake's ZeroOrderHold)."""

import copy

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..value import Value
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

    With ``abstract_model_value`` the ports are abstract and the held value is abstract
    state 0, latched by a periodic unrestricted update.

    Parameters
    ----------
    period_sec : float
        Sampling period (s), > 0.
    vector_size : int
        Vector size (pydrake's keyword; ``size`` is the name API.md uses).
    offset_sec : float
        Time of the first sample (s), >= 0.
    abstract_model_value : Value or object, optional
        Give it instead of a size for abstract ports holding values like this one.
    size : int, optional
        As ``vector_size``.
    """

    @lists_valid_keywords
    def __init__(self, period_sec, vector_size=None, offset_sec=0.0, *,
                 abstract_model_value=None, size=None):
        super().__init__()
        self._period = as_positive_float("ZeroOrderHold", "period_sec", period_sec)
        self._offset = float(offset_sec)
        if not self._offset >= 0.0:
            raise ValueError(f"ZeroOrderHold: offset_sec must be >= 0, got {offset_sec}")
        given = [x for x in (vector_size, abstract_model_value, size) if x is not None]
        if len(given) != 1:
            raise TypeError("ZeroOrderHold: give exactly one of vector_size, "
                            f"abstract_model_value and size, got {len(given)}")
        self._abstract = abstract_model_value is not None
        if self._abstract:
            model = (abstract_model_value if isinstance(abstract_model_value, Value)
                     else Value(abstract_model_value))
            self.declare_abstract_input_port("u", model)
            self.declare_abstract_state(model)
            self.declare_periodic_unrestricted_update_event(self._period, self._offset,
                                                            self._latch_abstract)
            self.declare_abstract_output_port("y", model.clone, self._output_abstract,
                                              [self.xa_ticket()])
            return
        n = as_size("ZeroOrderHold", "vector_size", given[0])
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
        if self._abstract:
            ctx.set_abstract_state(0, copy.deepcopy(self.get_input_port(0).eval(ctx)))
        else:
            ctx.set_discrete_state(0, self.get_input_port(0).eval(ctx))

    def set_vector_state(self, context, value):
        """Set the held value of a vector hold to `value` (size n), Drake's
        SetVectorState.

        Raises
        ------
        TypeError
            For a hold of abstract values (see `latch_input_port_to_state`).
        """
        fn = "ZeroOrderHold.set_vector_state"
        if self._abstract:
            raise TypeError(f"{fn}: system '{self.get_name()}' holds abstract values, not a "
                            f"vector")
        ctx = self._context_from(context, fn)
        ctx.set_discrete_state(0, value)

    def _output_abstract(self, context, output):
        output.set_value(copy.deepcopy(context.get_abstract_state(0).get_value()))

    def _latch_abstract(self, context, state):
        state.set_abstract_state(0, self.get_input_port(0).eval(context))

    def _latch(self, context, discrete_state):
        discrete_state.set_value(self.get_input_port(0).eval(context))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact discrete-time linearization: A = 0, B = I, C = I, D = 0 (None for
        abstract ports)."""
        if self._abstract:
            return None
        n = self.get_input_port(0).size()
        matrices = (np.zeros((n, n)), np.eye(n), np.eye(n), np.zeros((n, n)))
        return select_ports(self, matrices, input_port_index, output_port_index)
