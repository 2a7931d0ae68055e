"""Compiled forms of the MultibodyPlant, InverseDynamicsController and TrajectorySource:
the Panda under PID or computed-torque control, compiled, equals the block-by-block
evaluation bit for bit."""

import numpy as np
from random_diagrams import (assert_bitwise_equal_at_random_states, compiled_and_plain,
                             prepared_context)
from robot_models import actuated_panda

from merganser.controllers import InverseDynamicsController, PidController
from merganser.framework import (ConstantVectorSource, DiagramBuilder, PiecewisePolynomial,
                                 Simulator, TrajectorySource)
from merganser.framework.compiled_diagram import (compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  unfuse_compiled_dynamics)


def pid_panda():
    builder = DiagramBuilder()
    plant = builder.add_named_system("panda", actuated_panda())
    n = plant.num_velocities()
    pid = builder.add_named_system("pid", PidController(np.full(n, 100.0), np.full(n, 1.0),
                                                        np.full(n, 20.0)))
    desired = builder.add_named_system(
        "desired", ConstantVectorSource(np.concatenate([np.full(n, 0.3), np.zeros(n)])))
    builder.connect(plant.get_state_output_port(), pid.get_input_port_estimated_state())
    builder.connect(desired.get_output_port(), pid.get_input_port_desired_state())
    builder.connect(pid.get_output_port_control(), plant.get_actuation_input_port())
    return builder.build(), plant


def trajectory(amplitude):
    t = np.linspace(0.0, 2.0, 21)
    q = 0.2 + amplitude * np.sin(np.outer(np.arange(1, 10), t))
    return PiecewisePolynomial.cubic_with_continuous_second_derivatives(t, q)


def tracking_panda(ki=0.0):
    builder = DiagramBuilder()
    plant = builder.add_named_system("panda", actuated_panda())
    source = builder.add_named_system("desired", TrajectorySource(trajectory(0.3), 1))
    n = plant.num_velocities()
    controller = builder.add_named_system("controller", InverseDynamicsController(
        actuated_panda(), np.full(n, 100.0), np.full(n, ki), np.full(n, 20.0), False))
    builder.connect(plant.get_state_output_port(), controller.get_input_port("estimated_state"))
    builder.connect(source.get_output_port(), controller.get_input_port("desired_state"))
    builder.connect(controller.get_output_port("actuation"), plant.get_actuation_input_port())
    return builder.build(), plant, source


def assert_equal_derivatives(diagram, fused, plain, rng, times=(0.0, 0.7, 3.0)):
    assert_bitwise_equal_at_random_states(diagram, fused, plain, rng, trials=1, scale=0.3,
                                          times=times)


def test_a_pid_controlled_panda_is_bitwise_equal_and_sees_a_mass_change():
    diagram, plant = pid_panda()
    fused, plain = compiled_and_plain(diagram)
    rng = np.random.default_rng(0)
    assert_equal_derivatives(diagram, fused, plain, rng)
    link = plant.get_body_by_name("panda_link4")
    for ctx in (fused, plain):
        link.set_mass(plant.get_my_context_from_root(ctx), 5.0)
    assert_equal_derivatives(diagram, fused, plain, rng)


def test_an_applied_force_input_leaves_the_plant_to_python():
    diagram, plant = pid_panda()
    fused, plain = compiled_and_plain(diagram)
    for ctx in (fused, plain):
        plant.get_applied_generalized_force_input_port().fix_value(
            plant.get_my_context_from_root(ctx), np.ones(plant.num_velocities()))
    assert_equal_derivatives(diagram, fused, plain, np.random.default_rng(3))
    status = compiled_dynamics_status(fused)
    assert len(status.python_systems) == 1
    assert "'applied_generalized_force' is connected or fixed" in status.reason


def test_computed_torque_tracking_is_bitwise_equal_and_follows_a_new_trajectory():
    diagram, plant, source = tracking_panda(ki=2.0)
    fused, plain = compiled_and_plain(diagram)
    rng = np.random.default_rng(1)
    assert_equal_derivatives(diagram, fused, plain, rng)
    source.update_trajectory(trajectory(-0.1))      # read again by the compiled diagram
    assert_equal_derivatives(diagram, fused, plain, rng, times=(0.4, 5.0))


