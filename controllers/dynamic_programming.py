"""Dynamic programming on samples of a system's dynamics (Drake's
DynamicProgrammingOptions, FittedValueIteration and
LinearProgrammingApproximateDynamicProgramming).

``fitted_value_iteration`` iterates the Bellman equation on a mesh of states, with the
cost-to-go interpolated between mesh points.

For a system x' = f(x, u) simulated over one ``time_step`` h, the optimal cost-to-go J*
satisfies J*(x) = min_u [h·ℓ(x, u) + γ J*(f(x, u))]. With a cost-to-go linear in its
parameters θ, J(x; θ) = φ(x)ᵀθ, every J with J(x) ≤ h·ℓ(x, u) + γ J(f(x, u)) on the
samples lies below J*, so the largest such J (maximize Σᵢ J(xᵢ; θ)) is a linear program.
"""

import numpy as np
import scipy.optimize

from merganser.framework import BarycentricMesh, BarycentricMeshSystem, InputPortSelection


class PeriodicBoundaryCondition:
    """State ``state_index`` lives on the circle [low, high): next states are wrapped
    into it (Drake's DynamicProgrammingOptions::PeriodicBoundaryCondition)."""

    def __init__(self, state_index, low, high):
        self.state_index = int(state_index)
        self.low = float(low)
        self.high = float(high)
        if not self.low < self.high:
            raise ValueError(f"PeriodicBoundaryCondition: low must be < high, got low="
                             f"{self.low}, high={self.high}")

    def wrap(self, value):
        """``value`` wrapped into [low, high)."""
        period = self.high - self.low
        return self.low + np.mod(value - self.low, period)

    def __repr__(self):
        return (f"PeriodicBoundaryCondition(state_index={self.state_index}, low={self.low}, "
                f"high={self.high})")


class DynamicProgrammingOptions:
    """Options of the dynamic programming solvers (Drake's DynamicProgrammingOptions).

    Attributes
    ----------
    discount_factor : float
        γ in (0, 1] (default 1).
    periodic_boundary_conditions : list[PeriodicBoundaryCondition]
    convergence_tol : float
        Value-iteration stopping tolerance (default 1e-4).
    visualization_callback : callable or None
        ``callback(iteration, mesh, cost_to_go, policy)`` during value iteration.
    input_port_index : InputPortSelection or int
    assume_non_continuous_states_are_fixed : bool
    """

    PeriodicBoundaryCondition = PeriodicBoundaryCondition

    def __init__(self):
        self.discount_factor = 1.0
        self.periodic_boundary_conditions = []
        self.convergence_tol = 1e-4
        self.visualization_callback = None
        self.input_port_index = InputPortSelection.kUseFirstInputIfItExists
        self.assume_non_continuous_states_are_fixed = False

    def __repr__(self):
        return (f"DynamicProgrammingOptions(discount_factor={self.discount_factor}, "
                f"convergence_tol={self.convergence_tol}, periodic_boundary_conditions="
                f"{self.periodic_boundary_conditions})")


def _features(fn, cost_to_go, x, num_parameters):
    """(c, φ) with cost_to_go(x, θ) = c + φᵀθ, read off at θ = 0 and the unit vectors;
    raises ValueError when the function is not affine in θ."""
    zero = np.zeros(num_parameters)
    c = float(cost_to_go(x, zero))
    phi = np.array([float(cost_to_go(x, np.eye(num_parameters)[k])) - c
                    for k in range(num_parameters)])
    probe = 0.5 + 0.75 * np.arange(num_parameters)
    if not np.isclose(float(cost_to_go(x, probe)), c + phi @ probe, rtol=1e-9, atol=1e-9):
        raise ValueError(f"{fn}: linearly_parameterized_cost_to_go_function is not linear in "
                         f"its parameters (at state {x.tolist()})")
    return c, phi


