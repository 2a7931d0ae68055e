"""FirstOrderLowPassFilter: τ ż = u − z, y = z (Drake's FirstOrderLowPassFilter)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_size, as_vector


class FirstOrderLowPassFilter(LeafSystem):
    """A first-order low-pass filter per element: τᵢ żᵢ = uᵢ − zᵢ, y = z.

    ::

        u ──▶ ┌─────────────────────────┐
              │ FirstOrderLowPassFilter │ ──▶ y
              └─────────────────────────┘

    No direct feedthrough. The initial output is 0 unless set with
    ``set_initial_output_value(context, z0)``.

    Parameters
    ----------
    time_constant : float or array_like, shape (size,)
        τ (s), > 0; a scalar applies to every element.
    size : int, optional
        Vector size with a scalar ``time_constant`` (default 1).
    time_constants : array_like, shape (size,), optional
        One τ per element (pydrake's keyword); give it instead of ``time_constant``.
    """

    @lists_valid_keywords
    def __init__(self, time_constant=None, size=None, *, time_constants=None):
        super().__init__()
        if (time_constant is None) == (time_constants is None):
            raise TypeError(
                "FirstOrderLowPassFilter: give exactly one of time_constant and time_constants")
        if time_constants is not None:
            if size is not None:
                raise TypeError(
                    "FirstOrderLowPassFilter: size is implied by time_constants; give one")
            time_constant = time_constants
            if np.ndim(time_constant) == 0:
                time_constant = [time_constant]
        if size is not None:
            size = as_size("FirstOrderLowPassFilter", "size", size)
        elif np.ndim(time_constant) == 0:
            size = 1
        self._tau = as_vector("FirstOrderLowPassFilter", "time_constant", time_constant, size)
        bad = np.flatnonzero(~(self._tau > 0.0))
        if bad.size:
            raise ValueError(
                f"FirstOrderLowPassFilter: time_constant[{int(bad[0])}] must be > 0, got "
                f"{self._tau[bad[0]]}")
        self._tau.flags.writeable = False
        n = self._tau.size
        self.declare_vector_input_port("u", n)
        self.declare_continuous_state(n)
        self.declare_state_output_port("y", "continuous")

    def get_time_constant(self):
        """The scalar τ; raises if the time constants differ between elements."""
        if not np.all(self._tau == self._tau[0]):
            raise RuntimeError(
                f"FirstOrderLowPassFilter.get_time_constant: system '{self.get_name()}' has a "
                f"different time constant per element; use get_time_constants_vector()")
        return float(self._tau[0])

    def get_time_constants_vector(self):
        """τ per element, shape (size,), read-only."""
        return self._tau

    def set_initial_output_value(self, context, z0):
        """Set the filter state (and so the output) in ``context``, shape (size,)."""
        ctx = self._context_from(context, "FirstOrderLowPassFilter.set_initial_output_value")
        ctx.set_continuous_state(as_vector("set_initial_output_value", "z0", z0, self._tau.size))

    def do_calc_time_derivatives(self, context, derivatives):
        z = context.get_continuous_state_vector()
        derivatives.set_value((self.get_input_port(0).eval(context) - z) / self._tau)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: A = −diag(1/τ), B = diag(1/τ), C = I, D = 0."""
        n = self._tau.size
        inv = np.diag(1.0 / self._tau)
        matrices = (-inv, inv, np.eye(n), np.zeros((n, n)))
        return select_ports(self, matrices, input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True
