"""BatchedPlant: N envs stepped in one parallel kernel match N serial simulations of the
plant (the discrete plant's semi-implicit Euler step, the framework's fixed-step
Runge-Kutta), with per-env state, actuation and body parameters; quaternions stay
normalized; the result does not depend on the number of threads."""

import numpy as np
import pytest
from batched_helpers import states_for_each_thread_count

from merganser.framework import (DiagramBuilder, LeafSystem, Simulator, SimulatorConfig,
                       apply_simulator_config)
from merganser.geometry import CoulombFriction, RigidTransform, RollPitchYaw, RotationMatrix, Sphere
from merganser.multibody.batched import BATCHED_INTEGRATION_SCHEMES, BatchedPlant
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant, add_multibody_plant_scene_graph
from merganser.multibody.tree import (
    LinearSpringDamper, PdControllerGains, PrismaticJoint, QuaternionFloatingJoint,
    RevoluteJoint,
)

H = 1e-3
LENGTH = 0.8


def pendulum(time_step=H, damping=0.15):
    """A bob (mass 1) LENGTH below a damped, actuated pivot about world y."""
    plant = MultibodyPlant(time_step)
    bob = plant.add_rigid_body("bob", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, -LENGTH], np.diag([2e-3, 2e-3, 2e-3])))
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0, 1, 0], damping=damping))
    plant.add_joint_actuator("pivot", joint)
    plant.finalize()
    return plant, bob


def chain(time_step=H):
    """revolute (actuated) - prismatic (not actuated) - revolute (actuated), damped."""
    plant = MultibodyPlant(time_step)
    links = [plant.add_rigid_body(f"link{i}", SpatialInertia.make_from_central_inertia(
        0.5 + 0.3 * i, [0.05 * i, 0.0, -0.3], np.diag([0.01, 0.012 + 0.001 * i, 0.008])))
        for i in range(3)]
    j0 = plant.add_joint(RevoluteJoint("j0", plant.world_frame(), links[0].body_frame(),
                                       [0, 1, 0], damping=0.2))
    plant.add_joint(PrismaticJoint("j1", links[0].body_frame(), links[1].body_frame(),
                                   [0, 0, 1], damping=0.5))
    j2 = plant.add_joint(RevoluteJoint("j2", links[1].body_frame(), links[2].body_frame(),
                                       [1, 0, 0], damping=0.05))
    plant.add_joint_actuator("a2", j2)        # actuator order differs from joint order
    plant.add_joint_actuator("a0", j0)
    plant.finalize()
    return plant, links


def free_body(time_step=H):
    plant = MultibodyPlant(time_step)
    body = plant.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        3.0, [0.02, -0.01, 0.05],
        np.array([[0.05, 0.004, 0.0], [0.004, 0.12, -0.006], [0.0, -0.006, 0.16]])))
    plant.add_joint(QuaternionFloatingJoint("free", plant.world_frame(), body.body_frame(),
                                            angular_damping=0.01, translational_damping=0.1))
    plant.finalize()
    return plant, body


def simulate_serially(plant, x0, u, set_parameters, num_steps, config=None):
    """One Simulator run per env; returns the final states (N, nx)."""
    out = np.empty_like(x0)
    for e in range(x0.shape[0]):
        context = plant.create_default_context()
        plant.set_positions_and_velocities(context, x0[e])
        set_parameters(context, e)
        if plant.num_actuators():
            plant.get_actuation_input_port().fix_value(context, u[e])
        simulator = Simulator(plant, context)
        if config is not None:
            apply_simulator_config(config, simulator)
        simulator.advance_to(num_steps * H)
        if plant.is_discrete():
            assert simulator.get_num_discrete_updates() == num_steps
        out[e] = plant.get_positions_and_velocities(context)
    return out


