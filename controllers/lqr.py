"""Infinite-horizon linear quadratic regulators (Drake's LinearQuadraticRegulator and
DiscreteTimeLinearQuadraticRegulator).

Continuous time: minimize ∫ xᵀQx + uᵀRu + 2xᵀNu dt subject to ẋ = Ax + Bu. The optimal
control is u = −Kx with K = R⁻¹(BᵀS + Nᵀ), S the stabilizing solution of the algebraic
Riccati equation SA + AᵀS − (SB + N)R⁻¹(BᵀS + Nᵀ) + Q = 0, and xᵀSx the optimal
cost-to-go.

Discrete time: minimize Σ x[n]ᵀQx[n] + u[n]ᵀRu[n] + 2x[n]ᵀNu[n] subject to
x[n+1] = Ax[n] + Bu[n]; u = −Kx with K = (R + BᵀSB)⁻¹(BᵀSA + Nᵀ) and S the stabilizing
solution of S = AᵀSA − (AᵀSB + N)(R + BᵀSB)⁻¹(BᵀSA + Nᵀ) + Q.

The Riccati equations are solved by merganser.framework's
``continuous_algebraic_riccati_equation`` / ``discrete_algebraic_riccati_equation``
(scipy.linalg's Schur-vector methods). Before solving, the data are checked: Q symmetric positive
semidefinite, R symmetric positive definite, Q − NR⁻¹Nᵀ positive semidefinite, (A, B)
stabilizable and (A − BR⁻¹Nᵀ, Q − NR⁻¹Nᵀ) detectable; a failed check raises ValueError
naming the matrix and the condition.

References
----------
B. D. O. Anderson and J. B. Moore, *Optimal Control: Linear Quadratic Methods*,
Prentice Hall, 1990, chapters 2-3.
"""

import numpy as np

from merganser.framework import (AffineSystem, Context, LinearSystem, OutputPortSelection, System,
                                 continuous_algebraic_riccati_equation,
                                 discrete_algebraic_riccati_equation, linearize)

from ._riccati_checks import (check_detectable, check_positive_semidefinite,
                              check_stabilizable, lqr_data)


def _solve_lqr(fn, A, B, Q, R, N, discrete):
    """Validated data -> (K (m, n), S (n, n))."""
    A, B, Q, R, N = lqr_data(fn, A, B, Q, R, N)
    check_stabilizable(fn, A, B, discrete)
    if N is None:
        check_detectable(fn, A, Q, discrete)
    else:
        R_inv_Nt = np.linalg.solve(R, N.T)
        Q1 = Q - N @ R_inv_Nt
        Q1 = 0.5 * (Q1 + Q1.T)
        check_positive_semidefinite(fn, "Q - N R⁻¹ Nᵀ", Q1)
        check_detectable(fn, A - B @ R_inv_Nt, Q1, discrete,
                         ("A - B R⁻¹ Nᵀ", "Q - N R⁻¹ Nᵀ"))
    solver = (discrete_algebraic_riccati_equation if discrete
              else continuous_algebraic_riccati_equation)
    try:
        S = solver(A, B, Q, R, N=N)
    except RuntimeError as error:
        raise RuntimeError(f"{fn}: {error}") from None
    cross = 0.0 if N is None else N.T
    if discrete:
        K = np.linalg.solve(R + B.T @ S @ B, B.T @ S @ A + cross)
    else:
        K = np.linalg.solve(R, B.T @ S + cross)
    return K, S


def discrete_time_linear_quadratic_regulator(A, B, Q, R, N=None):
    """The discrete-time LQR gain and cost-to-go (see the module docstring).

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n, m)
    Q : array_like, shape (n, n)
        Symmetric positive semidefinite cost on each x[n].
    R : array_like, shape (m, m)
        Symmetric positive definite cost on each u[n].
    N : array_like, shape (n, m), optional
        Cross cost 2x[n]ᵀNu[n]; zero when None.

    Returns
    -------
    K : ndarray, shape (m, n)
        The optimal feedback u[n] = −K x[n].
    S : ndarray, shape (n, n)
        The optimal cost-to-go x[n]ᵀ S x[n], symmetric positive semidefinite.

    Raises
    ------
    ValueError
        For wrong shapes, a Q or R that is not symmetric / semidefinite / definite, or a
        problem that is not stabilizable or not detectable.
    """
    return _solve_lqr("discrete_time_linear_quadratic_regulator", A, B, Q, R, N, True)


def _lqr_matrices(A, B, Q, R, N=None, F=None):
    fn = "linear_quadratic_regulator"
    if F is None or np.size(F) == 0:
        return _solve_lqr(fn, A, B, Q, R, N, False)
    A, B, Q, R, N = lqr_data(fn, A, B, Q, R, N)
    F = np.atleast_2d(np.asarray(F, dtype=float))
    n = A.shape[0]
    if F.shape[1] != n:
        raise ValueError(f"{fn}: F must have {n} columns (one per state), got shape "
                         f"{F.shape}")
    # Rows of P: an orthonormal basis of the null space of F (P Pᵀ = I, P Fᵀ = 0). The
    # state x = Pᵀy on Fx = 0; solve the LQR of (PAPᵀ, PB, PQPᵀ, R, PN) for y.
    _, sigma, Vt = np.linalg.svd(F)
    rank = int(np.sum(sigma > max(F.shape) * np.finfo(float).eps * (sigma[0] if sigma.size
                                                                     else 0.0)))
    P = Vt[rank:]
    if P.shape[0] == 0:
        raise ValueError(f"{fn}: F has full column rank {n}: no state satisfies F x = 0 "
                         f"other than x = 0")
    K_y, S_y = _solve_lqr(fn, P @ A @ P.T, P @ B, P @ Q @ P.T, R,
                          None if N is None else P @ N, False)
    return K_y @ P, P.T @ S_y @ P


