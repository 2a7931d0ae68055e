"""PortSwitch: passes through the input port that a selector input names (Drake's)."""

import copy
import numbers

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..errors import PortError
from ..value import Value
from ._validation import as_size


class PortSwitch(LeafSystem):
    """Outputs the value of the input port whose index the selector input holds.

    ::

        port_selector ──▶ ┌────────────┐
        u1 ────────────▶ │ PortSwitch │ ──▶ value
         ...             │            │
        uN ────────────▶ └────────────┘

    Input port 0, ``port_selector``, is abstract and holds an input port index (an int,
    Drake's InputPortIndex) of one of the ports added with ``declare_input_port(name)``
    (indices 1, 2, ...). ``value`` is direct feedthrough of every input.

    Parameters
    ----------
    vector_size : int
        Size of the switched vector ports.
    """

    @lists_valid_keywords
    def __init__(self, vector_size):
        super().__init__()
        self._n = as_size("PortSwitch", "vector_size", vector_size)
        self.declare_abstract_input_port("port_selector", Value(0))
        self.declare_vector_output_port("value", self._n, self._calc_value,
                                        [self.all_input_ports_ticket()])

    def get_port_selector_input_port(self):
        return self.get_input_port(0)

    def declare_input_port(self, name):
        """Add a switched input port named ``name`` (size ``vector_size``) and return it."""
        return self.declare_vector_input_port(name, self._n)

    def _calc_value(self, context, output):
        index = self.get_input_port(0).eval(context)
        if (isinstance(index, bool) or not isinstance(index, numbers.Integral)
                or not 1 <= int(index) < self.num_input_ports()):
            raise PortError(
                f"PortSwitch: system '{self.get_name()}' got port_selector = {index!r}; "
                f"expected the index of a switched input, 1 .. {self.num_input_ports() - 1}")
        output.set_value(copy.copy(self.get_input_port(int(index)).eval(context)))
