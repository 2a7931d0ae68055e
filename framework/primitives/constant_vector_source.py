"""ConstantVectorSource: a constant vector held as a parameter (Drake's)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_vector


class ConstantVectorSource(LeafSystem):
    """Outputs a constant vector.

    ::

        ┌──────────────────────┐
        │ ConstantVectorSource │ ──▶ y0
        └──────────────────────┘

    The value is numeric parameter 0 of the context, so each context (a clone, a Monte
    Carlo sample) may hold its own value: ``set_source_value(context, value)``.

    Parameters
    ----------
    source_value : float or array_like, shape (n,)
        The default value.
    """

    @lists_valid_keywords
    def __init__(self, source_value):
        super().__init__()
        value = as_vector("ConstantVectorSource", "source_value", source_value)
        if value.size == 0:
            raise ValueError("ConstantVectorSource: source_value must not be empty")
        self._param = self.declare_numeric_parameter(value)
        self.declare_vector_output_port("y0", value.size, self._calc_output,
                                        [self.numeric_parameter_ticket(self._param)])

    def get_source_value(self, context):
        """The value in ``context``, shape (n,), read-only."""
        ctx = self._context_from(context, "ConstantVectorSource.get_source_value")
        return ctx.get_numeric_parameter(self._param)

    def get_mutable_source_value(self, context):
        """A BasicVector writing into the value held by ``context``."""
        ctx = self._context_from(context, "ConstantVectorSource.get_mutable_source_value")
        return ctx.get_mutable_numeric_parameter(self._param)

    def set_source_value(self, context, value):
        """Set the value held by ``context`` (shape (n,))."""
        ctx = self._context_from(context, "ConstantVectorSource.set_source_value")
        value = as_vector("ConstantVectorSource.set_source_value", "value", value,
                          self.get_output_port(0).size())
        ctx.set_numeric_parameter(self._param, value)

    def _calc_output(self, context, output):
        output.set_value(context.get_numeric_parameter(self._param))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: no state, no input; C and D have no columns."""
        p = self.get_output_port(0).size()
        matrices = (np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((p, 0)), np.zeros((p, 0)))
        return select_ports(self, matrices, input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True
