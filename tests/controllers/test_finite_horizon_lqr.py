"""Finite-horizon LQR: the scalar Riccati closed form, convergence to the infinite-horizon
solution, the optimal cost-to-go of an affine tracking problem (checked by simulating the
closed loop and perturbing the control), tracking a swing of Drake's pendulum with the
controller System, and errors."""

import numpy as np
import pytest
from controller_models import make_pendulum
from scipy.integrate import solve_ivp

from merganser.controllers import (FiniteHorizonLinearQuadraticRegulatorOptions,
                         finite_horizon_linear_quadratic_regulator, linear_quadratic_regulator,
                         make_finite_horizon_linear_quadratic_regulator)
from merganser.framework import DiagramBuilder, LinearSystem, PiecewisePolynomial, SimulatorConfig

Options = FiniteHorizonLinearQuadraticRegulatorOptions


def _linear(A, B):
    A, B = np.atleast_2d(A), np.atleast_2d(B)
    system = LinearSystem(A, B, np.eye(A.shape[0]), np.zeros((A.shape[0], B.shape[1])))
    context = system.create_default_context()
    system.get_input_port().fix_value(context, np.zeros(B.shape[1]))
    return system, context


def test_scalar_riccati_matches_the_closed_form():
    a, b, q, r, qf, T = 0.5, 2.0, 3.0, 0.5, 4.0, 2.0
    system, context = _linear(a, b)
    result = finite_horizon_linear_quadratic_regulator(system, context, 0.0, T, [[q]], [[r]],
                                                       Options(Qf=[[qf]]))
    beta = b * b / r
    s1 = (a + np.sqrt(a * a + beta * q)) / beta             # roots of β s² − 2 a s − q
    s2 = (a - np.sqrt(a * a + beta * q)) / beta
    for t in np.linspace(0.0, T, 9):
        w = (qf - s1) / (qf - s2) * np.exp(-beta * (s1 - s2) * (T - t))
        s = (s1 - w * s2) / (1.0 - w)
        assert result.S.value(t)[0, 0] == pytest.approx(s, rel=1e-7)
        assert result.K.value(t)[0, 0] == pytest.approx(b * s / r, rel=1e-6)
        assert result.sx.value(t)[0, 0] == pytest.approx(0.0, abs=1e-12)
        assert result.s0.value(t)[0, 0] == pytest.approx(0.0, abs=1e-12)


def test_long_horizon_approaches_the_infinite_horizon_regulator():
    A, B = np.array([[0.0, 1.0], [2.0, -0.1]]), np.array([[0.0], [1.0]])
    system, context = _linear(A, B)
    Q, R = np.diag([10.0, 1.0]), np.eye(1)
    result = finite_horizon_linear_quadratic_regulator(system, context, 0.0, 20.0, Q, R)
    K, S = linear_quadratic_regulator(A, B, Q, R)
    np.testing.assert_allclose(result.S.value(0.0), S, rtol=1e-6)
    np.testing.assert_allclose(result.K.value(0.0), K, rtol=1e-6)
    np.testing.assert_allclose(result.S.value(20.0), 0.0, atol=1e-12)      # Qf = 0


def _closed_loop_cost(result, A, B, Q, R, N, Qf, xd, ud, x_start, T, du=None):
    """Simulate x' = A x + B u with the regulator (plus du(t)) and integrate the cost."""
    def rhs(t, y):
        x = y[:2]
        u = result.control(t, x) + (du(t) if du is not None else 0.0)
        e, f = x - xd(t), u - ud(t)
        return np.concatenate([A @ x + B @ u, [e @ Q @ e + f @ R @ f + 2 * e @ N @ f]])

    sol = solve_ivp(rhs, (0.0, T), np.concatenate([x_start, [0.0]]), rtol=1e-10, atol=1e-12)
    e = sol.y[:2, -1] - xd(T)
    return sol.y[2, -1] + e @ Qf @ e


