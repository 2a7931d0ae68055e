"""Energy-optimal cubic joint trajectories: minimize ∫ τᵀ W τ dt with τ from inverse
dynamics.

The trajectory q(t) on [0, T] is made of S cubic segments per joint, q_s(τ) = Σ_k c_sk τ^k
in local time τ. The coefficients c satisfy linear equalities: the boundary positions
(and the boundary velocities when given), and continuity of position, velocity and (by
default) acceleration at the interior breaks. Writing c = c_line + N z, with c_line the
straight-line cubic (each joint's single cubic Hermite interpolant of the boundary data,
free boundary velocities taken as 0) and N a basis of the constraints' null space, every
z is feasible, and

    J(z) = ∫₀ᵀ τ(t)ᵀ W τ(t) dt,   τ = M(q) q̈ + C(q, q̇) q̇ - τ_g(q) - τ_elements(q, q̇),

is minimized over z with scipy.optimize.least_squares on the residuals √(w_k) W^½ τ(t_k)
at Gauss-Legendre nodes t_k (weights w_k) of each segment. The search starts at the
straight-line cubic (z = 0), so the result never costs more than it. With a single
segment and both boundary velocities given the cubic is fully determined and returned
as is.
"""

from dataclasses import dataclass

import numpy as np

from merganser.framework import PiecewisePolynomial
from merganser.multibody.plant import MultibodyForces, MultibodyPlant

__all__ = ["EnergyOptimalTrajectoryResult", "calc_trajectory_effort",
           "make_straight_line_cubic_trajectory", "solve_energy_optimal_cubic_trajectory"]


@dataclass
class EnergyOptimalTrajectoryResult:
    """Outcome of `solve_energy_optimal_cubic_trajectory`.

    Attributes
    ----------
    trajectory : PiecewisePolynomial
        q(t), (nq, 1) values, cubic on each segment.
    coefficients : ndarray, shape (num_segments, 4, nq)
        c_sk per segment and joint (local time).
    effort : float
        ∫ τᵀ W τ dt of `trajectory` (N²·m²·s for revolute joints).
    straight_line_effort : float
        The same integral for the straight-line cubic (the initial guess).
    success : bool
    num_free_coefficients : int
        Free coefficients per joint after the equality constraints.
    message : str
    """

    trajectory: PiecewisePolynomial
    coefficients: np.ndarray
    effort: float
    straight_line_effort: float
    success: bool
    num_free_coefficients: int
    message: str


def _vector(fn, arg, value, n):
    try:
        a = np.array(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                        f"{type(value).__name__}") from None
    if a.size == 1 and n > 1:
        a = np.full(n, a[0])
    if a.shape != (n,) or not np.all(np.isfinite(a)):
        raise ValueError(f"{fn}: {arg} must be finite with size {n}, got {value!r}")
    return a


def _duration(fn, duration):
    try:
        T = float(duration)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: duration must be a number, got "
                        f"{type(duration).__name__}") from None
    if not (np.isfinite(T) and T > 0.0):
        raise ValueError(f"{fn}: duration must be finite and > 0, got {duration!r}")
    return T


def _hermite(q0, v0, qf, vf, T):
    """Coefficients (4, n) of the cubic with q(0) = q0, q̇(0) = v0, q(T) = qf, q̇(T) = vf."""
    d = qf - q0
    return np.array([q0, v0, (3.0 * d - (2.0 * v0 + vf) * T) / T**2,
                     (-2.0 * d + (v0 + vf) * T) / T**3])


def make_straight_line_cubic_trajectory(q_start, q_end, duration, v_start=0.0, v_end=0.0):
    """The cubic q(t) (one segment, per joint) with the given boundary positions and
    velocities; with zero velocities it moves along the straight line in joint space.

    Returns
    -------
    PiecewisePolynomial
        (n, 1) values on [0, duration].
    """
    fn = "make_straight_line_cubic_trajectory"
    q0 = np.array(q_start, dtype=np.float64).reshape(-1)
    n = q0.size
    qf = _vector(fn, "q_end", q_end, n)
    v0, vf = _vector(fn, "v_start", v_start, n), _vector(fn, "v_end", v_end, n)
    T = _duration(fn, duration)
    return PiecewisePolynomial.from_coefficients([0.0, T], _hermite(q0, v0, qf, vf, T)[
        None, :, :, None])


def _check_plant(fn, plant):
    if not isinstance(plant, MultibodyPlant):
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got {type(plant).__name__}")
    if plant.num_positions() != plant.num_velocities():
        raise ValueError(f"{fn}: needs q̇ = v (nq == nv), got nq = {plant.num_positions()}, "
                         f"nv = {plant.num_velocities()} (quaternion joints are not supported)")


