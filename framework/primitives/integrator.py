"""Integrator: a continuous state that integrates its input (Drake's Integrator)."""

import numbers

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_size, as_vector


class Integrator(LeafSystem):
    """ẋ = u, y = x.

    ::

        u ──▶ ┌────────────┐
              │ Integrator │ ──▶ y
              └────────────┘

    No direct feedthrough. The initial value is 0 unless given; change the default with
    ``set_default_integral_value(value)`` and one context's with
    ``set_integral_value(context, value)``.

    Parameters
    ----------
    size : int or array_like
        The vector size (or, positionally, the default initial value, shape (size,)).
    initial_value : array_like, shape (size,), optional
        The default initial value (pydrake's keyword); give either ``size`` or this.
    """

    @lists_valid_keywords
    def __init__(self, size=None, *, initial_value=None):
        super().__init__()
        if (size is None) == (initial_value is None):
            raise TypeError("Integrator: give exactly one of size (int) and initial_value "
                            f"(vector), got size={size!r}, initial_value={initial_value!r}")
        if initial_value is not None:
            size = initial_value
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            initial = np.zeros(as_size("Integrator", "size", size))
        else:
            initial = as_vector("Integrator", "initial_value", size)
            if initial.size == 0:
                raise ValueError("Integrator: the initial value must not be empty")
        n = initial.size
        self._default_integral = initial
        self.declare_continuous_state(model_vector=initial)
        self.declare_vector_input_port("u", n)
        self.declare_state_output_port("y", "continuous")

    def set_default_integral_value(self, value):
        """Set the initial value of contexts created from now on, shape (size,)."""
        self._default_integral = as_vector("Integrator.set_default_integral_value", "value",
                                           value, self.num_continuous_states())

    def set_default_state_and_parameters(self, context):
        context.set_continuous_state(self._default_integral)

    def set_integral_value(self, context, value):
        """Set the integral (the state) in ``context``, shape (size,)."""
        ctx = self._context_from(context, "Integrator.set_integral_value")
        ctx.set_continuous_state(as_vector("Integrator.set_integral_value", "value", value,
                                           self.num_continuous_states()))

    def do_calc_time_derivatives(self, context, derivatives):
        np.copyto(derivatives.get_mutable_value(), self._input_ports[0].eval(context))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: A = 0, B = I, C = I, D = 0."""
        n = self.num_continuous_states()
        matrices = (np.zeros((n, n)), np.eye(n), np.eye(n), np.zeros((n, n)))
        return select_ports(self, matrices, input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True
