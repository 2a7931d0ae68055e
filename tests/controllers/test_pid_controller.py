"""PidController: the control law with and without projections, the integral state, its
ports and feedthrough, argument errors, and Drake's pendulum under PID control (the
figures Drake 1.51 gives for the same setup)."""

import numpy as np
import pytest
from controller_models import PENDULUM_URDF, load_plant, make_pendulum, parser_available

from merganser.controllers import PidController
from merganser.framework import (ConstantVectorSource, DiagramBuilder, DiagramBuildError, PortError,
                       Simulator, SimulatorConfig, apply_simulator_config)

KP, KI, KD = np.array([2.0, 3.0]), np.array([0.5, 0.7]), np.array([0.1, 0.2])


def _fixed(pid, x, x_d, z=None):
    context = pid.create_default_context()
    pid.get_input_port_estimated_state().fix_value(context, x)
    pid.get_input_port_desired_state().fix_value(context, x_d)
    if z is not None:
        pid.set_integral_value(context, z)
    return context


def test_control_is_pid_of_the_state_error():
    pid = PidController(KP, KI, KD)
    x, x_d, z = np.array([0.1, 0.2, 0.3, 0.4]), np.array([1.0, -1.0, 0.5, 0.0]), [0.3, -0.2]
    context = _fixed(pid, x, x_d, z)
    expected = KP * (x_d[:2] - x[:2]) + KD * (x_d[2:] - x[2:]) + KI * np.array(z)
    np.testing.assert_allclose(pid.get_output_port_control().eval(context), expected, rtol=1e-15)
    np.testing.assert_allclose(pid.eval_time_derivatives(context), x_d[:2] - x[:2], rtol=1e-15)


def test_integral_state_starts_at_zero():
    pid = PidController([1.0], [1.0], [1.0])
    context = _fixed(pid, [0.0, 0.0], [2.0, 0.0])
    np.testing.assert_array_equal(context.get_continuous_state_vector(), [0.0])
    np.testing.assert_allclose(pid.get_output_port().eval(context), [2.0])


def test_state_and_output_projections():
    # The full state is [q0, q1, q2, v0, v1, v2]; control q1 only; the output drives
    # inputs 0 and 2 of a 3-input plant with gains 1 and -2.
    P_x = np.zeros((2, 6))
    P_x[0, 1] = P_x[1, 4] = 1.0
    P_y = np.array([[1.0], [0.0], [-2.0]])
    pid = PidController(P_x, P_y, [4.0], [1.0], [0.5])
    x = np.array([9.0, 0.25, 9.0, 9.0, -1.0, 9.0])
    context = _fixed(pid, x, [1.0, 0.0], [0.2])
    u = 4.0 * 0.75 + 0.5 * 1.0 + 1.0 * 0.2
    np.testing.assert_allclose(pid.get_output_port().eval(context), [u, 0.0, -2.0 * u])
    np.testing.assert_allclose(pid.eval_time_derivatives(context), [0.75])
    assert pid.get_input_port_estimated_state().size() == 6
    assert pid.get_output_port_control().size() == 3


def test_four_argument_form_uses_identity_output_projection():
    P_x = np.eye(4)[[1, 0, 3, 2]]            # swap the two coordinates
    pid = PidController(P_x, KP, KI, KD)
    x, x_d = np.array([0.1, 0.2, 0.3, 0.4]), np.zeros(4)
    context = _fixed(pid, x, x_d)
    expected = -KP * x[[1, 0]] - KD * x[[3, 2]]
    np.testing.assert_allclose(pid.get_output_port().eval(context), expected)
    np.testing.assert_array_equal(pid.get_output_projection(), np.eye(2))


def test_ports_and_direct_feedthrough_as_drake():
    pid = PidController(KP, KI, KD)
    assert [pid.get_input_port(i).get_name() for i in range(2)] == [
        "estimated_state", "desired_state"]
    assert pid.get_output_port().get_name() == "control"
    assert pid.has_direct_feedthrough(0, 0) and pid.has_direct_feedthrough(1, 0)
    np.testing.assert_array_equal(pid.get_Kp_vector(), KP)
    np.testing.assert_array_equal(pid.get_Ki_vector(), KI)
    np.testing.assert_array_equal(pid.get_Kd_vector(), KD)
    assert PidController(kp=2.0, ki=0.0, kd=1.0).get_Kp_singleton() == 2.0