def _weights(fn, weights, nv):
    if weights is None:
        return np.ones(nv)
    w = _vector(fn, "weights", weights, nv)
    if np.any(w < 0.0):
        raise ValueError(f"{fn}: weights must be >= 0, got {w}")
    return w


def _work_context(plant, context):
    ctx = plant.create_default_context()
    if context is not None:
        ctx.set_time_state_and_parameters_from(plant.get_my_context_from_root(context))
    return ctx


class _InverseDynamics:
    """τ(q, q̇, q̈) (nv,) including gravity, force elements and joint damping."""

    def __init__(self, plant, ctx):
        self._plant, self._ctx = plant, ctx
        self._forces = MultibodyForces(plant)

    def __call__(self, q, v, vdot):
        plant, ctx = self._plant, self._ctx
        plant.set_positions_and_velocities(ctx, np.concatenate([q, v]))
        plant.calc_force_elements_contribution(ctx, self._forces)
        return plant.calc_inverse_dynamics(ctx, vdot, self._forces)


def calc_trajectory_effort(plant, trajectory, *, context=None, weights=None,
                           num_quadrature_points=8):
    """∫ τᵀ W τ dt along a joint trajectory, τ from inverse dynamics (gravity, force
    elements and joint damping included), by Gauss-Legendre quadrature on each segment.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant with nq == nv.
    trajectory : Trajectory
        q(t), (nq, 1) values, twice differentiable (``eval_derivative``).
    context : Context, optional
        Supplies the body parameters; not modified.
    weights : array_like, shape (nv,), optional
        Diagonal of W (ones by default; zeros drop, e.g., unactuated coordinates).
    num_quadrature_points : int
        Nodes per segment.

    Returns
    -------
    float
    """
    fn = "calc_trajectory_effort"
    _check_plant(fn, plant)
    w = _weights(fn, weights, plant.num_velocities())
    if trajectory.rows() != plant.num_positions():
        raise ValueError(f"{fn}: trajectory has {trajectory.rows()} rows, expected nq = "
                         f"{plant.num_positions()}")
    tau = _InverseDynamics(plant, _work_context(plant, context))
    x, wq = np.polynomial.legendre.leggauss(int(num_quadrature_points))
    breaks = (trajectory.get_segment_times() if hasattr(trajectory, "get_segment_times")
              else [trajectory.start_time(), trajectory.end_time()])
    total = 0.0
    for t0, t1 in zip(breaks[:-1], breaks[1:]):
        for xi, wi in zip(x, wq):
            t = 0.5 * (t0 + t1) + 0.5 * (t1 - t0) * xi
            u = tau(trajectory.value(t)[:, 0], trajectory.eval_derivative(t, 1)[:, 0],
                    trajectory.eval_derivative(t, 2)[:, 0])
            total += 0.5 * (t1 - t0) * wi * float(u @ (w * u))
    return total


def _constraint_matrix(S, h, has_v0, has_vf, c2):
    """Rows of A (·, 4 S) acting on one joint's stacked coefficients [c_0; ...; c_{S-1}]."""
    pos = np.array([1.0, h, h**2, h**3])
    vel = np.array([0.0, 1.0, 2.0 * h, 3.0 * h**2])
    acc = np.array([0.0, 0.0, 2.0, 6.0 * h])
    rows = []

    def row(entries):
        r = np.zeros(4 * S)
        for (s, k), value in entries:
            r[4 * s + k] += value
        return r

    rows.append(row([((0, 0), 1.0)]))
    if has_v0:
        rows.append(row([((0, 1), 1.0)]))
    rows.append(row([((S - 1, k), pos[k]) for k in range(4)]))
    if has_vf:
        rows.append(row([((S - 1, k), vel[k]) for k in range(4)]))
    for s in range(S - 1):
        rows.append(row([((s, k), pos[k]) for k in range(4)] + [((s + 1, 0), -1.0)]))
        rows.append(row([((s, k), vel[k]) for k in range(4)] + [((s + 1, 1), -1.0)]))
        if c2:
            rows.append(row([((s, k), acc[k]) for k in range(4)] + [((s + 1, 2), -2.0)]))
    return np.array(rows)


def _split_line(line, S, h):
    """Coefficients (4 S, n) of the single cubic `line` (4, n) re-expanded per segment."""
    out = np.zeros((4 * S, line.shape[1]))
    for s in range(S):
        t0 = s * h
        # q(t0 + τ) = Σ_k c_k (t0 + τ)^k, expanded in powers of τ.
        c = line
        out[4 * s + 0] = c[0] + c[1] * t0 + c[2] * t0**2 + c[3] * t0**3
        out[4 * s + 1] = c[1] + 2.0 * c[2] * t0 + 3.0 * c[3] * t0**2
        out[4 * s + 2] = c[2] + 3.0 * c[3] * t0
        out[4 * s + 3] = c[3]
    return out


