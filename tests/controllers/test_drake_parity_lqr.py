"""Drake parity of the LQR entry points: the state-constraint matrix F and the
finite-horizon options' fields, defaults and repr (from Drake's documentation)."""

import numpy as np
import pytest

from merganser.controllers import (
    FiniteHorizonLinearQuadraticRegulatorOptions, finite_horizon_linear_quadratic_regulator,
    linear_quadratic_regulator,
)
from merganser.framework import InputPortSelection, LinearSystem, SimulatorConfig

A = np.array([[0.0, 1.0], [0.0, 0.0]])
B = np.array([[0.0], [1.0]])


def test_lqr_with_state_constraint_solves_the_reduced_problem():
    # F x = 0 with F = [1, 2]: x = P^T y with P = [2, -1] / sqrt(5). The reduced system is
    # ydot = (P A P^T) y + (P B) u = -(2/5) y - (1/sqrt 5) u, cost y^2 (P Q P^T = 1) + u^2
    # + 2 y (P N) u. Its scalar Riccati equation gives S_y; K = K_y P, S = P^T S_y P.
    N = np.array([[0.1], [0.2]])
    K, S = linear_quadratic_regulator(A=A, B=B, Q=np.eye(2), R=np.eye(1), N=N,
                                      F=np.array([[1.0, 2.0]]))
    P = np.array([[2.0, -1.0]]) / np.sqrt(5.0)
    a, b, n = (P @ A @ P.T).item(), (P @ B).item(), (P @ N).item()
    # 2 a s - (s b + n)^2 + 1 = 0, the stabilizing (positive) root.
    coeffs = [-b * b, 2 * a - 2 * b * n, 1.0 - n * n]
    s_y = max(np.roots(coeffs).real)
    np.testing.assert_allclose(S, P.T * s_y @ P, atol=1e-12)
    np.testing.assert_allclose(K, (s_y * b + n) * P, atol=1e-12)
    np.testing.assert_allclose(K, [[-0.4, 0.2]], atol=1e-12)     # pydrake 1.51's value
    np.testing.assert_allclose(S @ np.array([2.0, -1.0]), 5 * s_y / np.sqrt(5.0) ** 2
                               * np.array([2.0, -1.0]), atol=1e-12)
    with pytest.raises(ValueError, match="F must have 2 columns"):
        linear_quadratic_regulator(A, B, np.eye(2), np.eye(1), F=np.ones((1, 3)))
    # No F (or an empty one) is the plain LQR.
    K0, _ = linear_quadratic_regulator(A, B, np.eye(2), np.eye(1), F=np.zeros((0, 2)))
    np.testing.assert_allclose(K0, [[1.0, np.sqrt(3.0)]], atol=1e-12)


def test_finite_horizon_options_have_drakes_fields_and_repr():
    options = FiniteHorizonLinearQuadraticRegulatorOptions()
    assert options.input_port_index is InputPortSelection.kUseFirstInputIfItExists
    assert options.use_square_root_method is False
    assert isinstance(options.simulator_config, SimulatorConfig)
    assert options.N is None and options.x0 is None and options.ud is None
    options.Qf = np.eye(2)
    options.simulator_config.max_step_size = 0.01
    text = repr(options)
    assert text.startswith("FiniteHorizonLinearQuadraticRegulatorOptions(Qf=[[1. 0.]\n [0. 1.]]"
                           ", N=None, input_port_index=InputPortSelection."
                           "kUseFirstInputIfItExists, use_square_root_method=False, "
                           "simulator_config=SimulatorConfig(")
    assert "max_step_size=0.01" in text


def test_finite_horizon_default_input_selection_is_input_zero():
    # Double integrator, Qf = 0, over a short horizon: S(tf) = 0 and S(t0) > 0.
    system = LinearSystem(A, B, np.eye(2), np.zeros((2, 1)))
    context = system.create_default_context()
    system.get_input_port(0).fix_value(context, [0.0])
    options = FiniteHorizonLinearQuadraticRegulatorOptions()
    options.simulator_config.max_step_size = 0.05
    result = finite_horizon_linear_quadratic_regulator(system, context, t0=0.0, tf=1.0,
                                                       Q=np.eye(2), R=np.eye(1),
                                                       options=options)
    np.testing.assert_allclose(result.S.value(1.0), np.zeros((2, 2)), atol=1e-9)
    # Backwards from S(tf)=0, Sdot = -Q at tf: S(t) ~ (tf - t) Q near tf.
    np.testing.assert_allclose(result.S.value(0.999), 1e-3 * np.eye(2), atol=1e-5)
    assert result.K.value(0.0).shape == (1, 2)


def test_one_element_lists_are_one_by_one_matrices_as_in_pydrake():
    # the double integrator: K = [1, sqrt(3)] for Q = I, R = 1 (closed form)
    K, _ = linear_quadratic_regulator(A, [0.0, 1.0], np.eye(2), [1])      # B a 1-D column
    np.testing.assert_allclose(K, [[1.0, np.sqrt(3.0)]], rtol=1e-12)
    with pytest.raises(ValueError, match="R has shape"):
        linear_quadratic_regulator(A, B, np.eye(2), [1.0, 2.0])


def test_acrobot_balancing_lqr_gain_is_drakes():
    from merganser.framework import AcrobotPlant

    acrobot = AcrobotPlant()
    context = acrobot.create_default_context()
    acrobot.get_input_port(0).fix_value(context, [0.0])
    context.set_continuous_state([np.pi, 0.0, 0.0, 0.0])
    controller = linear_quadratic_regulator(acrobot, context, np.diag([10.0, 10.0, 1.0, 1.0]),
                                            [1])
    # pydrake 1.51's LinearQuadraticRegulator(AcrobotPlant(), ...) gives D = -K:
    np.testing.assert_allclose(controller.D(), [[278.442231, 112.29126, 119.724574, 56.82824]],
                               rtol=1e-6)
