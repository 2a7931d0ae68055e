"""LQR: closed forms (double integrator, scalar discrete Riccati), the Riccati identities
with a cross term, the system forms (LinearSystem, any System at an equilibrium,
discrete plants), Drake's acrobot balancing figures, and the errors on Q, R,
stabilizability, detectability and the operating point."""

import numpy as np
import pytest
from controller_models import ACROBOT_URDF, load_plant, make_acrobot, parser_available

from merganser.controllers import discrete_time_linear_quadratic_regulator, linear_quadratic_regulator
from merganser.framework import AffineSystem, DiagramBuilder, LinearSystem, PortError

A_DI = np.array([[0.0, 1.0], [0.0, 0.0]])
B_DI = np.array([[0.0], [1.0]])
Q_ACROBOT = np.diag([10.0, 10.0, 1.0, 1.0])
K_DRAKE = np.array([-278.442, -112.291, -119.725, -56.828])
X_UPRIGHT = np.array([np.pi, 0.0, 0.0, 0.0])


def test_double_integrator_closed_form():
    K, S = linear_quadratic_regulator(A_DI, B_DI, np.eye(2), np.eye(1))
    r3 = np.sqrt(3.0)
    np.testing.assert_allclose(K, [[1.0, r3]], rtol=1e-12)
    np.testing.assert_allclose(S, [[r3, 1.0], [1.0, r3]], rtol=1e-12)


def test_cross_term_satisfies_the_riccati_equation():
    rng = np.random.default_rng(3)
    A, B = rng.normal(size=(3, 3)), rng.normal(size=(3, 2))
    Q, R = np.diag([2.0, 1.0, 3.0]), np.diag([1.0, 2.0])
    N = 0.1 * rng.normal(size=(3, 2))
    K, S = linear_quadratic_regulator(A, B, Q, R, N)
    residual = S @ A + A.T @ S - (S @ B + N) @ np.linalg.solve(R, B.T @ S + N.T) + Q
    np.testing.assert_allclose(residual, 0.0, atol=1e-10)
    np.testing.assert_allclose(K, np.linalg.solve(R, B.T @ S + N.T), atol=1e-12)
    assert np.all(np.linalg.eigvals(A - B @ K).real < 0.0)


def test_scalar_discrete_riccati_closed_form():
    a, b, q, r = 1.2, 0.5, 2.0, 0.3
    K, S = discrete_time_linear_quadratic_regulator([[a]], [[b]], [[q]], [[r]])
    # s = q + a² s r / (r + b² s)  <=>  b² s² + (r − a² r − q b²) s − q r = 0
    c1, c0 = r - a * a * r - q * b * b, -q * r
    s = (-c1 + np.sqrt(c1 * c1 - 4 * b * b * c0)) / (2 * b * b)
    np.testing.assert_allclose(S, [[s]], rtol=1e-12)
    np.testing.assert_allclose(K, [[a * b * s / (r + b * b * s)]], rtol=1e-12)


def test_discrete_cross_term_satisfies_the_riccati_equation():
    A = np.array([[1.0, 0.1], [0.0, 1.0]])
    B = np.array([[0.005], [0.1]])
    Q, R, N = np.eye(2), np.array([[0.5]]), np.array([[0.1], [0.05]])
    K, S = discrete_time_linear_quadratic_regulator(A, B, Q, R, N)
    G = B.T @ S @ A + N.T
    residual = A.T @ S @ A - G.T @ np.linalg.solve(R + B.T @ S @ B, G) + Q - S
    np.testing.assert_allclose(residual, 0.0, atol=1e-10)
    assert np.all(np.abs(np.linalg.eigvals(A - B @ K)) < 1.0)


