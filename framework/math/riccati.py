"""Algebraic Riccati equations (Drake's ContinuousAlgebraicRiccatiEquation and
DiscreteAlgebraicRiccatiEquation), solved by scipy.linalg's Schur-vector methods.

Continuous: SA + AᵀS − (SB + N)R⁻¹(BᵀS + Nᵀ) + Q = 0.
Discrete: AᵀSA − S − (AᵀSB + N)(BᵀSB + R)⁻¹(BᵀSA + Nᵀ) + Q = 0.
N (the cross term, zero by default) is an extension over Drake's signatures; the LQR
controllers use it. The stabilizing solution S (n, n) is returned, symmetrized.
"""

import numpy as np

from merganser.framework.math.matrix_util import is_positive_definite

__all__ = ["continuous_algebraic_riccati_equation", "discrete_algebraic_riccati_equation"]


def _solve(fn, A, B, Q, R, N, discrete):
    import scipy.linalg

    A = np.atleast_2d(np.asarray(A, dtype=float))
    n = A.shape[0]
    B = np.asarray(B, dtype=float).reshape(n, -1)
    m = B.shape[1]
    Q = np.atleast_2d(np.asarray(Q, dtype=float))
    R = np.atleast_2d(np.asarray(R, dtype=float))
    for name, M, shape in (("A", A, (n, n)), ("Q", Q, (n, n)), ("R", R, (m, m))):
        if M.shape != shape:
            raise ValueError(f"{fn}: argument {name}: expected shape {shape}, got {M.shape}")
    if N is not None:
        N = np.asarray(N, dtype=float).reshape(n, m)
    if not is_positive_definite(R, 1e-14 if discrete else np.finfo(float).eps,
                                1e-10 * max(1.0, np.abs(R).max())):
        raise RuntimeError(f"{fn}: argument R: expected symmetric positive definite, got {R}")
    solver = scipy.linalg.solve_discrete_are if discrete else scipy.linalg.solve_continuous_are
    try:
        S = solver(A, B, Q, R, s=N)
    except (np.linalg.LinAlgError, ValueError) as error:
        raise RuntimeError(f"{fn}: the Riccati equation has no stabilizing solution "
                           f"(scipy: {error})") from None
    return 0.5 * (S + S.T)


def continuous_algebraic_riccati_equation(A, B, Q, R, N=None):
    """The stabilizing S (n, n) of SA + AᵀS − (SB + N)R⁻¹(BᵀS + Nᵀ) + Q = 0.

    A (n, n), B (n, m), Q (n, n), R (m, m) symmetric positive definite (RuntimeError
    otherwise), N (n, m) or None; RuntimeError when no stabilizing solution exists.
    """
    return _solve("continuous_algebraic_riccati_equation", A, B, Q, R, N, False)


def discrete_algebraic_riccati_equation(A, B, Q, R, N=None):
    """The stabilizing S (n, n) of AᵀSA − S − (AᵀSB + N)(BᵀSB + R)⁻¹(BᵀSA + Nᵀ) + Q = 0.

    Shapes and errors as for continuous_algebraic_riccati_equation.
    """
    return _solve("discrete_algebraic_riccati_equation", A, B, Q, R, N, True)