def linear_programming_approximate_dynamic_programming(
        simulator, cost_function, linearly_parameterized_cost_to_go_function, num_parameters,
        state_samples, input_samples, time_step, options=None):
    """The parameters θ of the largest cost-to-go J(x; θ) = φ(x)ᵀθ under the Bellman
    inequalities at the samples (Drake's LinearProgrammingApproximateDynamicProgramming).

    Parameters
    ----------
    simulator : Simulator
        Of a system with only continuous state (size n) and one vector input (size m).
    cost_function : callable
        ``cost_function(context) -> float``, the running cost ℓ(x, u).
    linearly_parameterized_cost_to_go_function : callable
        ``J(state, parameters) -> float``, linear in ``parameters`` (shape
        (num_parameters,)).
    num_parameters : int
    state_samples : array_like, shape (n, N)
    input_samples : array_like, shape (m, M)
    time_step : float
        h (s): each sample is simulated from t = 0 to h.
    options : DynamicProgrammingOptions, optional
        ``discount_factor`` γ and ``periodic_boundary_conditions`` are used.

    Returns
    -------
    ndarray, shape (num_parameters,)

    Raises
    ------
    ValueError
        On inconsistent sizes, γ outside (0, 1], or an infeasible or unbounded program.
    """
    fn = "linear_programming_approximate_dynamic_programming"
    options = options or DynamicProgrammingOptions()
    gamma = float(options.discount_factor)
    if not 0.0 < gamma <= 1.0:
        raise ValueError(f"{fn}: options.discount_factor must be in (0, 1], got {gamma}")
    num_parameters = int(num_parameters)
    if num_parameters <= 0:
        raise ValueError(f"{fn}: num_parameters must be > 0, got {num_parameters}")
    if not time_step > 0.0:
        raise ValueError(f"{fn}: time_step must be > 0, got {time_step}")
    X = np.atleast_2d(np.asarray(state_samples, dtype=float))
    U = np.atleast_2d(np.asarray(input_samples, dtype=float))
    system = simulator.get_system()
    context = simulator.get_mutable_context()
    n = context.num_continuous_states()
    if not context.has_only_continuous_state() or X.shape[0] != n:
        raise ValueError(f"{fn}: system '{system.get_name()}' must have only continuous state "
                         f"with as many elements as state_samples has rows ({X.shape[0]}), "
                         f"has {n} continuous states")
    if system.num_input_ports() != 1 or system.get_input_port(0).size() != U.shape[0]:
        raise ValueError(f"{fn}: system '{system.get_name()}' must have one input port of size "
                         f"{U.shape[0]} (input_samples' rows)")
    for b in options.periodic_boundary_conditions:
        if not 0 <= b.state_index < n:
            raise ValueError(f"{fn}: periodic boundary condition state_index {b.state_index} "
                             f"out of range for {n} states")
    J = linearly_parameterized_cost_to_go_function
    features = [_features(fn, J, X[:, i], num_parameters) for i in range(X.shape[1])]
    objective = -sum(phi for _, phi in features)          # maximize Σ J(x_i)
    rows, bounds = [], []
    port = system.get_input_port(0)
    for j in range(U.shape[1]):
        port.fix_value(context, U[:, j])
        for i in range(X.shape[1]):
            context.set_time(0.0)
            context.set_continuous_state(X[:, i])
            simulator.initialize()
            cost = time_step * float(cost_function(context))
            simulator.advance_to(time_step)
            x_next = np.array(context.get_continuous_state_vector(), dtype=float)
            for b in options.periodic_boundary_conditions:
                x_next[b.state_index] = b.wrap(x_next[b.state_index])
            c, phi = features[i]
            c_next, phi_next = _features(fn, J, x_next, num_parameters)
            # c + φᵀθ <= cost + γ (c' + φ'ᵀθ)
            row = phi - gamma * phi_next
            rhs = cost + gamma * c_next - c
            if np.any(row != 0.0):
                rows.append(row)
                bounds.append(rhs)
            elif rhs < 0.0:
                raise ValueError(f"{fn}: the Bellman inequality at state sample {i} and input "
                                 f"sample {j} cannot hold for any parameters")
    result = scipy.optimize.linprog(
        objective, A_ub=np.array(rows) if rows else None,
        b_ub=np.array(bounds) if rows else None,
        bounds=[(None, None)] * num_parameters, method="highs")
    if result.status != 0:
        raise ValueError(f"{fn}: the linear program found no solution: {result.message}")
    return np.asarray(result.x, dtype=float)