def test_gain_and_projection_errors_name_the_sizes():
    with pytest.raises(ValueError, match=r"PidController: gains must have equal sizes, got "
                                         r"\|kp\| = 2, \|ki\| = 2, \|kd\| = 1"):
        PidController(KP, KI, [1.0])
    with pytest.raises(ValueError, match=r"state_projection has shape \(3, 4\), expected "
                                         r"\(4, any\)"):
        PidController(np.zeros((3, 4)), KP, KI, KD)
    with pytest.raises(ValueError, match=r"output_projection has shape \(2, 3\), expected "
                                         r"\(any, 2\)"):
        PidController(np.eye(4), np.zeros((2, 3)), KP, KI, KD)
    with pytest.raises(TypeError, match="got 2 positional arguments"):
        PidController(KP, KI)
    with pytest.raises(TypeError, match="missing gain"):
        PidController(kp=KP, ki=KI)
    with pytest.raises(ValueError, match="kd must be finite"):
        PidController([1.0], [1.0], [np.nan])
    with pytest.raises(RuntimeError, match="get_Kp_singleton: the controller has 2 gains"):
        PidController(KP, KI, KD).get_Kp_singleton()


def test_wrong_port_sizes_are_rejected():
    pid = PidController([1.0], [1.0], [1.0])
    context = pid.create_default_context()
    with pytest.raises(PortError, match="has size 2, got a value of size 3"):
        pid.get_input_port("desired_state").fix_value(context, [1.0, 2.0, 3.0])
    builder = DiagramBuilder()
    builder.add_system(pid)
    source = builder.add_system(ConstantVectorSource(np.zeros(4)))
    with pytest.raises(DiagramBuildError, match="has size 4 but input port 'estimated_state'"):
        builder.connect(source.get_output_port(), pid.get_input_port("estimated_state"))


def _pendulum_under_pid(plant):
    builder = DiagramBuilder()
    builder.add_system(plant)
    pid = builder.add_system(PidController(kp=[40.0], ki=[10.0], kd=[8.0]))
    target = builder.add_system(ConstantVectorSource([np.pi / 2, 0.0]))
    builder.connect(plant.get_state_output_port(), pid.get_input_port("estimated_state"))
    builder.connect(target.get_output_port(), pid.get_input_port("desired_state"))
    builder.connect(pid.get_output_port("control"), plant.get_actuation_input_port())
    simulator = Simulator(builder.build())
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-6,
                                           max_step_size=0.01), simulator)
    plant_context = plant.get_my_context_from_root(simulator.get_context())
    pid_context = pid.get_my_context_from_root(simulator.get_context())
    simulator.advance_to(1.0)
    theta_1 = plant.get_positions(plant_context)[0]
    simulator.advance_to(10.0)
    theta_10 = plant.get_positions(plant_context)[0]
    return theta_1, theta_10, pid.get_output_port().eval(pid_context)[0]


def _check_drake_pendulum_figures(plant):
    theta_1, theta_10, control = _pendulum_under_pid(plant)
    m, g, l = 1.0, 9.81, 0.5          # arm 0.5 kg + welded arm_com 0.5 kg, both at 0.5 m
    assert abs(theta_1 - 1.5281) < 1e-3
    assert abs(theta_10 - 1.5673) < 1e-3
    # At rest the integral term holds the arm against gravity: u = m g l sin θ ≈ m g l.
    assert control == pytest.approx(m * g * l, rel=1e-3)
    assert control == pytest.approx(m * g * l * np.sin(theta_10), rel=1e-4)


def test_drake_pendulum_under_pid_matches_drake():
    _check_drake_pendulum_figures(make_pendulum())


@pytest.mark.skipif(not parser_available(), reason="multibody.Parser not available yet")
def test_drake_pendulum_from_urdf_under_pid_matches_drake():
    _check_drake_pendulum_figures(load_plant(PENDULUM_URDF))


def test_zero_integral_gain_declares_no_integral_state():
    pid = PidController(KP, [0.0, 0.0], KD)
    assert pid.num_continuous_states() == 0
    x, x_d = np.array([0.1, 0.2, 0.3, 0.4]), np.array([1.0, -1.0, 0.5, 0.0])
    context = _fixed(pid, x, x_d)
    np.testing.assert_allclose(pid.get_output_port().eval(context),
                               KP * (x_d[:2] - x[:2]) + KD * (x_d[2:] - x[2:]))
    with pytest.raises(RuntimeError, match="every ki is zero"):
        pid.set_integral_value(context, [0.0, 0.0])
