"""MatrixGain: y = D u, a LinearSystem without state (Drake's MatrixGain)."""

import numbers

import numpy as np

from ..keyword_check import lists_valid_keywords
from .linear_system import LinearSystem


class MatrixGain(LinearSystem):
    """Outputs y = D u.

    ::

        u0 ──▶ ┌────────────┐
               │ MatrixGain │ ──▶ y0
               └────────────┘

    Direct feedthrough when D != 0. ``D()`` returns the matrix.

    Parameters
    ----------
    D : array_like, shape (p, m), or int
        The matrix; an int ``n`` gives the identity of size n.
    """

    @lists_valid_keywords
    def __init__(self, D):
        if isinstance(D, numbers.Integral) and not isinstance(D, bool):
            if D < 1:
                raise ValueError(f"MatrixGain: size must be >= 1, got {D}")
            D = np.eye(int(D))
        D = np.array(D, dtype=float)
        if D.ndim != 2 or D.size == 0:
            raise ValueError(f"MatrixGain: D must be a non-empty 2-D array, got shape {D.shape}")
        p, m = D.shape
        super().__init__(np.zeros((0, 0)), np.zeros((0, m)), np.zeros((p, 0)), D)