def fitted_value_iteration(simulator, cost_function, state_grid, input_grid, time_step,
                           options=None):
    """Value iteration on a mesh (Drake's FittedValueIteration).

    Every state mesh point x and input mesh point u is simulated over ``time_step`` h
    to x', with the cost h·ℓ(x, u) read at the start; J(x') is interpolated on the
    state mesh (barycentric weights). Iterates J ← minᵤ [h·ℓ + γ J(x')] from J = 0 until
    the largest change is below ``options.convergence_tol``.

    Parameters
    ----------
    simulator : Simulator
        Of a time-invariant system with only continuous state (size n), unless
        ``options.assume_non_continuous_states_are_fixed``.
    cost_function : callable
        ``cost_function(context) -> float``.
    state_grid : list of n sets of float
    input_grid : list of m sets of float
        The input port is ``options.input_port_index``'s (vector, size m).
    time_step : float
    options : DynamicProgrammingOptions, optional
        Also ``periodic_boundary_conditions`` (within the grid's range) and
        ``visualization_callback(iteration, state_mesh, cost_to_go, policy_values)``.

    Returns
    -------
    policy : BarycentricMeshSystem
        u = π(x), interpolating the best input at each mesh point.
    cost_to_go : ndarray, shape (num state mesh points,)
    """
    fn = "fitted_value_iteration"
    options = options or DynamicProgrammingOptions()
    gamma = float(options.discount_factor)
    if not 0.0 < gamma <= 1.0:
        raise ValueError(f"{fn}: options.discount_factor must be in (0, 1], got {gamma}")
    if not time_step > 0.0:
        raise ValueError(f"{fn}: time_step must be > 0, got {time_step}")
    state_mesh, input_mesh = BarycentricMesh(state_grid), BarycentricMesh(input_grid)
    system = simulator.get_system()
    context = simulator.get_mutable_context()
    n = state_mesh.get_input_size()
    if context.num_continuous_states() != n or not (
            context.has_only_continuous_state() or options.assume_non_continuous_states_are_fixed):
        raise ValueError(f"{fn}: system '{system.get_name()}' must have only continuous state, "
                         f"of size {n} (len(state_grid)); it has "
                         f"{context.num_continuous_states()} continuous states")
    port = system.get_input_port_selection(options.input_port_index)
    if port is None or port.get_data_type() != "vector" or port.size() != input_mesh.get_input_size():
        raise ValueError(f"{fn}: options.input_port_index must select a vector input port of "
                         f"size {input_mesh.get_input_size()} (len(input_grid)) of system "
                         f"'{system.get_name()}'")
    for b in options.periodic_boundary_conditions:
        axis = sorted(state_grid[b.state_index]) if 0 <= b.state_index < n else None
        if axis is None or b.low < axis[0] or b.high > axis[-1]:
            raise ValueError(f"{fn}: periodic boundary condition {b} must name a state and lie "
                             f"within its grid")
    num_x, num_u = state_mesh.get_num_mesh_points(), input_mesh.get_num_mesh_points()
    k = state_mesh.get_num_interpolants()
    indices = np.empty((num_u, num_x, k), dtype=int)
    weights = np.empty((num_u, num_x, k))
    cost = np.empty((num_u, num_x))
    for j in range(num_u):
        port.fix_value(context, input_mesh.get_mesh_point(j))
        for i in range(num_x):
            context.set_time(0.0)
            context.set_continuous_state(state_mesh.get_mesh_point(i))
            simulator.initialize()
            cost[j, i] = time_step * float(cost_function(context))
            simulator.advance_to(time_step)
            x_next = np.array(context.get_continuous_state_vector(), dtype=float)
            for b in options.periodic_boundary_conditions:
                x_next[b.state_index] = b.wrap(x_next[b.state_index])
            indices[j, i], weights[j, i] = state_mesh.eval_barycentric_weights(x_next)
    J = np.zeros(num_x)
    inputs = input_mesh.get_all_mesh_points()
    iteration = 0
    while True:
        Q = cost + gamma * np.sum(weights * J[indices], axis=2)      # (num_u, num_x)
        best = np.argmin(Q, axis=0)
        J_next = Q[best, np.arange(num_x)]
        change = np.max(np.abs(J_next - J))
        J = J_next
        iteration += 1
        policy_values = inputs[:, best]
        if options.visualization_callback is not None:
            options.visualization_callback(iteration, state_mesh, J, policy_values)
        if change <= options.convergence_tol:
            break
    return BarycentricMeshSystem(state_mesh, policy_values), J