def test_batched_rollouts_of_1000_pendulums_match_1000_serial_simulations():
    plant, bob = pendulum()
    n, steps = 1000, 100
    rng = np.random.default_rng(0)
    x0 = np.column_stack([rng.uniform(-2.5, 2.5, n), rng.uniform(-2.0, 2.0, n)])
    u = rng.uniform(-3.0, 3.0, (n, 1))
    mass = rng.uniform(0.3, 3.0, n)
    envs = BatchedPlant(plant, n)
    assert envs.integration_scheme() == "semi_explicit_euler" and envs.time_step() == H
    envs.set_state(x0)
    envs.set_body_masses(bob, mass)
    envs.step(u, num_steps=steps)
    serial = simulate_serially(plant, x0, u, lambda ctx, e: bob.set_mass(ctx, mass[e]), steps)
    np.testing.assert_allclose(envs.get_state(), serial, rtol=0, atol=1e-12)
    assert envs.get_time() == pytest.approx(steps * H)
    # The envs really differ: masses, states and torques spread the final angles.
    assert np.std(serial[:, 0]) > 0.5


def test_stepping_one_at_a_time_equals_stepping_many():
    plant, bob = pendulum()
    rng = np.random.default_rng(1)
    x0 = rng.uniform(-1, 1, (7, 2))
    a, b = BatchedPlant(plant, 7), BatchedPlant(plant, 7)
    a.set_state(x0)
    b.set_state(x0)
    a.step([0.4], num_steps=30)
    for _ in range(30):
        b.step(np.full((7, 1), 0.4))
    assert np.array_equal(a.get_state(), b.get_state())


def test_chain_with_partial_actuation_and_per_env_inertias_matches_serial_simulations():
    plant, links = chain()
    n, steps = 24, 150
    rng = np.random.default_rng(2)
    x0 = np.column_stack([rng.uniform(-1, 1, (n, 3)), rng.uniform(-1, 1, (n, 3))])
    u = rng.uniform(-2, 2, (n, 2))
    inertias = [SpatialInertia.make_from_central_inertia(
        rng.uniform(0.5, 2.0), rng.uniform(-0.1, 0.1, 3) + [0, 0, -0.3],
        np.diag(rng.uniform(0.01, 0.02, 3))) for _ in range(n)]
    envs = BatchedPlant(plant, n)
    envs.set_state(x0)
    envs.set_body_spatial_inertias(links[2], inertias)
    envs.step(u, num_steps=steps)

    def set_parameters(context, e):
        links[2].set_spatial_inertia_in_body_frame(context, inertias[e])

    serial = simulate_serially(plant, x0, u, set_parameters, steps)
    np.testing.assert_allclose(envs.get_state(), serial, rtol=0, atol=1e-12)
    np.testing.assert_allclose(envs.get_body_masses(links[2]),
                               [M.get_mass() for M in inertias], rtol=1e-15)


def test_free_bodies_match_the_discrete_plant_and_keep_unit_quaternions():
    plant, body = free_body()
    n, steps = 6, 400
    rng = np.random.default_rng(3)
    x0 = np.empty((n, 13))
    for e in range(n):
        quaternion = RotationMatrix(RollPitchYaw(*rng.uniform(-1, 1, 3))).to_quaternion()
        x0[e] = np.concatenate([quaternion, rng.uniform(-1, 1, 3),        # q = [q_WB, p_WBo]
                                rng.uniform(-5, 5, 3), rng.uniform(-1, 1, 3)])  # v = [w, v]
    envs = BatchedPlant(plant, n)
    envs.set_state(x0)
    envs.step(num_steps=steps)
    serial = simulate_serially(plant, x0, None, lambda ctx, e: None, steps)
    np.testing.assert_allclose(envs.get_state(), serial, rtol=0, atol=1e-12)
    q = envs.get_positions()
    np.testing.assert_allclose(np.linalg.norm(q[:, :4], axis=1), 1.0, atol=1e-15)
    # Free fall: the translational velocity gained -g t (minus the linear damping).
    assert np.all(envs.get_velocities()[:, 5] < x0[:, 12] - 0.9 * 9.81 * steps * H)