def test_linear_system_form_returns_minus_k_feedthrough():
    plant = LinearSystem(A_DI, B_DI, np.eye(2), np.zeros((2, 1)))
    controller = linear_quadratic_regulator(plant, np.eye(2), np.eye(1))
    assert isinstance(controller, LinearSystem)
    assert controller.num_states() == 0
    np.testing.assert_allclose(controller.D(), [[-1.0, -np.sqrt(3.0)]], rtol=1e-12)
    discrete = LinearSystem(np.array([[1.0, 0.1], [0.0, 1.0]]), [[0.005], [0.1]], np.eye(2),
                            np.zeros((2, 1)), time_period=0.1)
    controller = linear_quadratic_regulator(discrete, np.eye(2), np.eye(1))
    K, _ = discrete_time_linear_quadratic_regulator(discrete.A(), discrete.B(), np.eye(2),
                                                    np.eye(1))
    assert controller.time_period() == 0.1
    np.testing.assert_allclose(controller.D(), -K)


def test_system_form_is_affine_about_the_operating_point():
    # ẋ = A x + B (u − 2) about the equilibrium x0 = [1, 0], u0 = 2 of an affine system.
    plant = AffineSystem(A_DI, B_DI, [0.0, -2.0], np.eye(2), None, None)
    context = plant.create_default_context()
    plant.set_state(context, [1.0, 0.0])
    plant.get_input_port().fix_value(context, [2.0])
    controller = linear_quadratic_regulator(plant, context, np.eye(2), np.eye(1))
    K = np.array([[1.0, np.sqrt(3.0)]])
    np.testing.assert_allclose(controller.D(), -K, rtol=1e-10)
    np.testing.assert_allclose(controller.y0(), 2.0 + K @ [1.0, 0.0], rtol=1e-10)
    assert controller.time_period() == 0.0


def _acrobot_lqr(plant):
    upright = plant.create_default_context()
    plant.set_positions(upright, [np.pi, 0.0])
    plant.get_actuation_input_port().fix_value(upright, [0.0])
    return linear_quadratic_regulator(
        plant, upright, Q=Q_ACROBOT, R=np.eye(1),
        input_port_index=plant.get_actuation_input_port().get_index())


def _check_acrobot_figures(plant):
    lqr = _acrobot_lqr(plant)
    K = -lqr.D().ravel()
    np.testing.assert_allclose(K, K_DRAKE, rtol=1e-3)
    np.testing.assert_allclose(lqr.y0(), K @ X_UPRIGHT, rtol=1e-12)   # u0 = 0
    builder = DiagramBuilder()
    builder.add_system(plant)
    builder.add_system(lqr)
    builder.connect(plant.get_state_output_port(), lqr.get_input_port())
    builder.connect(lqr.get_output_port(), plant.get_actuation_input_port())
    diagram = builder.build()
    context = diagram.create_default_context()
    plant.set_positions_and_velocities(plant.get_my_context_from_root(context),
                                       X_UPRIGHT + [0.05, -0.05, 0.0, 0.0])
    result = diagram.simulate(5.0, context=context)
    x = plant.get_positions_and_velocities(plant.get_my_context_from_root(result.context))
    np.testing.assert_allclose(x, X_UPRIGHT, atol=2e-4)


def test_acrobot_balancing_matches_drake():
    _check_acrobot_figures(make_acrobot())


@pytest.mark.skipif(not parser_available(), reason="multibody.Parser not available yet")
def test_acrobot_from_urdf_balancing_matches_drake():
    _check_acrobot_figures(load_plant(ACROBOT_URDF))


def test_discrete_acrobot_gets_a_discrete_regulator_close_to_the_continuous_one():
    h = 1e-3
    lqr = _acrobot_lqr(make_acrobot(time_step=h))
    assert lqr.time_period() == h
    # For small h the discrete-time gain approaches the continuous one.
    np.testing.assert_allclose(-lqr.D().ravel(), K_DRAKE, rtol=0.02)


