"""Adder: the element-wise sum of its vector inputs (Drake's Adder)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports
from ._validation import as_size


class Adder(LeafSystem):
    """Outputs the sum of ``num_inputs`` vectors of size ``size``.

    ::

        u0 ───▶ ┌───────┐
         ...    │ Adder │ ──▶ sum
        uN-1 ──▶└───────┘

    Every input is direct feedthrough to ``sum``.

    Parameters
    ----------
    num_inputs : int
        Number of input ports (>= 0), named ``u0`` ... ``u{num_inputs-1}``; with none the
        output is zero (as in Drake).
    size : int
        Size of each input and of the output (>= 0).
    """

    @lists_valid_keywords
    def __init__(self, num_inputs, size):
        super().__init__()
        num_inputs = as_size("Adder", "num_inputs", num_inputs, 0)
        self._size = as_size("Adder", "size", size, 0)
        for i in range(num_inputs):
            self.declare_vector_input_port(f"u{i}", self._size)
        self.declare_vector_output_port("sum", self._size, self._calc_sum,
                                        [self.all_input_ports_ticket()])

    def _calc_sum(self, context, output):
        total = output.get_mutable_value()
        ports = self._input_ports
        if not ports:
            total.fill(0.0)
            return
        if len(ports) == 1:
            np.copyto(total, ports[0].eval(context))
            return
        np.add(ports[0].eval(context), ports[1].eval(context), out=total)
        for k in range(2, len(ports)):
            total += ports[k].eval(context)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: D = [I I ... I]."""
        D = np.tile(np.eye(self._size), (1, self.num_input_ports()))
        return select_ports(self, feedthrough_matrices(D), input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True
