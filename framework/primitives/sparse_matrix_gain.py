"""SparseMatrixGain: y = D u with a scipy sparse D (Drake's SparseMatrixGain)."""

import scipy.sparse

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports


def _as_sparse(fn, D):
    try:
        D = scipy.sparse.csc_matrix(D, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{fn}: D must be a 2-D matrix (scipy.sparse or array_like), got "
                        f"{type(D).__name__}: {exc}") from None
    return D


class SparseMatrixGain(LeafSystem):
    """Outputs y = D u, D stored sparse (CSC).

    ::

        u ──▶ ┌──────────────────┐
              │ SparseMatrixGain │ ──▶ y
              └──────────────────┘

    ``y`` is direct feedthrough of ``u``. Either dimension of D may be 0.

    Parameters
    ----------
    D : scipy.sparse matrix or array_like, shape (p, m)
        The gain matrix.
    """

    @lists_valid_keywords
    def __init__(self, D):
        super().__init__()
        self._D = _as_sparse("SparseMatrixGain", D)
        p, m = self._D.shape
        self.declare_vector_input_port("u", m)
        self.declare_vector_output_port("y", p, self._calc_y, [self.input_port_ticket(0)])

    def D(self):
        """The gain matrix, a scipy.sparse.csc_matrix of shape (p, m)."""
        return self._D

    def set_D(self, D):
        """Replace the gain matrix by one of the same shape (p, m)."""
        D = _as_sparse("SparseMatrixGain.set_D", D)
        if D.shape != self._D.shape:
            raise ValueError(f"SparseMatrixGain.set_D: D must have shape {self._D.shape}, got "
                             f"{D.shape} in system '{self.get_name()}'")
        self._D = D

    def _calc_y(self, context, output):
        output.get_mutable_value()[:] = self._D @ self.get_input_port(0).eval(context)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: the feedthrough D (dense)."""
        return select_ports(self, feedthrough_matrices(self._D.toarray()), input_port_index,
                            output_port_index)
