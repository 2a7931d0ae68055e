"""Gain: element-wise scaling of a vector (Drake's Gain)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports
from ._validation import as_size, as_vector


class Gain(LeafSystem):
    """Outputs y = k ⊙ u (element-wise product).

    ::

        u ──▶ ┌──────┐
              │ Gain │ ──▶ y
              └──────┘

    ``y`` is direct feedthrough of ``u``.

    Parameters
    ----------
    k : float or array_like, shape (size,)
        The gain; a scalar applies to every element.
    size : int, optional
        Size of ``u`` and ``y``; required with a scalar ``k`` of a vector system
        (default 1), implied by a vector ``k``.
    """

    @lists_valid_keywords
    def __init__(self, k, size=None):
        super().__init__()
        if size is not None:
            size = as_size("Gain", "size", size)
        elif np.ndim(k) == 0:
            size = 1
        self._k = as_vector("Gain", "k", k, size)
        self._k.flags.writeable = False
        n = self._k.size
        self.declare_vector_input_port("u", n)
        self.declare_vector_output_port("y", n, self._calc_y, [self.input_port_ticket(0)])

    def get_gain(self):
        """The scalar gain; raises if the gains differ between elements."""
        if not np.all(self._k == self._k[0]):
            raise RuntimeError(
                f"Gain.get_gain: system '{self.get_name()}' has a different gain per element "
                f"({self._k.tolist()}); use get_gain_vector()")
        return float(self._k[0])

    def get_gain_vector(self):
        """The gains, shape (size,), read-only."""
        return self._k

    def _calc_y(self, context, output):
        np.multiply(self._k, self.get_input_port(0).eval(context), out=output.get_mutable_value())

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: D = diag(k)."""
        return select_ports(self, feedthrough_matrices(np.diag(self._k)), input_port_index,
                            output_port_index)

    def is_time_invariant_affine(self):
        """Always True: a time-invariant affine block (see ``framework.affine_fusion``)."""
        return True