def test_cost_to_go_is_the_closed_loop_cost_of_an_affine_tracking_problem():
    # Nominal x0 = [1, 0] with u0 = 0 is not an equilibrium (c = A x0 ≠ 0) and the desired
    # trajectory is not feasible: the affine terms sx, s0 and k0 all matter.
    A, B = np.array([[0.0, 1.0], [-1.0, -0.2]]), np.array([[0.0], [1.0]])
    system, context = _linear(A, B)
    context.set_continuous_state([1.0, 0.0])
    Q, R, Qf = np.diag([5.0, 0.5]), np.array([[0.2]]), np.diag([3.0, 1.0])
    N = np.array([[0.1], [0.0]])
    T = 3.0
    times = np.linspace(0.0, T, 31)
    xd_traj = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        times, np.vstack([np.sin(times), np.cos(2 * times)]))
    ud_traj = PiecewisePolynomial.first_order_hold(times, 0.3 * times[None, :])
    result = finite_horizon_linear_quadratic_regulator(
        system, context, 0.0, T, Q, R, Options(Qf=Qf, N=N, xd=xd_traj, ud=ud_traj))
    xd = lambda t: xd_traj.value(t).ravel()           # noqa: E731
    ud = lambda t: ud_traj.value(t).ravel()           # noqa: E731
    x_start = np.array([0.5, -0.3])
    cost = _closed_loop_cost(result, A, B, Q, R, N, Qf, xd, ud, x_start, T)
    assert result.cost_to_go(0.0, x_start) == pytest.approx(cost, rel=1e-5)
    assert abs(result.k0.value(1.0)[0, 0]) > 0.1 and abs(result.sx.value(1.0)).max() > 0.1
    for du in (lambda t: np.array([0.05 * np.sin(3 * t)]), lambda t: np.array([-0.05])):
        assert _closed_loop_cost(result, A, B, Q, R, N, Qf, xd, ud, x_start, T, du) > cost


def test_controller_tracks_a_pendulum_swing_about_its_nominal_trajectory():
    plant = make_pendulum()
    T = 2.0
    times = np.linspace(0.0, T, 41)
    theta = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        times, (1.2 * np.sin(np.pi * times / T) ** 2)[None, :], np.zeros((1, 1)),
        np.zeros((1, 1)))
    x0 = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        times, np.vstack([theta.vector_values(times), theta.make_derivative(1)
                          .vector_values(times)]))
    # u0 = I θ̈ + b θ̇ + m g l sin θ (I = 0.25, b = 0.1, m g l = 4.905): the feedforward.
    u0_samples = (0.25 * theta.make_derivative(2).vector_values(times)
                  + 0.1 * theta.make_derivative(1).vector_values(times)
                  + 4.905 * np.sin(theta.vector_values(times)))
    u0 = PiecewisePolynomial.cubic_with_continuous_second_derivatives(times, u0_samples)
    context = plant.create_default_context()
    controller = make_finite_horizon_linear_quadratic_regulator(
        plant, context, 0.0, T, np.diag([100.0, 1.0]), np.eye(1) * 0.01,
        Options(Qf=np.diag([100.0, 1.0]), x0=x0, u0=u0, input_port_index="actuation",
                rtol=1e-6, atol=1e-8))
    builder = DiagramBuilder()
    builder.add_system(plant)
    builder.add_system(controller)
    builder.connect(plant.get_state_output_port(), controller.get_input_port("plant_state"))
    builder.connect(controller.get_output_port("control"), plant.get_actuation_input_port())
    diagram = builder.build()
    root = diagram.create_default_context()
    plant.set_positions_and_velocities(plant.get_my_context_from_root(root), [0.2, -0.5])
    result = diagram.simulate(T, context=root, config=SimulatorConfig(accuracy=1e-6))
    x = plant.get_positions_and_velocities(plant.get_my_context_from_root(result.context))
    np.testing.assert_allclose(x, x0.value(T).ravel(), atol=1e-4)


def test_errors():
    system, context = _linear([[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0]])
    fn = "finite_horizon_linear_quadratic_regulator"
    with pytest.raises(ValueError, match=f"{fn}: tf must be greater than t0, got t0 = 1.0, "
                                         f"tf = 1.0"):
        finite_horizon_linear_quadratic_regulator(system, context, 1.0, 1.0, np.eye(2), np.eye(1))
    with pytest.raises(ValueError, match=f"{fn}: R must be positive definite"):
        finite_horizon_linear_quadratic_regulator(system, context, 0.0, 1.0, np.eye(2),
                                                  -np.eye(1))
    with pytest.raises(ValueError, match=f"{fn}: Qf must be positive semidefinite"):
        finite_horizon_linear_quadratic_regulator(system, context, 0.0, 1.0, np.eye(2),
                                                  np.eye(1), Options(Qf=-np.eye(2)))
    with pytest.raises(ValueError, match=r"options.x0 has shape \(3, 1\)"):
        finite_horizon_linear_quadratic_regulator(
            system, context, 0.0, 1.0, np.eye(2), np.eye(1),
            Options(x0=PiecewisePolynomial(np.zeros((3, 1)))))
    discrete = LinearSystem([[1.0]], [[1.0]], [[1.0]], [[0.0]], time_period=0.1)
    dcontext = discrete.create_default_context()
    discrete.get_input_port().fix_value(dcontext, [0.0])
    with pytest.raises(ValueError, match="discrete-time systems are not supported"):
        finite_horizon_linear_quadratic_regulator(discrete, dcontext, 0.0, 1.0, np.eye(1),
                                                  np.eye(1))
