"""InverseDynamicsController: the computed-torque law, the critically damped error of a
double pendulum (closed form), tracking without the reference acceleration, the integral
term, equivalence with Drake's diagram of PidController + Adder + InverseDynamics, and
errors (under-actuated robot, gains, port sizes)."""

import pickle

import numpy as np
import pytest
from controller_models import make_acrobot, make_double_pendulum

from merganser.controllers import InverseDynamics, InverseDynamicsController, PidController
from merganser.framework import (Adder, DiagramBuilder, DiagramBuildError, PiecewisePolynomial,
                       SimulatorConfig, TrajectorySource, log_vector_output)
from merganser.geometry import RigidTransform
from merganser.multibody import FixedOffsetFrame, MultibodyPlant, RevoluteJoint, SpatialInertia

KP, KD = 100.0, 20.0
DAMPING = (0.1, 0.2)


def _reference():
    """A smooth joint trajectory on [0, 3] s: cubic spline through sinusoid samples."""
    t = np.linspace(0.0, 3.0, 61)
    samples = np.vstack([0.5 * np.sin(2 * t), 0.3 * np.cos(3 * t) - 0.3])
    return PiecewisePolynomial.cubic_with_continuous_second_derivatives(t, samples)


def _track(with_reference_acceleration, e0, robot_masses=(1.0, 1.0), ki=0.0, t_final=3.0):
    """Simulate the double pendulum under the controller; returns (times, errors (2, N))."""
    traj = _reference()
    robot = make_double_pendulum(masses=robot_masses, damping=DAMPING)
    builder = DiagramBuilder()
    plant = builder.add_system(make_double_pendulum(damping=DAMPING))
    desired = builder.add_system(TrajectorySource(traj, output_derivative_order=1))
    controller = builder.add_system(
        InverseDynamicsController(robot, KP, ki, KD, with_reference_acceleration))
    builder.connect(plant.get_state_output_port(), controller.get_input_port("estimated_state"))
    builder.connect(desired.get_output_port(), controller.get_input_port("desired_state"))
    if with_reference_acceleration:
        acceleration = builder.add_system(TrajectorySource(traj.make_derivative(2)))
        builder.connect(acceleration.get_output_port(),
                        controller.get_input_port("desired_acceleration"))
    builder.connect(controller.get_output_port("actuation"), plant.get_actuation_input_port())
    log = log_vector_output(plant.get_state_output_port(), builder, publish_period=0.01)
    diagram = builder.build()
    context = diagram.create_default_context()
    x0 = np.concatenate([traj.value(0.0).ravel() - e0, traj.eval_derivative(0.0, 1).ravel()])
    plant.set_positions_and_velocities(plant.get_my_context_from_root(context), x0)
    result = diagram.simulate(t_final, context=context,
                              config=SimulatorConfig(accuracy=1e-7, max_step_size=0.01))
    data = log.find_log(result.context)
    times = data.sample_times()
    q = data.data()[:2]
    q_d = np.hstack([traj.value(t) for t in times])
    return times, q_d - q


def test_error_is_critically_damped_with_reference_acceleration():
    e0 = np.array([0.1, -0.05])
    times, error = _track(True, e0)
    # ë + kd ė + kp e = 0 with kd = 2 √kp = 20, e(0) = e0, ė(0) = 0.
    closed_form = np.outer(e0, (1.0 + 10.0 * times) * np.exp(-10.0 * times))
    deviation = np.max(np.abs(error - closed_form), axis=1) / np.abs(e0)
    assert np.all(deviation < 0.01), deviation
    assert np.all(deviation < 1e-4)        # in fact the model is exact


def test_without_reference_acceleration_the_tracking_error_is_larger():
    e0 = np.array([0.1, -0.05])
    times_ff, error_ff = _track(True, e0)
    times_fb, error_fb = _track(False, e0)
    late = times_fb > 1.5
    steady_ff = np.max(np.abs(error_ff[:, late]), axis=1)
    steady_fb = np.max(np.abs(error_fb[:, late]), axis=1)
    print(f"steady tracking error (t > 1.5 s), rad: with reference acceleration "
          f"{steady_ff}, without {steady_fb}")
    assert np.all(steady_fb > 100 * steady_ff)
    # Without feedforward ë + kd ė + kp e = q̈_d: the error is about |q̈_d| / kp, here
    # q̈_d peaks at 2 rad/s² (joint 1) and 2.7 rad/s² (joint 2).
    assert np.all(steady_fb > 0.005) and np.all(steady_fb < 0.05)


