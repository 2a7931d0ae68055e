"""PD-controlled actuators of a discrete plant (Drake's "Using PD controlled actuators"):
the implicit step against its closed-form recurrence, against the step computed by hand
from the plant's M and v̇ on the UR5, effort limits, disarmed controllers, locked
joints, the net actuation output, diagrams, and contact with every discrete solver."""

import pathlib

import numpy as np
import pytest

from merganser.framework import ConstantVectorSource, DiagramBuilder, Simulator
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import (
    MultibodyPlant, MultibodyPlantConfig, Parser, PdControllerGains, PrismaticJoint,
    SpatialInertia, add_multibody_plant,
)

H, MASS, KP, KD = 1e-3, 2.0, 100.0, 10.0
UR5 = (pathlib.Path(__file__).resolve().parents[1] / "data" / "models" / "example-robot-data"
       / "robots" / "ur_description" / "urdf" / "ur5_robot.urdf")


def _slider(time_step=H, effort_limit=np.inf, gains=(KP, KD), gravity=False):
    """A mass on a prismatic joint along x (z if `gravity`), one PD-controlled actuator."""
    plant = MultibodyPlant(time_step)
    body = plant.add_rigid_body("b", SpatialInertia.solid_box_with_mass(MASS, .1, .1, .1))
    axis = [0, 0, 1] if gravity else [1, 0, 0]
    joint = plant.add_joint(PrismaticJoint("x", plant.world_frame(), body.body_frame(), axis))
    actuator = plant.add_joint_actuator("a", joint, effort_limit)
    actuator.set_controller_gains(PdControllerGains(p=gains[0], d=gains[1]))
    if not gravity:
        plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    plant.finalize()
    return plant, joint, actuator


def test_implicit_step_follows_its_closed_form_recurrence():
    plant, _, _ = _slider()
    ctx = plant.create_default_context()
    qd, vd, u_ff = 1.0, 0.2, 3.0
    plant.get_desired_state_input_port(plant.default_model_instance()).fix_value(
        ctx, [qd, vd])
    plant.get_actuation_input_port().fix_value(ctx, [u_ff])
    q, v = 0.1, -0.3
    plant.set_positions(ctx, [q])
    plant.set_velocities(ctx, [v])
    sim = Simulator(plant, ctx)
    for n in range(1, 201):
        # m (v1 - v0) = h (-Kp (q0 + h v1 - qd) - Kd (v1 - vd) + u_ff), q1 = q0 + h v1
        v = (MASS * v + H * (-KP * (q - qd) + KD * vd + u_ff)) / (MASS + H * (H * KP + KD))
        u = -KP * (q + H * v - qd) - KD * (v - vd) + u_ff      # the step's actuation
        np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), [u],
                                   rtol=1e-12)
        q = q + H * v
        sim.advance_to(n * H)
    np.testing.assert_allclose(plant.get_positions(ctx), [q], rtol=1e-12)
    np.testing.assert_allclose(plant.get_velocities(ctx), [v], rtol=1e-12)


def test_slider_settles_where_the_controller_and_feedforward_balance():
    # at rest: -Kp (q - qd) + u_ff = 0
    plant, _, _ = _slider()
    ctx = plant.create_default_context()
    plant.get_desired_state_input_port(plant.default_model_instance()).fix_value(
        ctx, [0.5, 0.0])
    plant.get_actuation_input_port().fix_value(ctx, [10.0])
    Simulator(plant, ctx).advance_to(10.0)          # decay e^(-Kd t / 2m) = e^-25
    np.testing.assert_allclose(plant.get_positions(ctx), [0.5 + 10.0 / KP], atol=1e-9)
    np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), [0.0],
                               atol=1e-6)


def test_stiff_gains_stay_stable_in_the_implicit_step():
    # Kp h² / m = 50: explicit PD on the actuation input blows up, the implicit one not
    kp = 50.0 * MASS / H ** 2
    plant, _, _ = _slider(gains=(kp, 0.0))
    ctx = plant.create_default_context()
    plant.get_desired_state_input_port(plant.default_model_instance()).fix_value(
        ctx, [1.0, 0.0])
    Simulator(plant, ctx).advance_to(0.5)
    q = plant.get_positions(ctx)[0]
    assert abs(q - 1.0) < 0.05
    # the same gain applied explicitly (symplectic Euler on u = -Kp (q - 1)) diverges
    q_e, v_e = 0.0, 0.0
    for _ in range(20):
        v_e += H * (-kp * (q_e - 1.0)) / MASS
        q_e += H * v_e
    assert abs(q_e) > 1e6