def _basis(S, h, nodes):
    """Position, velocity and acceleration rows (K, 4 S) at Gauss nodes (local, [0, h])."""
    K = S * len(nodes)
    B = np.zeros((3, K, 4 * S))
    for s in range(S):
        for j, tau in enumerate(nodes):
            k = s * len(nodes) + j
            B[0, k, 4 * s:4 * s + 4] = [1.0, tau, tau**2, tau**3]
            B[1, k, 4 * s:4 * s + 4] = [0.0, 1.0, 2.0 * tau, 3.0 * tau**2]
            B[2, k, 4 * s:4 * s + 4] = [0.0, 0.0, 2.0, 6.0 * tau]
    return B


def solve_energy_optimal_cubic_trajectory(plant, q_start, q_end, duration, *, v_start=0.0,
                                          v_end=0.0, num_segments=1,
                                          continuous_acceleration=True, context=None,
                                          weights=None, num_quadrature_points=8,
                                          max_iterations=200):
    """Cubic joint trajectory from q_start to q_end minimizing ∫ τᵀ W τ dt.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant with nq == nv.
    q_start, q_end : array_like, shape (nq,)
        Boundary positions.
    duration : float
        T (s).
    v_start, v_end : array_like (nq,), float or None
        Boundary velocities; None leaves them free (optimized).
    num_segments : int
        S cubic segments of equal duration; interior breaks are free.
    continuous_acceleration : bool
        Require continuous q̈ at the interior breaks (else only q and q̇).
    context : Context, optional
        Supplies body parameters; not modified.
    weights : array_like, shape (nv,), optional
        Diagonal of W.
    num_quadrature_points : int
        Gauss-Legendre nodes per segment.
    max_iterations : int
        Largest number of residual evaluations by the optimizer (those made for its
        finite-difference Jacobians are not counted).

    Returns
    -------
    EnergyOptimalTrajectoryResult
    """
    from scipy.optimize import least_squares

    from scipy.linalg import null_space

    fn = "solve_energy_optimal_cubic_trajectory"
    _check_plant(fn, plant)
    n = plant.num_positions()
    q0, qf = _vector(fn, "q_start", q_start, n), _vector(fn, "q_end", q_end, n)
    T = _duration(fn, duration)
    v0 = None if v_start is None else _vector(fn, "v_start", v_start, n)
    vf = None if v_end is None else _vector(fn, "v_end", v_end, n)
    S = int(num_segments)
    if S != num_segments or S < 1:
        raise ValueError(f"{fn}: num_segments must be an integer >= 1, got {num_segments!r}")
    w = _weights(fn, weights, n)
    h = T / S
    A = _constraint_matrix(S, h, v0 is not None, vf is not None, continuous_acceleration)
    N = null_space(A)
    line = _hermite(q0, np.zeros(n) if v0 is None else v0, qf,
                    np.zeros(n) if vf is None else vf, T)
    C_line = _split_line(line, S, h)
    nodes, node_weights = np.polynomial.legendre.leggauss(int(num_quadrature_points))
    B = _basis(S, h, 0.5 * h * (nodes + 1.0))
    sqrt_w = np.sqrt(np.tile(0.5 * h * node_weights, S))[:, None] * np.sqrt(w)[None, :]
    tau = _InverseDynamics(plant, _work_context(plant, context))
    f = N.shape[1]

    def coefficients(z):
        return C_line + N @ z.reshape(f, n)

    def residuals(z):
        C = coefficients(z)
        Q, V, Vd = B[0] @ C, B[1] @ C, B[2] @ C
        r = np.empty_like(Q)
        for k in range(len(Q)):
            r[k] = tau(Q[k], V[k], Vd[k])
        return (sqrt_w * r).ravel()

    z0 = np.zeros(f * n)
    r0 = residuals(z0)
    line_effort = float(r0 @ r0)
    if f == 0:
        z, success, message = z0, True, "no free coefficients: the cubic is determined by " \
                                        "the boundary conditions"
    else:
        res = least_squares(residuals, z0, method="trf", x_scale="jac", ftol=1e-12,
                            xtol=1e-12, gtol=1e-12, max_nfev=int(max_iterations))
        z, success, message = res.x, bool(res.status > 0), f"scipy least_squares: {res.message}"
        if res.cost * 2.0 > line_effort:
            z = z0
    r = residuals(z)
    C = coefficients(z).reshape(S, 4, n)
    trajectory = PiecewisePolynomial.from_coefficients(np.linspace(0.0, T, S + 1),
                                                       C[:, :, :, None])
    return EnergyOptimalTrajectoryResult(
        trajectory=trajectory, coefficients=C, effort=float(r @ r),
        straight_line_effort=line_effort, success=success, num_free_coefficients=f,
        message=message)