def _lqr_linear_system(system, Q, R, N=None):
    """The controller u = −Kx (a LinearSystem with only D = −K) for a LinearSystem."""
    fn = "linear_quadratic_regulator"
    if not all(hasattr(system, k) for k in ("A", "B", "time_period")):
        raise TypeError(f"{fn}: without a context, system must be a LinearSystem, got "
                        f"{type(system).__name__}; pass (system, context, Q, R) to linearize it")
    discrete = system.time_period() > 0.0
    K, _ = _solve_lqr(fn, system.A(), system.B(), Q, R, N, discrete)
    n, m = K.shape[1], K.shape[0]
    return LinearSystem(np.zeros((0, 0)), np.zeros((0, n)), np.zeros((m, 0)), -K,
                        system.time_period())


def _state_vector(context, discrete):
    if not discrete:
        return np.array(context.get_continuous_state_vector(), dtype=float)
    groups = [context.get_discrete_state(i) for i in range(context.num_discrete_state_groups())]
    return np.concatenate(groups) if groups else np.zeros(0)


def _lqr_system(system, context, Q, R, N=None, input_port_index=0):
    """The affine controller u = u0 − K (x − x0) for ``system`` linearized at ``context``."""
    fn = "linear_quadratic_regulator"
    port = (input_port_index if hasattr(input_port_index, "get_system")
            else system.get_input_port(input_port_index))
    linear = linearize(system, context, input_port_index=port,
                       output_port_index=OutputPortSelection.NO_OUTPUT)
    discrete = linear.time_period() > 0.0
    if linear.num_states() == 0:
        raise ValueError(f"{fn}: system '{system.get_name()}' has no state to regulate")
    K, _ = _solve_lqr(fn, linear.A(), linear.B(), Q, R, N, discrete)
    x0 = _state_vector(context, discrete)
    u0 = np.array(port.eval(context), dtype=float)
    n, m = K.shape[1], K.shape[0]
    controller = AffineSystem(np.zeros((0, 0)), np.zeros((0, n)), np.zeros(0),
                              np.zeros((m, 0)), -K, u0 + K @ x0, linear.time_period())
    controller.set_name(f"lqr_{system.get_name()}")
    return controller


def linear_quadratic_regulator(*args, **kwargs):
    """The continuous-time LQR, in Drake's three forms.

    ``linear_quadratic_regulator(A, B, Q, R, N=None, F=None) -> (K, S)``
        K (m, n) and S (n, n) as in the module docstring: u = −Kx, cost-to-go xᵀSx.
        With F (k, n), the state is restricted to F x = 0 (as in Drake): with P the
        orthonormal basis of F's null space (rows), the LQR of (PAPᵀ, PB, PQPᵀ, R, PN) is
        solved for y = Px, and K = K_y P, S = Pᵀ S_y P.

    ``linear_quadratic_regulator(system, Q, R, N=None) -> LinearSystem``
        For a LinearSystem (continuous or discrete: the regulator of the same kind); the
        result has no state and output u = −Kx (D = −K, input x).

    ``linear_quadratic_regulator(system, context, Q, R, N=None, input_port_index=0)
    -> AffineSystem``
        Linearizes ``system`` (any System with only continuous or only discrete state,
        e.g. a MultibodyPlant at an upright pose) about the equilibrium in ``context``
        with respect to its state and the input ``input_port_index`` (an index, name or
        InputPort, whose value must be fixed in ``context``), and returns the stateless
        controller u = u0 − K (x − x0), i.e. D = −K, y0 = u0 + K x0, with x0 and u0 from
        ``context``. A discrete system gets the discrete-time regulator and a controller
        with the same time period.

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n, m)
    Q : array_like, shape (n, n)
        Symmetric positive semidefinite state cost.
    R : array_like, shape (m, m)
        Symmetric positive definite input cost.
    N : array_like, shape (n, m), optional
        Cross cost 2xᵀNu; zero when None.
    system : System
    context : Context
        A context of ``system`` holding the equilibrium x0 and the input value u0.
    input_port_index : int, str or InputPort

    Raises
    ------
    ValueError
        For wrong shapes, a Q or R that is not symmetric / semidefinite / definite, a
        problem that is not stabilizable or not detectable, or a context that is not an
        equilibrium (from ``linearize``).
    RuntimeError
        If the Riccati solver finds no stabilizing solution.
    """
    first = args[0] if args else kwargs.get("system", kwargs.get("A"))
    if isinstance(first, System):
        second = args[1] if len(args) > 1 else kwargs.get("context")
        if isinstance(second, Context):
            return _lqr_system(*args, **kwargs)
        return _lqr_linear_system(*args, **kwargs)
    return _lqr_matrices(*args, **kwargs)