def test_effort_limit_clamps_the_controller_and_the_feedforward():
    e = 5.0
    plant, _, _ = _slider(effort_limit=e)
    ctx = plant.create_default_context()
    port = plant.get_desired_state_input_port(plant.default_model_instance())
    port.fix_value(ctx, [10.0, 0.0])                 # far away: the controller saturates
    plant.get_actuation_input_port().fix_value(ctx, [2.0])
    np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), [e])
    Simulator(plant, ctx).advance_to(10 * H)
    # a constant force e: v = n h e / m, q = h² e / m n (n + 1) / 2
    np.testing.assert_allclose(plant.get_velocities(ctx), [10 * H * e / MASS], rtol=1e-12)
    np.testing.assert_allclose(plant.get_positions(ctx), [H * H * e / MASS * 55], rtol=1e-12)
    port.fix_value(ctx, [-10.0, 0.0])
    np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), [-e])


def test_disarmed_controller_leaves_the_feedforward_alone():
    plant, _, _ = _slider()
    ctx = plant.create_default_context()
    plant.get_actuation_input_port().fix_value(ctx, [4.0])
    plant.set_positions(ctx, [0.3])
    np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), [4.0])
    Simulator(plant, ctx).advance_to(10 * H)
    np.testing.assert_allclose(plant.get_velocities(ctx), [10 * H * 4.0 / MASS], rtol=1e-12)


def test_locked_joint_ignores_its_controller():
    plant, joint, _ = _slider()
    ctx = plant.create_default_context()
    plant.get_desired_state_input_port(plant.default_model_instance()).fix_value(
        ctx, [1.0, 0.0])
    plant.get_actuation_input_port().fix_value(ctx, [1.5])
    joint.lock(ctx)
    np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), [1.5])
    Simulator(plant, ctx).advance_to(10 * H)
    np.testing.assert_array_equal(plant.get_positions(ctx), [0.0])


