"""BusSelector: unpacks a BusValue input into output ports (Drake's BusSelector)."""

import functools

import numpy as np

from ..bus_value import BusValue
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..ports import kUseDefaultName
from ..value import BasicVector, Value, as_value


class BusSelector(LeafSystem):
    """One output port per signal of a BusValue input, named after the signal.

    ::

        bus (BusValue) ──▶ ┌─────────────┐ ──▶ y0
                           │ BusSelector │ ...
                           └─────────────┘ ──▶ yN

    Starts with no outputs: declare them with ``declare_vector_output_port(name, size)``
    (the signal must hold a BasicVector of that size) and
    ``declare_abstract_output_port(name, model_value)``. Evaluating an output whose
    signal is missing from the bus raises RuntimeError naming the signal and the system.

    Parameters
    ----------
    input_port_name : str or kUseDefaultName
        Name of the input port (default ``u0``).
    """

    @lists_valid_keywords
    def __init__(self, input_port_name=kUseDefaultName):
        super().__init__()
        self.declare_abstract_input_port(input_port_name, Value(BusValue()))

    @lists_valid_keywords
    def declare_vector_output_port(self, name, size):
        """A vector output copying the bus's BasicVector signal of the port's name."""
        return super().declare_vector_output_port(
            name, size, functools.partial(self._calc_vector, self.num_output_ports()),
            [self.all_input_ports_ticket()])

    @lists_valid_keywords
    def declare_abstract_output_port(self, name, model_value):
        """An abstract output copying the bus's signal of the port's name."""
        model = as_value(model_value)
        return super().declare_abstract_output_port(
            name, model.clone, functools.partial(self._calc_abstract, self.num_output_ports()),
            [self.all_input_ports_ticket()])

    def _signal(self, context, index):
        name = self.get_output_port(index).get_name()
        bus = self.get_input_port().eval(context)
        if name not in bus:
            raise RuntimeError(f"BusSelector: missing value for input signal {name!r} on "
                               f"{self.get_system_pathname()}")
        return name, bus.find(name)

    def _calc_vector(self, index, context, output):
        name, value = self._signal(context, index)
        port = self.get_output_port(index)
        if not isinstance(value, BasicVector):
            raise RuntimeError(f"BusSelector: wrong type (non-vector) for input signal "
                               f"{name!r} on {self.get_system_pathname()}: "
                               f"{type(value).__name__}")
        data = np.asarray(value.get_value(), dtype=float)
        if data.size != port.size():
            raise RuntimeError(f"BusSelector: input signal {name!r} on "
                               f"{self.get_system_pathname()} has size {data.size}, output "
                               f"port has size {port.size()}")
        output.set_value(data)

    def _calc_abstract(self, index, context, output):
        _, value = self._signal(context, index)
        output.set_from(Value(value))