@pytest.mark.parametrize("scheme", ["explicit_euler", "runge_kutta2", "runge_kutta3"])
def test_runge_kutta_schemes_match_the_frameworks_fixed_step_integrators(scheme):
    plant, bob = pendulum(time_step=0.0)
    n, steps = 20, 200
    rng = np.random.default_rng(4)
    x0 = np.column_stack([rng.uniform(-2, 2, n), rng.uniform(-1, 1, n)])
    u = rng.uniform(-1, 1, (n, 1))
    mass = rng.uniform(0.5, 2.0, n)
    envs = BatchedPlant(plant, n, time_step=H, integration_scheme=scheme)
    envs.set_state(x0)
    envs.set_body_masses(bob, mass)
    envs.step(u, num_steps=steps)
    config = SimulatorConfig(integration_scheme=scheme, max_step_size=H,
                             use_error_control=False)
    serial = simulate_serially(plant, x0, u, lambda ctx, e: bob.set_mass(ctx, mass[e]), steps,
                               config)
    np.testing.assert_allclose(envs.get_state(), serial, rtol=0, atol=1e-12)


def test_runge_kutta4_is_fourth_order_accurate():
    plant, _ = pendulum(time_step=0.0)
    x0 = np.array([[1.3, -0.4]])
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x0[0])
    simulator = Simulator(plant, context)
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-13,
                                           max_step_size=1e-3), simulator)
    simulator.advance_to(1.0)
    reference = plant.get_positions_and_velocities(context)
    errors = []
    for h in (0.04, 0.02):
        envs = BatchedPlant(plant, 1, time_step=h)
        assert envs.integration_scheme() == "runge_kutta4"
        envs.set_state(x0)
        envs.step(num_steps=round(1.0 / h))
        errors.append(np.abs(envs.get_state()[0] - reference).max())
    assert errors[1] < 1e-5
    assert 12.0 < errors[0] / errors[1] < 20.0           # 2^4 = 16


def test_result_does_not_depend_on_the_number_of_threads():
    plant, links = chain()
    rng = np.random.default_rng(5)
    x0 = rng.uniform(-1, 1, (101, 6))
    u = rng.uniform(-1, 1, (101, 2))

    def run():
        envs = BatchedPlant(plant, 101)
        envs.set_state(x0)
        envs.step(u, num_steps=50)
        return envs.get_state()

    states = states_for_each_thread_count(run)
    assert all(np.array_equal(s, states[0]) for s in states)


def test_env_subsets_defaults_and_parameters_round_trip():
    plant, bob = pendulum()
    envs = BatchedPlant(plant, 5)
    assert np.array_equal(envs.get_state(), np.zeros((5, 2)))
    envs.set_positions([0.3])
    envs.set_velocities([[1.0], [2.0]], envs=[1, 3])
    assert np.array_equal(envs.get_velocities()[:, 0], [0, 1, 0, 2, 0])
    envs.set_state([0.5, -0.5], envs=np.array([True, False, False, False, True]))
    assert np.array_equal(envs.get_state()[[0, 4]], [[0.5, -0.5]] * 2)
    envs.set_default_state(envs=[0])
    assert np.array_equal(envs.get_state()[0], [0.0, 0.0])
    assert np.array_equal(envs.get_body_masses(bob), np.ones(5))
    envs.set_body_masses(bob, 2.0, envs=[2])
    params = envs.get_body_parameters(bob)
    assert params[2, 0] == 2.0 and params[0, 0] == 1.0
    np.testing.assert_allclose(params[2, 1:4], [0.0, 0.0, -LENGTH])


def test_state_and_parameters_can_be_copied_from_a_plant_context():
    plant, bob = pendulum()
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, [0.7, 0.1])
    bob.set_mass(context, 1.7)
    envs = BatchedPlant(plant, 3)
    envs.set_state_and_parameters_from_context(context, envs=[1])
    assert np.array_equal(envs.get_state()[1], [0.7, 0.1])
    assert np.array_equal(envs.get_body_masses(bob), [1.0, 1.7, 1.0])
    envs.step(num_steps=20)
    serial = simulate_serially(plant, np.array([[0.7, 0.1]]), np.zeros((1, 1)),
                               lambda ctx, e: bob.set_mass(ctx, 1.7), 20)
    np.testing.assert_allclose(envs.get_state()[1], serial[0], rtol=0, atol=1e-12)


