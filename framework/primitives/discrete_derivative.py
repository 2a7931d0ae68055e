"""DiscreteDerivative: the backward difference of a periodically sampled input (Drake's).

Shared with StateInterpolatorWithDiscreteDerivative through ``_SampledDifference``.
"""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..state import State
from ._linearization import select_ports
from ._validation import as_positive_float, as_size, as_vector


class _SampledDifference(LeafSystem):
    """Base of the two discrete differentiators: samples input 0 every ``time_step``.

    Drake's discrete state layout: group 0 is x₀ = u[n], group 1 is x₁ = u[n−1] (each
    shape (n,)); with ``suppress_initial_transient`` group 2 is [c], the number of
    samples taken (saturating at 2). At t_k = k·h: x₀ ← u(t_k), x₁ ← x₀,
    c ← min(c + 1, 2). The difference (x₀ − x₁)/h is reported as zero while c < 2.
    """

    def _declare_sampler(self, fn, n, time_step, suppress_initial_transient):
        self._n = as_size(fn, "num_inputs", n)
        self._h = as_positive_float(fn, "time_step", time_step)
        self._suppress = bool(suppress_initial_transient)
        self.declare_discrete_state(self._n)
        self.declare_discrete_state(self._n)
        if self._suppress:
            self.declare_discrete_state(1)
        self.declare_periodic_discrete_update_event(self._h, 0.0, self._sample)

    def time_step(self):
        """Sampling period h (s)."""
        return self._h

    def suppress_initial_transient(self):
        return self._suppress

    def _sample(self, context, discrete_state):
        discrete_state.set_value(1, context.get_discrete_state(0))
        discrete_state.set_value(0, self.get_input_port(0).eval(context))
        if self._suppress:
            discrete_state.set_value(2, [min(context.get_discrete_state(2)[0] + 1.0, 2.0)])

    def _active(self, context):
        return not self._suppress or context.get_discrete_state(2)[0] >= 2.0

    def _difference(self, context):
        if not self._active(context):
            return np.zeros(self._n)
        return (context.get_discrete_state(0) - context.get_discrete_state(1)) / self._h

    def _set_history(self, fn, context, state, u_n, u_n_minus_1):
        """Write x₀ = u_n and x₁ = u_n_minus_1 (u_n when None) into ``context`` or into
        ``state`` (a State of this system), ending the transient suppression."""
        u_n = as_vector(fn, "u_n", u_n, self._n)
        u_prev = u_n if u_n_minus_1 is None else as_vector(fn, "u_n_minus_1", u_n_minus_1, self._n)
        groups = [u_n, u_prev] + ([np.array([2.0])] if self._suppress else [])
        if (context is None) == (state is None):
            raise TypeError(f"{fn}: give exactly one of context and state (system "
                            f"'{self._name}')")
        if context is not None:
            ctx = self._context_from(context, fn)
            for i, x in enumerate(groups):
                ctx.set_discrete_state(i, x)
        else:
            values = state.get_mutable_discrete_state()
            if values.num_groups() != len(groups):
                raise ValueError(f"{fn}: state has {values.num_groups()} discrete groups, "
                                 f"system '{self._name}' has {len(groups)}")
            for i, x in enumerate(groups):
                values.set_value(i, x)

    def _difference_linearization(self, context):
        """(A, B, C_diff): the history update and the difference's output row block."""
        n = self._n
        ns = 2 * n + (1 if self._suppress else 0)
        A = np.zeros((ns, ns))
        A[n:2 * n, :n] = np.eye(n)
        B = np.zeros((ns, n))
        B[:n] = np.eye(n)
        C = np.zeros((n, ns))
        if self._active(context):
            C[:, :n] = np.eye(n) / self._h
            C[:, n:2 * n] = -np.eye(n) / self._h
        elif self._suppress:
            A[2 * n, 2 * n] = 1.0     # the sample counter still counts up
        return A, B, C


class DiscreteDerivative(_SampledDifference):
    """y(t) = (u[k] − u[k−1]) / h with u[k] = u(k·h), k = floor(t/h).

    ::

        u ──▶ ┌────────────────────┐
              │ DiscreteDerivative │ ──▶ dudt
              └────────────────────┘

    No direct feedthrough: the output uses the two most recent samples (discrete state
    x₀ = u[k], x₁ = u[k−1], both 0 by default). With ``suppress_initial_transient`` the
    output stays 0 until two samples have been taken (t >= h), which hides the spike
    (u(0) − 0)/h; ``set_input_history`` sets the history and ends the suppression.

    Parameters
    ----------
    num_inputs : int
        Size of ``u`` and ``dudt``.
    time_step : float
        Sampling period h (s).
    suppress_initial_transient : bool
        See above (default True).
    """

    @lists_valid_keywords
    def __init__(self, num_inputs, time_step, suppress_initial_transient=True):
        super().__init__()
        self._declare_sampler("DiscreteDerivative", num_inputs, time_step,
                              suppress_initial_transient)
        self.declare_vector_input_port("u", self._n)
        self.declare_vector_output_port("dudt", self._n, self._calc_dudt, [self.xd_ticket()])

    def set_input_history(self, context=None, u_n=None, u_n_minus_1=None, *, state=None):
        """Set the two most recent samples in ``context`` or in ``state`` (a State of
        this system); u_n_minus_1 defaults to u_n (zero derivative)."""
        self._set_history("DiscreteDerivative.set_input_history", *_context_or_state(context, state),
                          u_n, u_n_minus_1)

    def _calc_dudt(self, context, output):
        output.set_value(self._difference(context))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact discrete-time linearization of the sampler and the difference."""
        A, B, C = self._difference_linearization(context)
        matrices = (A, B, C, np.zeros((self._n, self._n)))
        return select_ports(self, matrices, input_port_index, output_port_index)


def _context_or_state(context, state):
    """``(context, state)`` with a State passed positionally moved to ``state``."""
    if isinstance(context, State):
        return None, context
    return context, state
