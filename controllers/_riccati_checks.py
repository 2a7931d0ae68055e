"""Checks of LQR problem data (private): shapes, symmetry and definiteness of the costs,
stabilizability and detectability, each failing with the matrix and the condition named.
"""

import numpy as np

from ._validation import as_matrix

_SYMMETRY_TOL = 1e-10


def _scale(M):
    return max(1.0, float(np.max(np.abs(M)))) if M.size else 1.0


def check_symmetric(fn, name, M):
    """Raise unless M = Mᵀ (to 1e-10 relative); returns (M + Mᵀ) / 2."""
    asym = float(np.max(np.abs(M - M.T))) if M.size else 0.0
    if asym > _SYMMETRY_TOL * _scale(M):
        raise ValueError(f"{fn}: {name} must be symmetric, but max |{name} - {name}ᵀ| = "
                         f"{asym:.3g}")
    return 0.5 * (M + M.T)


def check_positive_semidefinite(fn, name, M):
    """Raise unless the symmetric M has no eigenvalue below −1e-10 relative."""
    if not M.size:
        return
    lam = float(np.min(np.linalg.eigvalsh(M)))
    if lam < -_SYMMETRY_TOL * _scale(M):
        raise ValueError(f"{fn}: {name} must be positive semidefinite, but its smallest "
                         f"eigenvalue is {lam:.6g}")


def check_positive_definite(fn, name, M):
    """Raise unless the symmetric M has all eigenvalues > 0; returns its Cholesky factor."""
    lam = float(np.min(np.linalg.eigvalsh(M))) if M.size else 1.0
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        L = None
    if L is None or not lam > 0.0:
        raise ValueError(f"{fn}: {name} must be positive definite, but its smallest eigenvalue "
                         f"is {lam:.6g}")
    return L


def lqr_data(fn, A, B, Q, R, N):
    """Validated (A, B, Q, R, N) as float arrays of matching shapes; N zero when None.

    Returns
    -------
    A (n, n), B (n, m), Q (n, n) symmetric PSD, R (m, m) symmetric PD, N (n, m) or None
    """
    A = as_matrix(fn, "A", A)
    n = A.shape[0]
    if A.shape != (n, n):
        raise ValueError(f"{fn}: A must be square, got shape {A.shape}")
    B = as_matrix(fn, "B", B, (n, None))
    m = B.shape[1]
    if n == 0 or m == 0:
        raise ValueError(f"{fn}: need at least one state and one input, got n = {n}, m = {m}")
    Q = check_symmetric(fn, "Q", as_matrix(fn, "Q", Q, (n, n)))
    R = check_symmetric(fn, "R", as_matrix(fn, "R", R, (m, m)))
    check_positive_semidefinite(fn, "Q", Q)
    check_positive_definite(fn, "R", R)
    if N is not None:
        N = as_matrix(fn, "N", N, (n, m))
        if not np.any(N):
            N = None
    return A, B, Q, R, N


def _nonstable_modes(A, discrete):
    """Eigenvalues of A that are not asymptotically stable (with a small margin)."""
    lam = np.linalg.eigvals(A)
    tol = 1e-9 * _scale(A)
    if discrete:
        return lam[np.abs(lam) >= 1.0 - tol]
    return lam[lam.real >= -tol]


def _rank_deficient(M, n):
    s = np.linalg.svd(M, compute_uv=False)
    return s.size < n or s[n - 1] <= max(M.shape) * np.finfo(float).eps * max(s[0], 1.0) * 10


def _format(lam):
    lam = complex(lam)
    return f"{lam.real:.6g}" if lam.imag == 0.0 else f"{lam.real:.6g}{lam.imag:+.6g}j"


def check_stabilizable(fn, A, B, discrete):
    """PBH test: rank [λI − A, B] = n for every eigenvalue λ of A that is not stable
    (Re λ >= 0, or |λ| >= 1 for a discrete system)."""
    n = A.shape[0]
    for lam in _nonstable_modes(A, discrete):
        if _rank_deficient(np.hstack([lam * np.eye(n) - A, B]), n):
            raise ValueError(
                f"{fn}: (A, B) is not stabilizable: the eigenvalue λ = {_format(lam)} of A "
                f"({'|λ| >= 1' if discrete else 'Re λ >= 0'}) is not controllable "
                f"(rank [λI - A, B] < n = {n})")


def check_detectable(fn, A, Q, discrete, names=("A", "Q")):
    """PBH test: rank [λI − A; Q] = n for every eigenvalue λ of A that is not stable; the
    cost Q (or Q − N R⁻¹ Nᵀ) plays the output matrix. ``names`` name A and Q in errors."""
    n = A.shape[0]
    a_name, q_name = names
    for lam in _nonstable_modes(A, discrete):
        if _rank_deficient(np.vstack([lam * np.eye(n) - A, Q]), n):
            raise ValueError(
                f"{fn}: ({a_name}, {q_name}) is not detectable: the eigenvalue λ = {_format(lam)} "
                f"of {a_name} ({'|λ| >= 1' if discrete else 'Re λ >= 0'}) is not observable "
                f"through the cost (rank [λI - {a_name}; {q_name}] < n = {n}); penalize that "
                f"mode in Q")