class JointPd(LeafSystem):
    """state -> [JointPd] -> control: u_a = kp_a (q_d,a - q[iq_a]) - kd_a (v[iv_a] - v_d,a)."""

    def __init__(self, nq, nv, q_index, v_index, kp, kd, desired_state):
        super().__init__()
        self.nq, self.iq, self.iv = nq, np.array(q_index), np.array(v_index)
        self.kp, self.kd, self.xd = np.array(kp), np.array(kd), np.array(desired_state)
        self.x = self.declare_vector_input_port("state", nq + nv)
        self.declare_vector_output_port("control", len(q_index), self.calc)

    def calc(self, context, output):
        x = self.x.eval(context)
        nu = len(self.iq)
        q, v = x[:self.nq][self.iq], x[self.nq:][self.iv]
        output.set_value(self.kp * (self.xd[:nu] - q) - self.kd * (v - self.xd[nu:]))


def test_pd_controlled_actuators_match_a_pd_controller_diagram():
    plant, _ = chain()
    steps = 200
    kp, kd = np.array([30.0, 60.0]), np.array([2.0, 4.0])   # actuators a2 (j2), a0 (j0)
    rng = np.random.default_rng(6)
    n = 5
    x0 = rng.uniform(-0.5, 0.5, (n, 6))
    desired = np.column_stack([rng.uniform(-1, 1, (n, 2)), rng.uniform(-0.2, 0.2, (n, 2))])
    envs = BatchedPlant(plant, n)
    envs.set_pd_gains(kp, kd)
    envs.set_state(x0)
    envs.step(num_steps=steps, desired_state=desired)
    for e in range(n):
        plant, _ = chain()                 # a system belongs to one diagram: one per env
        builder = DiagramBuilder()
        builder.add_named_system("plant", plant)
        pd = builder.add_named_system("pd", JointPd(3, 3, [2, 0], [2, 0], kp, kd, desired[e]))
        builder.connect(plant.get_state_output_port(), pd.get_input_port("state"))
        builder.connect(pd.get_output_port("control"), plant.get_actuation_input_port())
        diagram = builder.build()
        context = diagram.create_default_context()
        plant.set_positions_and_velocities(plant.get_my_context_from_root(context), x0[e])
        Simulator(diagram, context).advance_to(steps * H)
        np.testing.assert_allclose(
            envs.get_state()[e],
            plant.get_positions_and_velocities(plant.get_my_context_from_root(context)),
            rtol=0, atol=1e-12)


def test_pd_gains_need_a_desired_state_and_vice_versa():
    plant, _ = pendulum()
    envs = BatchedPlant(plant, 3)
    with pytest.raises(ValueError, match="desired_state given but no PD gains are set"):
        envs.step(desired_state=[0.0, 0.0])
    envs.set_pd_gains(10.0, [1.0])
    assert envs.has_pd_gains()
    with pytest.raises(ValueError, match=r"PD gains are set, so desired_state \(\[q_d; v_d\]"):
        envs.step()
    with pytest.raises(ValueError, match="set_pd_gains: kd must be finite and >= 0"):
        envs.set_pd_gains(10.0, -1.0)
    # Per-env gains; a pendulum held at q_d = 0 by a stiff PD stays near it.
    envs.set_pd_gains(np.array([[400.0], [400.0], [0.0]]), np.array([[40.0], [40.0], [0.0]]))
    envs.set_positions([0.2])
    envs.step(num_steps=2000, desired_state=[0.0, 0.0])
    q = envs.get_positions()[:, 0]
    # Static deflection of the PD (gravity torque m g L sin q = kp q) and a free swing.
    assert q[0] == q[1] and abs(q[0]) < 0.02 and abs(q[2]) > 0.02
    envs.clear_pd_gains()
    envs.step()


