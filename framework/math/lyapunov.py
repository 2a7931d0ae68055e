"""Real Lyapunov equations (Drake's RealContinuousLyapunovEquation and
RealDiscreteLyapunovEquation), solved by scipy.linalg (Bartels-Stewart).

Continuous: AᵀX + XA + Q = 0. Discrete: AᵀXA − X + Q = 0.
"""

import numpy as np

__all__ = ["real_continuous_lyapunov_equation", "real_discrete_lyapunov_equation"]


def _data(fn, A, Q):
    A = np.atleast_2d(np.asarray(A, dtype=float))
    Q = np.atleast_2d(np.asarray(Q, dtype=float))
    if A.ndim != 2 or A.shape[0] != A.shape[1] or Q.shape != A.shape:
        raise ValueError(f"{fn}: arguments A, Q: expected square matrices of one shape, "
                         f"got {A.shape} and {Q.shape}")
    return A, Q


def real_continuous_lyapunov_equation(A, Q):
    """X (n, n) with AᵀX + XA + Q = 0; A, Q shape (n, n)."""
    import scipy.linalg

    A, Q = _data("real_continuous_lyapunov_equation", A, Q)
    return scipy.linalg.solve_continuous_lyapunov(A.T, -Q)


def real_discrete_lyapunov_equation(A, Q):
    """X (n, n) with AᵀXA − X + Q = 0; A, Q shape (n, n)."""
    import scipy.linalg

    A, Q = _data("real_discrete_lyapunov_equation", A, Q)
    return scipy.linalg.solve_discrete_lyapunov(A.T, Q)