def test_cost_matrix_errors_name_the_matrix_and_condition():
    fn = "linear_quadratic_regulator"
    with pytest.raises(ValueError, match=f"{fn}: Q must be symmetric"):
        linear_quadratic_regulator(A_DI, B_DI, [[1.0, 1.0], [0.0, 1.0]], np.eye(1))
    with pytest.raises(ValueError, match=f"{fn}: Q must be positive semidefinite, but its "
                                         f"smallest eigenvalue is -1"):
        linear_quadratic_regulator(A_DI, B_DI, np.diag([1.0, -1.0]), np.eye(1))
    with pytest.raises(ValueError, match=f"{fn}: R must be positive definite, but its smallest "
                                         f"eigenvalue is 0"):
        linear_quadratic_regulator(A_DI, B_DI, np.eye(2), [[0.0]])
    with pytest.raises(ValueError, match=f"{fn}: R has shape \\(2, 2\\), expected \\(1, 1\\)"):
        linear_quadratic_regulator(A_DI, B_DI, np.eye(2), np.eye(2))
    with pytest.raises(ValueError, match=f"{fn}: B has shape \\(3, 1\\), expected \\(2, any\\)"):
        linear_quadratic_regulator(A_DI, np.ones((3, 1)), np.eye(2), np.eye(1))
    with pytest.raises(ValueError, match="Q - N R⁻¹ Nᵀ must be positive semidefinite"):
        linear_quadratic_regulator(A_DI, B_DI, np.eye(2), np.eye(1), [[2.0], [0.0]])
    with pytest.raises(ValueError, match="discrete_time_linear_quadratic_regulator: R must be "
                                         "symmetric"):
        discrete_time_linear_quadratic_regulator(np.eye(2), np.eye(2), np.eye(2),
                                                 [[1.0, 0.5], [0.0, 1.0]])


def test_stabilizability_and_detectability_errors():
    A = np.diag([1.0, -1.0])
    with pytest.raises(ValueError, match=r"\(A, B\) is not stabilizable: the eigenvalue "
                                         r"λ = 1 of A \(Re λ >= 0\) is not controllable"):
        linear_quadratic_regulator(A, [[0.0], [1.0]], np.eye(2), np.eye(1))
    # The stable mode need not be controllable.
    K, _ = linear_quadratic_regulator(A, [[1.0], [0.0]], np.eye(2), np.eye(1))
    assert K[0, 1] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match=r"\(A, Q\) is not detectable: the eigenvalue λ = 1 of A"):
        linear_quadratic_regulator(A, np.eye(2), np.diag([0.0, 1.0]), np.eye(2))
    with pytest.raises(ValueError, match=r"\(A, B\) is not stabilizable: the eigenvalue λ = "
                                         r"2 of A \(\|λ\| >= 1\)"):
        discrete_time_linear_quadratic_regulator(np.diag([2.0, 0.5]), [[0.0], [1.0]], np.eye(2),
                                                 np.eye(1))


def test_system_form_errors():
    plant = make_acrobot()
    context = plant.create_default_context()
    plant.set_positions(context, [np.pi / 2, 0.0])
    plant.get_actuation_input_port().fix_value(context, [0.0])
    with pytest.raises(ValueError, match="not an equilibrium"):
        linear_quadratic_regulator(plant, context, Q_ACROBOT, np.eye(1),
                                   input_port_index="actuation")
    linear = LinearSystem(A_DI, B_DI, np.eye(2), np.zeros((2, 1)))
    with pytest.raises(PortError, match="input port 'u0' .* has no value in the context"):
        linear_quadratic_regulator(linear, linear.create_default_context(), np.eye(2), np.eye(1))
    plant.set_positions(context, [np.pi, 0.0])
    with pytest.raises(ValueError, match=r"Q has shape \(2, 2\), expected \(4, 4\)"):
        linear_quadratic_regulator(plant, context, np.eye(2), np.eye(1),
                                   input_port_index="actuation")
    with pytest.raises(TypeError, match="without a context, system must be a LinearSystem"):
        linear_quadratic_regulator(plant, Q_ACROBOT, np.eye(1))