def test_a_tracking_simulation_is_bitwise_equal():
    finals = []
    for compiled in (True, False):
        diagram, plant, source = tracking_panda()
        ctx = diagram.create_default_context()
        if compiled:
            assert compile_diagram_dynamics(diagram, ctx)
        else:
            unfuse_compiled_dynamics(ctx)
        simulator = Simulator(diagram, ctx)
        simulator.advance_to(0.5)
        finals.append((np.array(ctx.get_continuous_state_vector()).tobytes(),
                       simulator.get_integrator().get_num_derivative_evaluations()))
    assert finals[0] == finals[1]


def test_a_singular_mass_matrix_raises_the_plants_error_on_the_compiled_path():
    # the kernel's fast path fails on the massless link: the compiled call declines and the
    # plant's own path raises its error, as block by block
    import pytest

    from merganser.multibody import SingularDynamicsError

    diagram, plant = pid_panda()
    fused, plain = compiled_and_plain(diagram)
    assert compiled_dynamics_status(fused).path == "compiled"
    link = plant.get_body_by_name("panda_leftfinger")   # a prismatic leaf
    for ctx in (fused, plain):
        link.set_mass(plant.get_my_context_from_root(ctx), 0.0)    # and so its inertia
    for ctx in (plain, fused):
        with pytest.raises(SingularDynamicsError, match="panda_leftfinger"):
            diagram.eval_time_derivatives(ctx)


def actuated_double_pendulum(time_step):
    """Two links on revolute joints (damped), each with its actuator, in joint order."""
    from merganser.geometry import RigidTransform
    from merganser.multibody import (FixedOffsetFrame, MultibodyPlant, RevoluteJoint,
                                     SpatialInertia)

    plant = MultibodyPlant(time_step)
    parent = plant.world_frame()
    for k in range(2):
        link = plant.add_rigid_body(f"link{k}", SpatialInertia.make_from_central_inertia(
            1.0 + k, [0.0, 0.0, -0.5], np.diag([0.1, 0.1, 0.01])))
        joint = plant.add_joint(RevoluteJoint(f"joint{k}", parent, link.body_frame(),
                                              [0, 1, 0], damping=0.1))
        plant.add_joint_actuator(f"motor{k}", joint)
        parent = plant.add_frame(FixedOffsetFrame(f"tip{k}", link.body_frame(),
                                                  RigidTransform([0.0, 0.0, -1.0])))
    plant.finalize()
    return plant


def test_a_discrete_plant_under_pid_control_runs_compiled_and_bitwise_equal():
    """The discrete plant's contact-free step (v' = v̇ h + v, q' = q + h v') in the
    compiled simulation loop, with the continuous PidController and a logger."""
    from merganser.framework import log_vector_output

    results = []
    for compiled in (True, False):
        builder = DiagramBuilder()
        plant = builder.add_named_system("arm", actuated_double_pendulum(0.002))
        pid = builder.add_named_system("pid", PidController(
            np.full(2, 40.0), np.full(2, 1.0), np.full(2, 8.0)))
        desired = builder.add_named_system("desired",
                                           ConstantVectorSource([0.3, -0.2, 0.0, 0.0]))
        builder.connect(plant.get_state_output_port(), pid.get_input_port_estimated_state())
        builder.connect(desired.get_output_port(), pid.get_input_port_desired_state())
        builder.connect(pid.get_output_port_control(), plant.get_actuation_input_port())
        logger = log_vector_output(plant.get_state_output_port(), builder, publish_period=0.01)
        diagram = builder.build()
        ctx = prepared_context(diagram, compiled)
        status = compiled_dynamics_status(ctx)
        assert not compiled or (status.python_systems == () and status.python_events == ())
        simulator = Simulator(diagram, ctx)
        simulator.advance_to(3.0)
        log = logger.find_log(ctx)
        results.append((ctx.get_discrete_state_vector().tobytes(),
                        ctx.get_continuous_state_vector().tobytes(), log.data().tobytes(),
                        simulator.get_num_discrete_updates(), simulator.get_num_steps_taken()))
        q = plant.get_positions(plant.get_my_context_from_root(ctx))
    assert results[0] == results[1]
    assert results[0][3] == 1500
    assert np.all(np.abs(q - [0.3, -0.2]) < 0.15)     # near the set point (gravity sags it)
