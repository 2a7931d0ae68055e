"""Factorizations of quadratic forms (Drake's DecomposePSDmatrixIntoXtransposeTimesX,
DecomposePositiveQuadraticForm and BalanceQuadraticForms).
"""

import numpy as np

__all__ = [
    "balance_quadratic_forms", "decompose_positive_quadratic_form",
    "decompose_psd_matrix_into_x_transpose_times_x",
]


def decompose_psd_matrix_into_x_transpose_times_x(Y, zero_tol, return_empty_if_not_psd=False):
    """X with XᵀX = Y and rank(Y) rows, for symmetric positive semidefinite Y.

    Built from the eigendecomposition Y = V Λ Vᵀ as X = Λ^½ Vᵀ over the eigenvalues
    above ``zero_tol`` (only the lower triangle of Y is read).

    Parameters
    ----------
    Y : array_like, shape (n, n)
    zero_tol : float, >= 0
        Eigenvalues below it count as zero; one below −zero_tol means Y is not PSD.
    return_empty_if_not_psd : bool
        Return an empty (0, n) matrix instead of raising when Y is not PSD.

    Returns
    -------
    X : ndarray, shape (rank, n)
    """
    fn = "decompose_psd_matrix_into_x_transpose_times_x"
    if zero_tol < 0:
        raise ValueError(f"{fn}: argument zero_tol: expected >= 0, got {zero_tol!r}")
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    if Y.shape[0] != Y.shape[1]:
        raise ValueError(f"{fn}: argument Y: expected a square matrix, got shape {Y.shape}")
    eigenvalues, V = np.linalg.eigh(Y, UPLO="L")
    if eigenvalues.size and eigenvalues.min() < -zero_tol:
        if return_empty_if_not_psd:
            return np.zeros((0, Y.shape[1]))
        raise RuntimeError(f"{fn}: argument Y: expected positive semidefinite, got minimum "
                           f"eigenvalue {eigenvalues.min():.6g} < -zero_tol = {-zero_tol:g}")
    keep = eigenvalues > zero_tol
    return np.sqrt(eigenvalues[keep])[:, None] * V[:, keep].T


def decompose_positive_quadratic_form(Q, b, c, tol=0.0):
    """(R, d) with xᵀQx + bᵀx + c = (Rx + d)ᵀ(Rx + d) for every x.

    Requires M = [[Q, b/2], [bᵀ/2, c]] positive semidefinite (eigenvalues >= −tol); R and d
    have rank(M) rows (possibly more than Q's).

    Parameters
    ----------
    Q : array_like, shape (n, n)
    b : array_like, shape (n,)
    c : float
    tol : float, >= 0

    Returns
    -------
    R : ndarray, shape (rank(M), n)
    d : ndarray, shape (rank(M),)
    """
    Q = np.atleast_2d(np.asarray(Q, dtype=float))
    n = Q.shape[0]
    b = np.asarray(b, dtype=float).reshape(-1)
    if Q.shape != (n, n) or b.size != n:
        raise ValueError(f"decompose_positive_quadratic_form: arguments Q, b: expected shapes "
                         f"(n, n) and (n,), got {Q.shape} and {b.shape}")
    M = np.empty((n + 1, n + 1))
    M[:n, :n] = 0.5 * (Q + Q.T)
    M[:n, n] = M[n, :n] = 0.5 * b
    M[n, n] = c
    X = decompose_psd_matrix_into_x_transpose_times_x(M, tol)
    return X[:, :n], X[:, n]


def balance_quadratic_forms(S, P):
    """T with TᵀST = D and |TᵀPT| = D⁻¹ (D diagonal), for S positive definite and P
    symmetric full rank ("balanced" coordinates x = Ty).

    With S = LLᵀ, R = L⁻¹ and the SVD RPRᵀ = UΣVᵀ: T = RᵀUΣ^(−1/4), which gives
    TᵀST = Σ^(−1/2) and |TᵀPT| = Σ^(1/2).

    Parameters
    ----------
    S : array_like, shape (n, n)
    P : array_like, shape (n, n)

    Returns
    -------
    T : ndarray, shape (n, n)
    """
    S = np.atleast_2d(np.asarray(S, dtype=float))
    P = np.atleast_2d(np.asarray(P, dtype=float))
    try:
        L = np.linalg.cholesky(S)
    except np.linalg.LinAlgError:
        raise RuntimeError("balance_quadratic_forms: argument S: expected symmetric positive "
                           "definite") from None
    R = np.linalg.inv(L)
    U, sigma, _ = np.linalg.svd(R @ P @ R.T)
    if sigma.min() <= 0:
        raise RuntimeError("balance_quadratic_forms: argument P: expected full rank, got "
                           f"singular values {sigma}")
    return R.T @ U * sigma ** -0.25
