"""ConstantValueSource: a constant abstract value (Drake's ConstantValueSource)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..value import Value


class ConstantValueSource(LeafSystem):
    """Outputs a constant object on an abstract port.

    ::

        ┌─────────────────────┐
        │ ConstantValueSource │ ──▶ y0
        └─────────────────────┘

    Parameters
    ----------
    value : Value or object
        The value; each context's output holds its own deep copy.
    """

    @lists_valid_keywords
    def __init__(self, value):
        super().__init__()
        self._value = value.clone() if isinstance(value, Value) else Value(value).clone()
        self.declare_abstract_output_port("y0", self._value.clone, self._calc_output,
                                          [self.nothing_ticket()])

    def _calc_output(self, context, output):
        """The output was allocated as a copy of the value; nothing to compute."""

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """No state, no vector ports: every matrix is empty."""
        return np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((0, 0))
