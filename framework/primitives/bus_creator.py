"""BusCreator: packs its input ports into one BusValue output (Drake's BusCreator)."""

from ..bus_value import BusValue
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..ports import ABSTRACT, kUseDefaultName
from ..value import BasicVector, Value


class BusCreator(LeafSystem):
    """One BusValue output holding every input port's value under the port's name.

    ::

        u0 ──▶ ┌────────────┐
        ...    │ BusCreator │ ──▶ bus (BusValue)
        uN ──▶ └────────────┘

    Starts with no inputs: declare them with ``declare_vector_input_port(name, size)``
    and ``declare_abstract_input_port(name, model_value)``. An input that is neither
    connected nor fixed is no error; its signal is left out of the bus. A vector signal
    is a Value holding a BasicVector.

    Parameters
    ----------
    output_port_name : str or kUseDefaultName
        Name of the output port (default ``y0``).
    """

    @lists_valid_keywords
    def __init__(self, output_port_name=kUseDefaultName):
        super().__init__()
        self.declare_abstract_output_port(output_port_name, BusValue, self._calc_bus,
                                          [self.all_input_ports_ticket()])

    @lists_valid_keywords
    def declare_vector_input_port(self, name, size=None, *, model_vector=None):
        """A vector input whose value joins the bus as signal ``name`` (a BasicVector)."""
        return super().declare_vector_input_port(name, size, model_vector=model_vector,
                                                 required=False)

    @lists_valid_keywords
    def declare_abstract_input_port(self, name, model_value):
        """An abstract input whose value joins the bus as signal ``name``."""
        return super().declare_abstract_input_port(name, model_value, required=False)

    def _calc_bus(self, context, output):
        bus = output.get_mutable_value()
        bus.clear()
        for port in self._input_ports:
            if not port.has_value(context):
                continue
            if port.get_data_type() == ABSTRACT:
                bus.set(port.get_name(), port.eval_abstract(context))
            else:
                bus.set(port.get_name(), Value(BasicVector(port.eval(context))))
