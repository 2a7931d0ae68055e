"""Finite-horizon LQR about a nominal trajectory (Drake's
FiniteHorizonLinearQuadraticRegulator and MakeFiniteHorizonLinearQuadraticRegulator).

For a continuous-time system ẋ = f(t, x, u), linearized about a nominal (x₀(t), u₀(t)),
x̄ = x − x₀(t), ū = u − u₀(t)::

    d x̄/dt = A(t) x̄ + B(t) ū + c(t),   c(t) = f(t, x₀, u₀) − ẋ₀(t)

the regulator minimizes, over [t0, tf], with x̄_d = x_d − x₀ and ū_d = u_d − u₀ (the
desired trajectories default to the nominal ones)::

    (x̄ − x̄_d)ᵀQ_f(x̄ − x̄_d) at tf + ∫ (x̄ − x̄_d)ᵀQ(x̄ − x̄_d) + (ū − ū_d)ᵀR(ū − ū_d)
                                     + 2 (x̄ − x̄_d)ᵀN(ū − ū_d) dt

The cost-to-go is J(x̄, t) = x̄ᵀS x̄ + 2 x̄ᵀs_x + s₀ and the optimal control
u = u₀(t) − K(t) x̄ − k₀(t), with K = R⁻¹(BᵀS + Nᵀ), k₀ = R⁻¹(Bᵀs_x − R ū_d − Nᵀx̄_d),
where S, s_x, s₀ solve the Riccati differential equations, backward from
S(tf) = Q_f, s_x(tf) = −Q_f x̄_d(tf), s₀(tf) = x̄_d(tf)ᵀQ_f x̄_d(tf)::

    −Ṡ   = Q + SA + AᵀS − KᵀRK
    −ṡ_x = −Q x̄_d − N ū_d + S c + Aᵀs_x − KᵀR k₀
    −ṡ₀  = x̄_dᵀQ x̄_d + ū_dᵀR ū_d + 2 x̄_dᵀN ū_d + 2 s_xᵀc − k₀ᵀR k₀

(derived from the Hamilton-Jacobi-Bellman equation with the quadratic J). They are
integrated backward in time with ``scipy.integrate.solve_ivp``. S, s_x and s₀ are returned
as cubic Hermite PiecewisePolynomials through the solver's steps and their midpoints
(with their exact derivatives from the equations above); K and k₀ as cubic splines
through the same times. Only continuous-time systems are supported.

References
----------
B. D. O. Anderson and J. B. Moore, *Optimal Control: Linear Quadratic Methods*,
Prentice Hall, 1990, chapter 2; R. Tedrake, *Underactuated Robotics*, chapter "Linear
Quadratic Regulators", finite-horizon and trajectory-tracking formulations.
"""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from merganser.framework import (Context, InputPortSelection, OutputPortSelection,
                                 PiecewisePolynomial, SimulatorConfig,
                                 first_order_taylor_approximation)

from ._riccati_checks import (check_positive_definite, check_positive_semidefinite,
                              check_symmetric)
from ._validation import as_matrix
from .finite_horizon_lqr_controller import FiniteHorizonLqrController

_FN = "finite_horizon_linear_quadratic_regulator"


@dataclass
class FiniteHorizonLinearQuadraticRegulatorOptions:
    """Optional arguments of `finite_horizon_linear_quadratic_regulator`.

    Attributes
    ----------
    Qf : array_like (n, n) or None
        Final cost, symmetric positive semidefinite; zero when None.
    N : array_like (n, m) or None
        Cross cost; zero when None.
    x0, u0 : Trajectory or None
        Nominal state (n, 1) and input (m, 1) trajectories to linearize about, defined
        over [t0, tf]; constants from the context when None.
    xd, ud : Trajectory or None
        Desired trajectories in the cost; x0 and u0 when None.
    input_port_index : int, str, InputPort or InputPortSelection
        The input u of the system (default ``InputPortSelection.kUseFirstInputIfItExists``:
        input 0).
    use_square_root_method : bool
        Drake's option to integrate a Cholesky factor of S instead of S. Accepted for
        pydrake scripts; merganser integrates S itself either way (the same solution in
        exact arithmetic; the square-root form only guards the positive definiteness of S
        against round-off).
    simulator_config : SimulatorConfig
        Its ``max_step_size`` bounds the steps of the backward integration (as in Drake).
    rtol, atol : float
        Tolerances of ``solve_ivp`` on the Riccati equations.
    method : str
        The ``solve_ivp`` method ("RK45", "DOP853", "Radau", ...).
    """

    Qf: Any = None
    N: Any = None
    x0: Any = None
    u0: Any = None
    xd: Any = None
    ud: Any = None
    input_port_index: Any = InputPortSelection.kUseFirstInputIfItExists
    use_square_root_method: bool = False
    simulator_config: Any = field(default_factory=SimulatorConfig)
    rtol: float = 1e-8
    atol: float = 1e-10
    method: str = "RK45"

    def __repr__(self):
        # Drake's form (Qf, N, input_port_index, use_square_root_method, simulator_config),
        # then merganser's other fields where they are set (trajectories) or changed.
        def show(value):
            if isinstance(value, InputPortSelection):
                return f"InputPortSelection.{_SELECTION_NAMES[value.value]}"
            return str(value) if isinstance(value, np.ndarray) else repr(value)
        names = ["Qf", "N", "input_port_index", "use_square_root_method", "simulator_config"]
        names += [k for k in ("x0", "u0", "xd", "ud") if getattr(self, k) is not None]
        names += [k for k, v in (("rtol", 1e-8), ("atol", 1e-10), ("method", "RK45"))
                  if getattr(self, k) != v]
        parts = ", ".join(f"{k}={show(getattr(self, k))}" for k in names)
        return f"{type(self).__name__}({parts})"