def test_integral_term_removes_the_error_of_a_wrong_mass_model():
    e0 = np.zeros(2)
    hold = PiecewisePolynomial(np.array([[0.4], [-0.6]]))
    results = {}
    for ki in (0.0, 200.0):
        robot = make_double_pendulum(masses=(1.0, 0.8), damping=DAMPING)
        builder = DiagramBuilder()
        plant = builder.add_system(make_double_pendulum(damping=DAMPING))
        desired = builder.add_system(TrajectorySource(hold, output_derivative_order=1))
        controller = builder.add_system(InverseDynamicsController(robot, KP, ki, KD, False))
        builder.connect(plant.get_state_output_port(), controller.get_input_port(0))
        builder.connect(desired.get_output_port(), controller.get_input_port(1))
        builder.connect(controller.get_output_port("generalized_force"),
                        plant.get_applied_generalized_force_input_port())
        diagram = builder.build()
        context = diagram.create_default_context()
        plant.set_positions(plant.get_my_context_from_root(context), [0.4, -0.6] - e0)
        result = diagram.simulate(4.0, context=context)
        q = plant.get_positions(plant.get_my_context_from_root(result.context))
        results[ki] = np.abs(q - [0.4, -0.6])
    assert np.max(results[0.0]) > 0.01          # the model's gravity is 20 % light
    assert np.max(results[200.0]) < 1e-3


def test_discrete_plant_follows_the_closed_form_too():
    e0 = np.array([0.1, -0.05])
    traj = _reference()
    builder = DiagramBuilder()
    plant = builder.add_system(make_double_pendulum(time_step=1e-3, damping=DAMPING))
    desired = builder.add_system(TrajectorySource(traj, output_derivative_order=1))
    acceleration = builder.add_system(TrajectorySource(traj.make_derivative(2)))
    controller = builder.add_system(InverseDynamicsController(
        make_double_pendulum(damping=DAMPING), KP, 0.0, KD, True))
    builder.connect(plant.get_state_output_port(), controller.get_input_port(0))
    builder.connect(desired.get_output_port(), controller.get_input_port(1))
    builder.connect(acceleration.get_output_port(), controller.get_input_port(2))
    builder.connect(controller.get_output_port(0), plant.get_actuation_input_port())
    diagram = builder.build()
    assert diagram.num_continuous_states() == 0          # ki = 0: no integral state
    context = diagram.create_default_context()
    x0 = np.concatenate([traj.value(0.0).ravel() - e0, traj.eval_derivative(0.0, 1).ravel()])
    plant.set_positions_and_velocities(plant.get_my_context_from_root(context), x0)
    for t in (0.1, 0.3, 1.0):
        result = diagram.simulate(t, context=context)
        q = plant.get_positions(plant.get_my_context_from_root(result.context))
        error = traj.value(t).ravel() - q
        closed_form = e0 * (1.0 + 10.0 * t) * np.exp(-10.0 * t)
        np.testing.assert_allclose(error, closed_form, atol=0.01 * np.abs(e0).min())


def test_outputs_are_inverse_dynamics_of_the_pid_acceleration():
    robot = make_double_pendulum(damping=DAMPING)
    kp, ki, kd = np.array([3.0, 4.0]), np.array([0.5, 0.25]), np.array([1.0, 2.0])
    controller = InverseDynamicsController(robot, kp, ki, kd, True)
    x, x_d = np.array([0.1, 0.2, -0.3, 0.4]), np.array([0.5, -0.5, 0.0, 1.0])
    vdot_d, z = np.array([0.7, -0.2]), np.array([0.3, 0.1])
    context = controller.create_default_context()
    controller.get_input_port("estimated_state").fix_value(context, x)
    controller.get_input_port("desired_state").fix_value(context, x_d)
    controller.get_input_port("desired_acceleration").fix_value(context, vdot_d)
    controller.set_integral_value(context, z)
    vdot = kp * (x_d[:2] - x[:2]) + kd * (x_d[2:] - x[2:]) + ki * z + vdot_d
    plant_context = robot.create_default_context()
    robot.set_positions_and_velocities(plant_context, x)
    expected = (robot.calc_mass_matrix(plant_context) @ vdot
                + robot.calc_bias_term(plant_context)
                - robot.calc_gravity_generalized_forces(plant_context)
                + np.array(DAMPING) * x[2:])
    np.testing.assert_allclose(controller.get_output_port("generalized_force").eval(context),
                               expected, atol=1e-12)
    np.testing.assert_allclose(controller.get_output_port("actuation").eval(context), expected,
                               atol=1e-12)
    np.testing.assert_allclose(controller.eval_time_derivatives(context), x_d[:2] - x[:2])


