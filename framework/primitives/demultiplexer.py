"""Demultiplexer: splits a vector input into several outputs (Drake's Demultiplexer)."""

import numbers

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports
from ._validation import as_size


class Demultiplexer(LeafSystem):
    """Splits u0 into consecutive pieces y0, y1, ..., yN-1.

    ::

                   ┌───────────────┐ ──▶ y0
        u0 ──────▶ │ Demultiplexer │  ...
                   └───────────────┘ ──▶ yN-1

    Each output is direct feedthrough of ``u0``.

    Parameters
    ----------
    output_ports_sizes : int or sequence of int
        A sequence gives the size of each output. An int is the input size, split into
        ``output_ports_size`` equal outputs.
    output_ports_size : int
        Size of every output when the first argument is an int (default 1).
    size : int, optional
        The input size, split into ``output_ports_size`` outputs (pydrake's keyword).
    sizes : sequence of int, optional
        As ``output_ports_sizes`` (the name API.md uses).

    Give exactly one of ``output_ports_sizes``, ``size`` and ``sizes``.
    """

    @lists_valid_keywords
    def __init__(self, output_ports_sizes=None, output_ports_size=1, *, size=None, sizes=None):
        super().__init__()
        given = [x for x in (output_ports_sizes, size, sizes) if x is not None]
        if len(given) != 1:
            raise TypeError(
                "Demultiplexer: give exactly one of output_ports_sizes, size and sizes, got "
                f"{len(given)}")
        sizes_arg = given[0]
        if isinstance(sizes_arg, numbers.Integral) and not isinstance(sizes_arg, bool):
            size = as_size("Demultiplexer", "size", sizes_arg)
            each = as_size("Demultiplexer", "output_ports_size", output_ports_size)
            if size % each:
                raise ValueError(
                    f"Demultiplexer: size {size} is not a multiple of output_ports_size {each}")
            sizes = [each] * (size // each)
        else:
            sizes = [as_size("Demultiplexer", f"output_ports_sizes[{i}]", s)
                     for i, s in enumerate(sizes_arg)]
            if not sizes:
                raise ValueError("Demultiplexer: output_ports_sizes must not be empty")
        self._sizes = tuple(sizes)
        self._offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
        self.declare_vector_input_port("u0", int(self._offsets[-1]))
        for i, s in enumerate(sizes):
            self.declare_vector_output_port(f"y{i}", s, _Piece(self, i),
                                            [self.input_port_ticket(0)])

    def get_output_ports_sizes(self):
        return self._sizes

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: D = I (outputs concatenated = input)."""
        D = np.eye(int(self._offsets[-1]))
        return select_ports(self, feedthrough_matrices(D), input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True


class _Piece:
    """Picklable calc of output ``i``: copies its slice of the input."""

    def __init__(self, system, i):
        self.system = system
        self.i = i

    def __call__(self, context, output):
        s = self.system
        u = s.get_input_port(0).eval(context)
        output.set_value(u[s._offsets[self.i]:s._offsets[self.i + 1]])