_SELECTION_NAMES = {-1: "kNoInput", -2: "kUseFirstInputIfItExists"}


@dataclass
class FiniteHorizonLinearQuadraticRegulatorResult:
    """Trajectories on [t0, tf] of the finite-horizon LQR (see the module docstring).

    Attributes
    ----------
    x0 : Trajectory, (n, 1)
    u0 : Trajectory, (m, 1)
    K : PiecewisePolynomial, (m, n)
    k0 : PiecewisePolynomial, (m, 1)
    S : PiecewisePolynomial, (n, n)
    sx : PiecewisePolynomial, (n, 1)
    s0 : PiecewisePolynomial, (1, 1)
    """

    x0: Any
    u0: Any
    K: Any
    k0: Any
    S: Any
    sx: Any
    s0: Any

    def cost_to_go(self, t, x):
        """J(x, t) = x̄ᵀS(t)x̄ + 2x̄ᵀs_x(t) + s₀(t) with x̄ = x − x₀(t)."""
        xbar = np.asarray(x, dtype=float).reshape(-1) - self.x0.value(t).reshape(-1)
        return float(xbar @ self.S.value(t) @ xbar + 2.0 * xbar @ self.sx.value(t).reshape(-1)
                     + self.s0.value(t)[0, 0])

    def control(self, t, x):
        """u(t, x) = u₀(t) − K(t)(x − x₀(t)) − k₀(t), shape (m,)."""
        xbar = np.asarray(x, dtype=float).reshape(-1) - self.x0.value(t).reshape(-1)
        return (self.u0.value(t).reshape(-1) - self.K.value(t) @ xbar
                - self.k0.value(t).reshape(-1))


def _column(trajectory, t, rows, name):
    value = np.asarray(trajectory.value(t), dtype=float)
    if value.shape not in ((rows, 1), (rows,)):
        raise ValueError(f"{_FN}: options.{name} has shape {value.shape} at t = {t}, expected "
                         f"({rows}, 1)")
    return value.reshape(rows)


class _Linearization:
    """A(t), B(t), c(t) of the system about the nominal (x₀(t), u₀(t))."""

    def __init__(self, system, context, port, x0, u0, constant):
        self._system, self._port = system, port
        self._x0, self._u0 = x0, u0
        work = system.create_default_context()
        work.set_time_state_and_parameters_from(context)
        for i in range(system.num_input_ports()):
            p = system.get_input_port(i)
            if p.has_value(context):
                p.fix_value(work, p.eval(context))
        self._work = work
        self._constant = self._at(context.get_time()) if constant else None
        self._last = (None, None)

    def _at(self, t):
        n, m = self._work.num_continuous_states(), self._port.size()
        x0 = _column(self._x0, t, n, "x0")
        u0 = _column(self._u0, t, m, "u0")
        self._work.set_time(t)
        self._work.set_continuous_state(x0)
        self._port.fix_value(self._work, u0)
        affine = first_order_taylor_approximation(
            self._system, self._work, input_port_index=self._port,
            output_port_index=OutputPortSelection.NO_OUTPUT)
        A, B = affine.A(), affine.B()
        xdot0 = np.asarray(self._x0.eval_derivative(t, 1), dtype=float).reshape(n)
        c = A @ x0 + B @ u0 + affine.f0() - xdot0
        return A, B, c

    def __call__(self, t):
        if self._constant is not None:
            return self._constant
        if self._last[0] != t:             # the same t is asked for twice when sampling
            self._last = (t, self._at(t))
        return self._last[1]