def test_same_output_as_drakes_diagram_of_pid_adder_and_inverse_dynamics():
    robot = make_double_pendulum(damping=DAMPING)
    kp, ki, kd = [3.0, 4.0], [0.5, 0.25], [1.0, 2.0]
    builder = DiagramBuilder()
    pid = builder.add_system(PidController(kp, ki, kd))
    adder = builder.add_system(Adder(2, 2))
    inverse_dynamics = builder.add_system(InverseDynamics(robot))
    builder.connect(pid.get_output_port(), adder.get_input_port(0))
    builder.connect(adder.get_output_port(), inverse_dynamics.get_input_port(1))
    builder.export_input(pid.get_input_port(0), "estimated_state")
    builder.connect_input("estimated_state", inverse_dynamics.get_input_port(0))
    builder.export_input(pid.get_input_port(1), "desired_state")
    builder.export_input(adder.get_input_port(1), "desired_acceleration")
    builder.export_output(inverse_dynamics.get_output_port(), "generalized_force")
    reference = builder.build()
    controller = InverseDynamicsController(robot, kp, ki, kd, True)
    inputs = [np.array([0.1, 0.2, -0.3, 0.4]), np.array([0.5, -0.5, 0.0, 1.0]), [0.7, -0.2]]
    outputs = []
    for system in (reference, controller):
        context = system.create_default_context()
        context.set_continuous_state([0.3, 0.1])
        for i, value in enumerate(inputs):
            system.get_input_port(i).fix_value(context, value)
        outputs.append(system.get_output_port("generalized_force").eval(context))
    np.testing.assert_allclose(outputs[1], outputs[0], atol=1e-12)


def test_ports_and_feedthrough_as_drake():
    controller = InverseDynamicsController(make_double_pendulum(), KP, 0.0, KD, False)
    assert [controller.get_input_port(i).get_name() for i in range(2)] == [
        "estimated_state", "desired_state"]
    assert [controller.get_output_port(i).get_name() for i in range(2)] == [
        "actuation", "generalized_force"]
    with pytest.raises(RuntimeError, match="has_reference_acceleration=False"):
        controller.get_input_port_desired_acceleration()
    for i in range(2):
        for j in range(2):
            assert controller.has_direct_feedthrough(i, j)
    assert controller.get_multibody_plant_for_control().num_positions() == 2


def test_actuation_follows_the_actuator_order():
    plant = MultibodyPlant(0.0)
    frame = plant.world_frame()
    joints = []
    for k in (1, 2):
        link = plant.add_rigid_body(f"link{k}", SpatialInertia.point_mass(1.0, [0, 0, -1.0]))
        joints.append(plant.add_joint(RevoluteJoint(f"joint{k}", frame, link.body_frame(),
                                                    [0, 1, 0])))
        frame = plant.add_frame(FixedOffsetFrame(f"tip{k}", link.body_frame(),
                                                 RigidTransform([0.0, 0.0, -1.0])))
    plant.add_joint_actuator("motor2", joints[1])          # actuator 0 drives joint 2
    plant.add_joint_actuator("motor1", joints[0])
    plant.finalize()
    controller = InverseDynamicsController(plant, KP, 0.0, KD, False)
    context = controller.create_default_context()
    controller.get_input_port(0).fix_value(context, [0.3, 0.2, 0.0, 0.0])
    controller.get_input_port(1).fix_value(context, np.zeros(4))
    tau = controller.get_output_port("generalized_force").eval(context)
    np.testing.assert_allclose(controller.get_output_port("actuation").eval(context), tau[::-1])


def test_under_actuated_robot_is_rejected_with_the_counts():
    with pytest.raises(ValueError, match=r"InverseDynamicsController: the robot must be fully "
                                         r"actuated, but the plant has 2 velocities \(and 2 "
                                         r"positions\) and 1 actuators"):
        InverseDynamicsController(make_acrobot(), KP, 0.0, KD, False)
    with pytest.raises(RuntimeError, match="has 2 velocities .* and 1 actuators"):
        InverseDynamicsController(make_double_pendulum(actuated=(True, False)), KP, 0.0, KD,
                                  False)


def test_gain_and_port_size_errors():
    robot = make_double_pendulum()
    with pytest.raises(ValueError, match="InverseDynamicsController: kd has size 3, expected "
                                         "nq = 2"):
        InverseDynamicsController(robot, KP, 0.0, [1.0, 2.0, 3.0], False)
    controller = InverseDynamicsController(robot, KP, 0.0, KD, True)
    builder = DiagramBuilder()
    builder.add_system(controller)
    acrobot = builder.add_system(make_acrobot())
    with pytest.raises(DiagramBuildError, match="output port 'actuation' of system .* has size 2 "
                                                "but input port 'actuation'"):
        builder.connect(controller.get_output_port("actuation"),
                        acrobot.get_actuation_input_port())
    with pytest.raises(DiagramBuildError, match="has size 3 but input port "
                                                "'desired_acceleration'"):
        source = builder.add_system(TrajectorySource(PiecewisePolynomial(np.zeros((3, 1)))))
        builder.connect(source.get_output_port(), controller.get_input_port(2))


def test_controller_and_context_survive_pickling():
    controller = InverseDynamicsController(make_double_pendulum(damping=DAMPING), KP, 1.0, KD,
                                           True)
    context = controller.create_default_context()
    for i, value in enumerate(([0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0])):
        controller.get_input_port(i).fix_value(context, value)
    controller.set_integral_value(context, [0.2, -0.1])
    tau = np.array(controller.get_output_port("generalized_force").eval(context))
    copy, copy_context = pickle.loads(pickle.dumps((controller, context)))
    np.testing.assert_array_equal(copy.get_output_port("generalized_force").eval(copy_context),
                                  tau)
