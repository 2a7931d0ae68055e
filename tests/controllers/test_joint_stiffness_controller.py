"""JointStiffnessController: the control law (gravity and damping cancelled), the closed
loop settling exactly at the set point, ports and errors."""

import numpy as np
import pytest
from controller_models import make_acrobot, make_double_pendulum

from merganser.controllers import JointStiffnessController
from merganser.framework import ConstantVectorSource, DiagramBuilder, SimulatorConfig


def _output(controller, x, x_d, port="generalized_force"):
    context = controller.create_default_context()
    controller.get_input_port("estimated_state").fix_value(context, x)
    controller.get_input_port("desired_state").fix_value(context, x_d)
    return controller.get_output_port(port).eval(context)


def test_output_is_gravity_compensation_plus_spring_damper():
    damping = np.array([0.3, 0.2])
    plant = make_double_pendulum(damping=tuple(damping))
    kp, kd = np.array([10.0, 20.0]), np.array([1.0, 3.0])
    controller = JointStiffnessController(plant, kp, kd)
    x, x_d = np.array([0.2, -0.4, 1.0, -2.0]), np.array([0.5, 0.5, 0.0, 0.1])
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    tau_g = plant.calc_gravity_generalized_forces(context)
    expected = -tau_g + damping * x[2:] + kp * (x_d[:2] - x[:2]) + kd * (x_d[2:] - x[2:])
    np.testing.assert_allclose(_output(controller, x, x_d), expected, atol=1e-12)
    np.testing.assert_allclose(_output(controller, x, x_d, "actuation"), expected, atol=1e-12)
    # No Coriolis term: the output does not depend on v except through kd and damping.
    x2 = x.copy()
    x2[2:] = 0.0
    np.testing.assert_allclose(_output(controller, x2, x_d),
                               -tau_g + kp * (x_d[:2] - x[:2]) + kd * x_d[2:], atol=1e-12)


def test_kernel_path_equals_the_plant_api_path():
    plant = make_double_pendulum(damping=(0.3, 0.2))
    fast = JointStiffnessController(plant, [10.0, 20.0], [1.0, 3.0])
    slow = JointStiffnessController(plant, [10.0, 20.0], [1.0, 3.0])
    slow._model.use_plant_api()
    assert fast._model.uses_kernel_path()
    x, x_d = np.array([0.2, -0.4, 1.0, -2.0]), np.array([0.5, 0.5, 0.0, 0.1])
    np.testing.assert_allclose(_output(fast, x, x_d), _output(slow, x, x_d), atol=1e-12)


def test_closed_loop_settles_at_the_set_point():
    robot = make_double_pendulum()
    builder = DiagramBuilder()
    plant = builder.add_system(make_double_pendulum())
    controller = builder.add_system(JointStiffnessController(robot, [50.0, 30.0], [15.0, 10.0]))
    set_point = np.array([1.0, -0.5, 0.0, 0.0])
    target = builder.add_system(ConstantVectorSource(set_point))
    builder.connect(plant.get_state_output_port(), controller.get_input_port(0))
    builder.connect(target.get_output_port(), controller.get_input_port(1))
    builder.connect(controller.get_output_port("actuation"), plant.get_actuation_input_port())
    diagram = builder.build()
    result = diagram.simulate(8.0, config=SimulatorConfig(accuracy=1e-6))
    x = plant.get_positions_and_velocities(plant.get_my_context_from_root(result.context))
    np.testing.assert_allclose(x, set_point, atol=1e-4)


def test_ports_as_drake():
    controller = JointStiffnessController(make_double_pendulum(), 1.0, 1.0)
    assert [controller.get_input_port(i).get_name() for i in range(2)] == [
        "estimated_state", "desired_state"]
    assert controller.get_output_port(0).get_name() == "actuation"
    assert controller.has_direct_feedthrough(0, 0) and controller.has_direct_feedthrough(1, 0)


def test_errors():
    with pytest.raises(ValueError, match="JointStiffnessController: the robot must be fully "
                                         "actuated, but the plant has 2 velocities"):
        JointStiffnessController(make_acrobot(), 1.0, 1.0)
    with pytest.raises(ValueError, match="kp has size 3, expected nq = 2"):
        JointStiffnessController(make_double_pendulum(), [1.0, 2.0, 3.0], 1.0)