class _RiccatiEquations:
    """Right-hand side of the backward Riccati equations in y = [vec S; s_x; s₀]."""

    def __init__(self, linearization, Q, R, N, x0, u0, xd, ud, n, m):
        self.lin, self.Q, self.R, self.N = linearization, Q, R, N
        self.x0, self.u0, self.xd, self.ud = x0, u0, xd, ud
        self.n, self.m = n, m

    def unpack(self, y):
        n = self.n
        S = y[:n * n].reshape(n, n)
        return 0.5 * (S + S.T), y[n * n:n * n + n], y[-1]

    def desired_offsets(self, t):
        """(x̄_d, ū_d) at t."""
        x0, u0 = _column(self.x0, t, self.n, "x0"), _column(self.u0, t, self.m, "u0")
        return _column(self.xd, t, self.n, "xd") - x0, _column(self.ud, t, self.m, "ud") - u0

    def gains(self, t, S, sx):
        """(K, k₀, A, c, x̄_d, ū_d) at t."""
        A, B, c = self.lin(t)
        xbar_d, ubar_d = self.desired_offsets(t)
        K = np.linalg.solve(self.R, B.T @ S + self.N.T)
        k0 = np.linalg.solve(self.R, B.T @ sx - self.R @ ubar_d - self.N.T @ xbar_d)
        return K, k0, A, c, xbar_d, ubar_d

    def __call__(self, t, y):
        S, sx, _ = self.unpack(y)
        K, k0, A, c, xd, ud = self.gains(t, S, sx)
        Q, R, N = self.Q, self.R, self.N
        RK, Rk0 = R @ K, R @ k0
        S_dot = -(Q + S @ A + A.T @ S - K.T @ RK)
        sx_dot = -(-Q @ xd - N @ ud + S @ c + A.T @ sx - K.T @ Rk0)
        s0_dot = -(xd @ Q @ xd + ud @ R @ ud + 2.0 * xd @ N @ ud + 2.0 * sx @ c - k0 @ Rk0)
        return np.concatenate([S_dot.reshape(-1), sx_dot, [s0_dot]])


def _costs(Q, R, options, n, m):
    Q = check_symmetric(_FN, "Q", as_matrix(_FN, "Q", Q, (n, n)))
    check_positive_semidefinite(_FN, "Q", Q)
    R = check_symmetric(_FN, "R", as_matrix(_FN, "R", R, (m, m)))
    check_positive_definite(_FN, "R", R)
    Qf = np.zeros((n, n)) if options.Qf is None else check_symmetric(
        _FN, "Qf", as_matrix(_FN, "options.Qf", options.Qf, (n, n)))
    check_positive_semidefinite(_FN, "Qf", Qf)
    N = np.zeros((n, m)) if options.N is None else as_matrix(_FN, "options.N", options.N, (n, m))
    check_positive_semidefinite(_FN, "Q - N R⁻¹ Nᵀ", Q - N @ np.linalg.solve(R, N.T))
    return Q, R, Qf, N


def _spline(times, samples):
    if times.size >= 3:
        return PiecewisePolynomial.cubic_with_continuous_second_derivatives(times, samples)
    return PiecewisePolynomial.first_order_hold(times, samples)


