"""Small matrix predicates and reshapes (Drake's math/matrix_util.h and cross_product.h)."""

import numpy as np

__all__ = [
    "extract_principal_submatrix", "is_positive_definite", "is_symmetric",
    "to_lower_triangular_columns_from_matrix",
    "to_symmetric_matrix_from_lower_triangular_columns", "vector_to_skew_symmetric",
]


def _square(fn, matrix):
    M = np.asarray(matrix)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"{fn}: argument matrix: expected a square matrix, got shape {M.shape}")
    return M


def is_symmetric(matrix, precision=None):
    """Whether |M[i, j] − M[j, i]| <= precision for all i, j (exact equality when None).

    Parameters
    ----------
    matrix : array_like, shape (n, m)
        A non-square matrix is not symmetric.
    precision : float, optional
        Absolute tolerance; must be finite.
    """
    M = np.asarray(matrix)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        return False
    if precision is None:
        return bool(np.array_equal(M, M.T))
    if not np.isfinite(precision):
        raise ValueError(f"is_symmetric: argument precision: expected a finite number, "
                         f"got {precision!r}")
    return bool(np.all(np.abs(M - M.T) <= precision))


def is_positive_definite(matrix, tolerance=0.0, symmetry_tolerance=0.0):
    """Whether M is symmetric (within symmetry_tolerance) with every eigenvalue
    >= tolerance · max(1, max |eigenvalue|); tolerance 0 tests positive semidefiniteness.

    Parameters
    ----------
    matrix : array_like, shape (n, n)
    tolerance : float, >= 0
    symmetry_tolerance : float, >= 0
    """
    if tolerance < 0 or symmetry_tolerance < 0:
        raise ValueError(f"is_positive_definite: arguments tolerance, symmetry_tolerance: "
                         f"expected >= 0, got {tolerance!r}, {symmetry_tolerance!r}")
    M = _square("is_positive_definite", matrix).astype(float)
    if not is_symmetric(M, symmetry_tolerance):
        return False
    eig = np.linalg.eigvalsh(M)
    return bool(eig.min() >= tolerance * max(1.0, np.abs(eig).max()))


def to_lower_triangular_columns_from_matrix(matrix):
    """The lower triangle of a square matrix, stacked column by column; shape (n(n+1)/2,)."""
    M = _square("to_lower_triangular_columns_from_matrix", matrix)
    return np.concatenate([M[j:, j] for j in range(M.shape[0])])


def to_symmetric_matrix_from_lower_triangular_columns(lower_triangular_columns):
    """The symmetric (n, n) matrix whose lower triangle, stacked by columns, is the input.

    Parameters
    ----------
    lower_triangular_columns : array_like, shape (n(n+1)/2,)
    """
    c = np.asarray(lower_triangular_columns).reshape(-1)
    n = int(round((np.sqrt(1 + 8 * c.size) - 1) / 2))
    if n * (n + 1) // 2 != c.size:
        raise ValueError(f"to_symmetric_matrix_from_lower_triangular_columns: argument "
                         f"lower_triangular_columns: expected n(n+1)/2 entries, got {c.size}")
    M = np.zeros((n, n), dtype=c.dtype)
    rows, cols = np.tril_indices(n)
    order = np.lexsort((rows, cols))        # column-major order of the lower triangle
    M[rows[order], cols[order]] = c
    M[cols[order], rows[order]] = c
    return M


def extract_principal_submatrix(matrix, indices):
    """The rows and columns of ``matrix`` at the sorted ``indices``; shape (k, k).

    Parameters
    ----------
    matrix : array_like, shape (n, n)
    indices : set of int
        Distinct indices in [0, n).
    """
    M = _square("extract_principal_submatrix", matrix)
    idx = sorted(indices)
    if idx and (idx[0] < 0 or idx[-1] >= M.shape[0]):
        raise ValueError(f"extract_principal_submatrix: argument indices: expected values in "
                         f"[0, {M.shape[0]}), got {idx}")
    return M[np.ix_(idx, idx)]


def vector_to_skew_symmetric(p):
    """The (3, 3) matrix [p]× with [p]× v = p × v for every v; p shape (3,)."""
    p = np.asarray(p).reshape(-1)
    if p.size != 3:
        raise ValueError(f"vector_to_skew_symmetric: argument p: expected 3 entries, "
                         f"got {p.size}")
    return np.array([[0 * p[0], -p[2], p[1]], [p[2], 0 * p[0], -p[0]],
                     [-p[1], p[0], 0 * p[0]]])