# ---- errors --------------------------------------------------------------------------------
def test_bad_arguments_raise_naming_the_argument():
    plant, bob = pendulum()
    envs = BatchedPlant(plant, 4)
    with pytest.raises(ValueError, match=r"BatchedPlant.step: u has shape \(4, 2\), expected "
                                         r"\(4, nu = 1\) or \(1,\)"):
        envs.step(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="BatchedPlant.step: num_steps must be an integer"):
        envs.step(num_steps=-1)
    with pytest.raises(ValueError, match=r"BatchedPlant.set_state: x has shape \(3,\)"):
        envs.set_state([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="BatchedPlant.set_positions: q must be finite"):
        envs.set_positions([np.nan])
    with pytest.raises(ValueError, match=r"BatchedPlant.set_state: envs has indices outside"):
        envs.set_state([0.0, 0.0], envs=[4])
    with pytest.raises(ValueError, match="BatchedPlant.set_body_masses: masses of body 'bob' "
                                         "must be finite and >= 0"):
        envs.set_body_masses(bob, -1.0)
    other, other_bob = pendulum()
    with pytest.raises(ValueError, match="body 'bob' is not a non-world body of this plant"):
        envs.set_body_masses(other_bob, 1.0)
    with pytest.raises(ValueError, match="BatchedPlant: num_envs must be an integer >= 1"):
        BatchedPlant(plant, 0)
    with pytest.raises(ValueError, match="integration_scheme 'rk45' is not one of "
                                         "semi_explicit_euler, explicit_euler"):
        BatchedPlant(plant, 2, integration_scheme="rk45")
    assert "runge_kutta4" in BATCHED_INTEGRATION_SCHEMES


def test_plants_the_kernel_cannot_model_are_rejected():
    continuous, _ = pendulum(time_step=0.0)
    with pytest.raises(ValueError, match="the plant is continuous .* give time_step > 0"):
        BatchedPlant(continuous, 2)
    unfinalized = MultibodyPlant(H)
    with pytest.raises(ValueError, match="plant must be finalized"):
        BatchedPlant(unfinalized, 2)
    with pytest.raises(TypeError, match="plant must be a MultibodyPlant, got str"):
        BatchedPlant("panda", 2)
    plant = MultibodyPlant(H)
    a = plant.add_rigid_body("a", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    plant.add_force_element(LinearSpringDamper(plant.world_body(), [0, 0, 0], a, [0, 0, 0],
                                               1.0, 10.0, 1.0))
    plant.finalize()
    with pytest.raises(ValueError, match="has force elements other than gravity"):
        BatchedPlant(plant, 2)
    pd_plant = MultibodyPlant(H)
    bob = pd_plant.add_rigid_body("bob", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    pivot = pd_plant.add_joint(RevoluteJoint("pivot", pd_plant.world_frame(), bob.body_frame(),
                                             [0, 1, 0]))
    pd_plant.add_joint_actuator("pivot", pivot).set_controller_gains(
        PdControllerGains(10.0, 1.0))
    pd_plant.finalize()
    with pytest.raises(ValueError, match="PD-controlled actuators"):
        BatchedPlant(pd_plant, 2)


def test_a_continuous_plants_contact_geometry_is_ignored_with_a_warning():
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant_scene_graph(builder, 0.0)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.1), "ball",
                                      CoulombFriction(0.5, 0.5))
    plant.register_collision_geometry(plant.world_body(), RigidTransform([0, 0, -0.5]),
                                      Sphere(0.1), "post", CoulombFriction(0.5, 0.5))
    plant.finalize()
    with pytest.warns(UserWarning, match="is continuous and has collision geometry"):
        envs = BatchedPlant(plant, 2, time_step=H)
    assert not envs.has_contact()
    envs.step(num_steps=500)                                 # free fall through the post
    np.testing.assert_allclose(envs.get_velocities()[:, 5], -9.81 * 500 * H, rtol=1e-12)