def finite_horizon_linear_quadratic_regulator(system, context, t0, tf, Q, R, options=None):
    """Solve the continuous-time finite-horizon LQR (see the module docstring).

    Parameters
    ----------
    system : System
        With n continuous states (and no discrete state) and a vector input of size m.
    context : Context
        A context of ``system``: its state and the value of the input port are the
        nominal x₀ and u₀ when ``options`` gives no trajectories; parameters are used
        throughout.
    t0, tf : float
        The horizon, tf > t0 (s).
    Q : array_like, shape (n, n)
        Symmetric positive semidefinite running state cost.
    R : array_like, shape (m, m)
        Symmetric positive definite running input cost.
    options : FiniteHorizonLinearQuadraticRegulatorOptions, optional

    Returns
    -------
    FiniteHorizonLinearQuadraticRegulatorResult

    Raises
    ------
    ValueError
        For a discrete-time system, tf <= t0, or cost matrices of the wrong shape or
        definiteness.
    RuntimeError
        If the backward integration fails.
    """
    from scipy.integrate import solve_ivp

    options = options or FiniteHorizonLinearQuadraticRegulatorOptions()
    t0, tf = float(t0), float(tf)
    if not tf > t0:
        raise ValueError(f"{_FN}: tf must be greater than t0, got t0 = {t0}, tf = {tf}")
    if not isinstance(context, Context):
        raise TypeError(f"{_FN}: context must be a Context, got {type(context).__name__}")
    ctx = system.get_my_context_from_root(context)
    n = ctx.num_continuous_states()
    if n == 0 or any(ctx.get_discrete_state(i).size
                     for i in range(ctx.num_discrete_state_groups())):
        raise ValueError(
            f"{_FN}: system '{system.get_name()}' must have continuous state only (it has {n} "
            f"continuous states and {ctx.num_discrete_state_groups()} discrete groups); "
            f"discrete-time systems are not supported")
    index = options.input_port_index
    if isinstance(index, InputPortSelection):
        if index.value != -2 or system.num_input_ports() == 0:
            raise ValueError(f"{_FN}: input_port_index {index} selects no input; system "
                             f"'{system.get_name()}' needs an input u")
        index = 0
    port = index if hasattr(index, "get_system") else system.get_input_port(index)
    m = port.size()
    Q, R, Qf, N = _costs(Q, R, options, n, m)
    x0 = options.x0 if options.x0 is not None else PiecewisePolynomial(
        np.array(ctx.get_continuous_state_vector(), dtype=float).reshape(n, 1))
    u0 = options.u0 if options.u0 is not None else PiecewisePolynomial(
        np.array(port.eval(ctx), dtype=float).reshape(m, 1))
    xd = options.xd if options.xd is not None else x0
    ud = options.ud if options.ud is not None else u0
    constant = options.x0 is None and options.u0 is None
    lin = _Linearization(system, ctx, port, x0, u0, constant)
    equations = _RiccatiEquations(lin, Q, R, N, x0, u0, xd, ud, n, m)

    xbar_d, _ = equations.desired_offsets(tf)
    y_final = np.concatenate([Qf.reshape(-1), -Qf @ xbar_d, [xbar_d @ Qf @ xbar_d]])
    solution = solve_ivp(equations, (tf, t0), y_final, method=options.method,
                         rtol=options.rtol, atol=options.atol, dense_output=True,
                         max_step=options.simulator_config.max_step_size)
    if not solution.success:
        raise RuntimeError(f"{_FN}: the backward integration of the Riccati equations failed "
                           f"at t = {solution.t[-1]:.6g}: {solution.message}")
    # Samples at the solver's steps and at their midpoints (from its dense output), so
    # that the cubic interpolants are as accurate as the integration.
    steps = solution.t[::-1]
    times = np.empty(2 * steps.size - 1)
    times[0::2] = steps
    times[1::2] = 0.5 * (steps[:-1] + steps[1:])
    samples = solution.sol(times)
    samples[:, 0::2] = solution.y[:, ::-1]
    return _result(equations, times, samples, x0, u0)


def _result(equations, times, ys, x0, u0):
    """The result trajectories from the solution samples (increasing times)."""
    n, m = equations.n, equations.m
    S, sx, s0, S_dot, sx_dot, s0_dot, K, k0 = ([] for _ in range(8))
    for t, y in zip(times, ys.T):
        S_t, sx_t, s0_t = equations.unpack(y)
        dy = equations(t, y)
        K_t, k0_t, *_ = equations.gains(t, S_t, sx_t)
        S.append(S_t)
        sx.append(sx_t.reshape(n, 1))
        s0.append(np.array([[s0_t]]))
        S_dot.append(dy[:n * n].reshape(n, n))
        sx_dot.append(dy[n * n:n * n + n].reshape(n, 1))
        s0_dot.append(np.array([[dy[-1]]]))
        K.append(K_t)
        k0.append(k0_t.reshape(m, 1))
    hermite = PiecewisePolynomial.cubic_hermite
    return FiniteHorizonLinearQuadraticRegulatorResult(
        x0=x0, u0=u0, K=_spline(times, np.array(K)), k0=_spline(times, np.array(k0)),
        S=hermite(times, np.array(S), np.array(S_dot)),
        sx=hermite(times, np.array(sx), np.array(sx_dot)),
        s0=hermite(times, np.array(s0), np.array(s0_dot)))


def make_finite_horizon_linear_quadratic_regulator(system, context, t0, tf, Q, R,
                                                   options=None):
    """The finite-horizon LQR as a System: input ``plant_state`` (n,), output ``control``
    (m,) = u₀(t) − K(t)(x − x₀(t)) − k₀(t).

    Arguments as for `finite_horizon_linear_quadratic_regulator`.

    Returns
    -------
    FiniteHorizonLqrController
    """
    result = finite_horizon_linear_quadratic_regulator(system, context, t0, tf, Q, R, options)
    return FiniteHorizonLqrController(result.x0, result.u0, result.K, result.k0)
