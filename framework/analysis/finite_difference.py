"""Central finite-difference Jacobians of a system's dynamics and output.

Each variable z_j of z = [x; u] is perturbed by h_j = ε^(1/3) · max(1, |z_j|) with ε the
float64 machine epsilon (h ≈ 6e-6 for |z_j| <= 1). For central differences this step
balances the truncation error O(h²) against the rounding error O(ε/h), giving about
ε^(2/3) ≈ 4e-11 relative accuracy on smooth dynamics (a √ε step, optimal for one-sided
differences, would leave about √ε ≈ 1.5e-8). The step actually taken is the
representable difference (z_j + h) − (z_j − h).
"""

import numpy as np

STEP_SCALE = np.finfo(float).eps ** (1.0 / 3.0)


def finite_difference_jacobians(op):
    """(A, B, C, D) of the operating point ``op`` by central differences.

    Parameters
    ----------
    op : OperatingPoint

    Returns
    -------
    tuple of ndarray
        A (n, n), B (n, m), C (p, n), D (p, m).
    """
    n, m, p = op.n, op.m, op.p
    z0 = np.concatenate([op.x0, op.u0])
    F = np.zeros((n, n + m))
    G = np.zeros((p, n + m))
    try:
        for j in range(n + m):
            h = STEP_SCALE * max(1.0, abs(z0[j]))
            plus, minus = z0.copy(), z0.copy()
            plus[j] += h
            minus[j] -= h
            f_plus, y_plus = _evaluate(op, plus)
            f_minus, y_minus = _evaluate(op, minus)
            width = plus[j] - minus[j]
            F[:, j] = (f_plus - f_minus) / width
            G[:, j] = (y_plus - y_minus) / width
    finally:
        op.restore()
    return F[:, :n], F[:, n:], G[:, :n], G[:, n:]


def _evaluate(op, z):
    op.set_state(z[:op.n])
    op.set_input(z[op.n:])
    return op.dynamics(), op.output()
