"""Multiplexer: stacks its vector inputs into one output (Drake's Multiplexer)."""

import numbers

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports
from ._validation import as_size


class Multiplexer(LeafSystem):
    """Outputs y0 = [u0; u1; ...; uN-1].

    ::

        u0 ───▶ ┌─────────────┐
         ...    │ Multiplexer │ ──▶ y0
        uN-1 ──▶└─────────────┘

    Every input is direct feedthrough to ``y0``.

    Parameters
    ----------
    input_sizes : int or sequence of int
        An int N gives N scalar inputs; a sequence gives one input per entry, of that size.
    num_scalar_inputs : int, optional
        N scalar inputs (pydrake's keyword).
    model_vector : array_like or BasicVector, optional
        One scalar input per element of the model vector (pydrake's keyword).
    sizes : int or sequence of int, optional
        As ``input_sizes`` (the name API.md uses).

    Give exactly one of them.
    """

    @lists_valid_keywords
    def __init__(self, input_sizes=None, *, num_scalar_inputs=None, model_vector=None,
                 sizes=None):
        super().__init__()
        given = [x for x in (input_sizes, num_scalar_inputs, sizes) if x is not None]
        if model_vector is not None:
            model = model_vector.get_value() if hasattr(model_vector, "get_value") else model_vector
            given.append(as_size("Multiplexer", "model_vector size", np.size(model)))
        if len(given) != 1:
            raise TypeError(
                "Multiplexer: give exactly one of input_sizes, num_scalar_inputs, "
                f"model_vector and sizes, got {len(given)}")
        input_sizes = given[0]
        if isinstance(input_sizes, numbers.Integral) and not isinstance(input_sizes, bool):
            sizes = [1] * as_size("Multiplexer", "num_scalar_inputs", input_sizes)
        else:
            sizes = [as_size("Multiplexer", f"input_sizes[{i}]", s)
                     for i, s in enumerate(input_sizes)]
            if not sizes:
                raise ValueError("Multiplexer: input_sizes must not be empty")
        self._sizes = tuple(sizes)
        self._offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
        for i, s in enumerate(sizes):
            self.declare_vector_input_port(f"u{i}", s)
        self.declare_vector_output_port("y0", int(self._offsets[-1]), self._calc_output,
                                        [self.all_input_ports_ticket()])

    def get_input_sizes(self):
        return self._sizes

    def _calc_output(self, context, output):
        y = output.get_mutable_value()
        for i, port in enumerate(self._input_ports):
            y[self._offsets[i]:self._offsets[i + 1]] = port.eval(context)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: D = I."""
        D = np.eye(int(self._offsets[-1]))
        return select_ports(self, feedthrough_matrices(D), input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True