def test_ur5_step_equals_the_implicit_step_computed_from_m_and_vdot():
    plant = MultibodyPlant(H)
    Parser(plant).add_models(str(UR5))
    indices = plant.get_joint_actuator_indices()
    assert len(indices) == 6
    nu = len(indices)
    kp = np.linspace(200.0, 50.0, nu)
    kd = np.linspace(20.0, 5.0, nu)
    for i, index in enumerate(indices):
        plant.get_joint_actuator(index).set_controller_gains(PdControllerGains(kp[i], kd[i]))
    plant.finalize()
    assert plant.num_positions() == plant.num_velocities()      # q and v indexed alike
    ctx = plant.create_default_context()
    rng = np.random.default_rng(3)
    nv = plant.num_velocities()
    q0, v0 = rng.uniform(-0.5, 0.5, nv) * 0.05, rng.uniform(-0.5, 0.5, nv) * 0.05
    qd, vd = rng.uniform(-0.02, 0.02, nu), rng.uniform(-0.5, 0.5, nu)
    u_ff = rng.uniform(-2, 2, nu)
    plant.set_positions(ctx, q0)
    plant.set_velocities(ctx, v0)
    plant.get_desired_state_input_port(plant.get_model_instance_by_name("ur5")).fix_value(
        ctx, np.concatenate([qd, vd]))
    plant.get_actuation_input_port().fix_value(ctx, u_ff)
    B = plant.make_actuation_matrix()
    M = plant.calc_mass_matrix(ctx)
    vdot = plant.calc_forward_dynamics(ctx)
    Dh = H * kp + kd
    # M (v1 - v0) = h (τ(u_ff) + B (-Kp (Bᵀ(q0 + h v1) - qd) - Kd (Bᵀ v1 - vd)))
    A = M + H * B @ np.diag(Dh) @ B.T
    rhs = M @ (v0 + H * vdot) + H * B @ (-kp * (B.T @ q0 - qd) + kd * vd)
    v1 = np.linalg.solve(A, rhs)
    u = -kp * (B.T @ (q0 + H * v1) - qd) - kd * (B.T @ v1 - vd) + u_ff
    assert np.all(np.abs(u) < plant.get_effort_upper_limits())    # no saturation here
    np.testing.assert_allclose(plant.get_net_actuation_output_port().eval(ctx), u,
                               rtol=1e-9, atol=1e-9)
    Simulator(plant, ctx).advance_to(H)
    np.testing.assert_allclose(plant.get_velocities(ctx), v1, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(plant.get_positions(ctx), q0 + H * v1, rtol=1e-12, atol=1e-14)


def test_desired_state_ports_per_instance_and_diagram_wiring():
    builder = DiagramBuilder()
    plant = builder.add_system(MultibodyPlant(H))
    instances = [plant.add_model_instance(name) for name in ("left", "right")]
    joints = []
    for mi in instances:
        body = plant.add_rigid_body("b", mi, SpatialInertia.solid_box_with_mass(
            MASS, .1, .1, .1))
        joints.append(plant.add_joint(PrismaticJoint(
            "x", plant.world_frame(), body.body_frame(), [1, 0, 0])))
        plant.add_joint_actuator("a", joints[-1]).set_controller_gains(
            PdControllerGains(KP, KD))
    plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    plant.finalize()
    for mi in instances:
        port = plant.get_desired_state_input_port(mi)
        assert port.size() == 2
        assert port.get_name() == f"{plant.get_model_instance_name(mi)}_desired_state"
    assert plant.get_desired_state_input_port(plant.world_model_instance()).size() == 0
    source = builder.add_system(ConstantVectorSource([0.25, 0.0]))
    builder.connect(source.get_output_port(), plant.get_desired_state_input_port(instances[0]))
    diagram = builder.build()
    context = diagram.create_default_context()
    Simulator(diagram, context).advance_to(8.0)          # decay e^(-Kd t / 2m) = e^-20
    pc = plant.get_my_context_from_root(context)
    q = plant.get_positions(pc)
    np.testing.assert_allclose(q, [0.25, 0.0], atol=1e-6)      # right: disarmed, at rest


def test_zero_gains_remove_the_controller():
    _, _, actuator = _slider(gains=(1.0, 1.0))
    assert actuator.has_controller()
    plant2 = MultibodyPlant(H)
    body = plant2.add_rigid_body("b", SpatialInertia.solid_box_with_mass(1, .1, .1, .1))
    joint = plant2.add_joint(PrismaticJoint("x", plant2.world_frame(), body.body_frame(),
                                            [1, 0, 0]))
    a = plant2.add_joint_actuator("a", joint)
    a.set_controller_gains(PdControllerGains(1.0, 0.0))
    a.set_controller_gains(PdControllerGains(0.0, 0.0))
    assert not a.has_controller()


def _pressing_finger(approximation):
    """A 1 kg ball on a vertical slider, its controller aiming 5 cm under the ground."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=H, contact_model="point", discrete_contact_approximation=approximation),
        builder)
    friction = CoulombFriction(0.5, 0.5)
    # the slider hangs from a rail welded to the world (a joint's own parent and child
    # do not collide, as in Drake)
    rail = plant.add_rigid_body("rail", SpatialInertia.solid_sphere_with_mass(1.0, 0.05))
    plant.weld_frames(plant.world_frame(), rail.body_frame(), RigidTransform([0, 0, 1.0]))
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.05))
    joint = plant.add_joint(PrismaticJoint("z", rail.body_frame(), ball.body_frame(),
                                           [0, 0, 1]))
    plant.add_joint_actuator("a", joint).set_controller_gains(PdControllerGains(200.0, 20.0))
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.05), "ball", friction)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    plant.finalize()
    diagram = builder.build()
    context = diagram.create_default_context()
    pc = plant.get_my_context_from_root(context)
    plant.set_positions(pc, [-0.9])
    plant.get_desired_state_input_port(plant.default_model_instance()).fix_value(
        pc, [-1.0, 0.0])
    return plant, diagram, context, pc


@pytest.mark.parametrize("approximation", ["sap", "similar", "lagged", "tamsi", "lcp"])
def test_controller_pressing_on_the_ground_balances_contact_and_gravity(approximation):
    plant, diagram, context, pc = _pressing_finger(approximation)
    Simulator(diagram, context).advance_to(2.0)
    u = plant.get_net_actuation_output_port().eval(pc)
    tau_c = plant.get_generalized_contact_forces_output_port(
        plant.default_model_instance()).eval(pc)
    tau_g = plant.calc_gravity_generalized_forces(pc)
    # at rest: u + contact + gravity = 0, u = -Kp (q - q_d), the ball near z = 1 + q = r
    np.testing.assert_allclose(u + tau_c + tau_g, [0.0], atol=1e-3)
    q = plant.get_positions(pc)[0]
    np.testing.assert_allclose(u, [-200.0 * (q + 1.0)], rtol=1e-3, atol=1e-6)
    assert 0.04 < 1.0 + q < 0.051
    assert tau_c[0] > 0.0
