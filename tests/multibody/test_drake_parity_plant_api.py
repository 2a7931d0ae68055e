"""Drake parity of MultibodyPlant's user-facing API (issue 18, multibody plant group):
names a pydrake script reaches after its CamelCase calls are renamed to snake_case
(pydrake's keywords kept), the types they return and the errors Drake raises. Expected
values are analytic, identities between the plant's own queries, or Drake's documented
behaviour."""

import copy
import pickle

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import (
    CoulombFriction, HalfSpace, PenetrationAsPointPair, ProximityProperties, RigidTransform,
    RollPitchYaw, Sphere, add_contact_material,
)
from merganser.multibody import (
    AcrobotParameters, Body, BodyIndex, ContactResults, DoorHinge, DoorHingeConfig,
    FixedOffsetFrame,
    HydroelasticContactInfo, MultibodyForces, MultibodyPlant, MultibodyPlantConfig,
    PdControllerGains, PointPairContactInfo, RevoluteJoint, RevoluteSpring, RigidBody,
    RotationalInertia,
    SpatialForce, SpatialInertia, TreeLifecycleError, WeldJoint, add_multibody_plant,
    make_acrobot_plant,
)


def _pendulum(time_step=0.0, mass=2.0, length=0.5):
    """A point-ish mass on a revolute joint about y, its center of mass at -length z."""
    plant = MultibodyPlant(time_step)
    M = SpatialInertia.point_mass(mass, [0.0, 0.0, -length])
    link = plant.add_rigid_body("link", M)
    joint = plant.add_joint(RevoluteJoint("pin", plant.world_frame(), link.body_frame(),
                                          [0.0, 1.0, 0.0]))
    actuator = plant.add_joint_actuator("motor", joint)
    return plant, link, joint, actuator


# ---- inertia placeholders ------------------------------------------------------------
def test_nan_named_constructors_spell_drake_nan_in_snake_case():
    M = SpatialInertia.nan()
    assert M.is_nan() and SpatialInertia.NaN().is_nan()
    assert np.isnan(M.copy_to_full_matrix6()).all()
    assert RotationalInertia.nan().is_nan()


def test_a_body_with_a_not_set_inertia_is_accepted_as_in_drake():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("placeholder", M_BBo_B=SpatialInertia.nan())
    plant.finalize()
    assert np.isnan(body.default_mass())
    # a partly-NaN inertia is still refused: only the all-NaN "not set" is a placeholder
    bad = SpatialInertia(1.0, [np.nan, 0.0, 0.0], np.eye(3) * 0.1, skip_validity_check=True)
    with pytest.raises(ValueError, match="not physically valid"):
        MultibodyPlant(0.0).add_rigid_body("bad", bad)


def test_body_is_pydrakes_alias_of_rigid_body():
    assert Body is RigidBody


# ---- contact results -----------------------------------------------------------------
def test_point_pair_contact_info_takes_pydrake_keywords_and_accessors():
    info = PointPairContactInfo(bodyA_index=BodyIndex(0), bodyB_index=BodyIndex(1),
                                f_Bc_W=np.array([0.0, 0.0, 1.0]), p_WC=np.zeros(3),
                                separation_speed=-0.5, slip_speed=0.25, point_pair=None)
    # attribute spelling (merganser) and accessor spelling (pydrake) give the same values
    np.testing.assert_array_equal(info.contact_force, [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(info.contact_force(), [0.0, 0.0, 1.0])
    assert info.contact_point().shape == (3,)
    assert isinstance(info.bodyA_index(), BodyIndex) and info.bodyB_index() == 1
    assert info.slip_speed() == 0.25 and info.separation_speed == -0.5
    assert info.point_pair is None
    with pytest.raises(TypeError, match="exactly one of contact_force= and f_Bc_W="):
        PointPairContactInfo(0, 1, np.zeros(3), np.zeros(3), 0.0, 0.0,
                             f_Bc_W=np.zeros(3))


def test_hydroelastic_contact_info_answers_the_accessor_spelling():
    F = SpatialForce(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0]))
    info = HydroelasticContactInfo(contact_surface=None, F_Ac_W=F)
    assert isinstance(info.F_Ac_W(), SpatialForce)
    np.testing.assert_array_equal(info.F_Ac_W().get_coeffs(), [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(info.F_Ac_W.get_coeffs(), [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(F.get_coeffs(), [1, 2, 3, 4, 5, 6])   # input untouched


class _Surface:
    """A stand-in contact surface (a plain Python object, as geometry's ContactSurface)."""

    def __init__(self, area):
        self.area = area


def test_contact_results_know_their_plant_and_select_hydroelastic():
    empty = ContactResults()
    assert empty.plant() is None and empty.num_point_pair_contacts() == 0
    F = SpatialForce(np.zeros(3), np.ones(3))
    surfaces = [_Surface(1.0), _Surface(2.0)]
    infos = [HydroelasticContactInfo(s, F) for s in surfaces]
    selected = ContactResults(hydroelastic_infos=infos).select_hydroelastic(
        selector=lambda info: info.contact_surface.area > 1.5)
    assert selected.num_hydroelastic_contacts() == 1
    assert selected.hydroelastic_contact_info(0).contact_surface().area == 2.0

    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(time_step=1e-3,
                                                        contact_model="point"), builder)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    props = add_contact_material(point_stiffness=1e4, friction=CoulombFriction(0.5, 0.5),
                                 properties=ProximityProperties())
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.1), "ball", props)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", props)
    plant.finalize()
    diagram = builder.build()
    ctx = plant.get_my_context_from_root(diagram.create_default_context())
    plant.set_free_body_pose(ctx, ball, RigidTransform([0.0, 0.0, 0.09]))
    results = plant.get_contact_results_output_port().eval(ctx)
    assert results.plant() is plant
    assert results.num_point_pair_contacts() == 1
    info = results.point_pair_contact_info(0)
    # the ground pushes the ball up: the force on B is +z or -z depending on which body is B
    assert {int(info.bodyA_index()), int(info.bodyB_index())} == {0, ball.index()}
    f = info.contact_force() if info.bodyB_index() == ball.index() else -info.contact_force()
    assert f[2] > 0.0
    pair = info.point_pair()
    assert isinstance(pair, PenetrationAsPointPair)
    assert pair.depth == pytest.approx(0.01)
    # the accessor-callable values survive pickling and deep copies
    for clone in (pickle.loads(pickle.dumps(info)), copy.deepcopy(info)):
        np.testing.assert_array_equal(clone.contact_force(), info.contact_force)
        assert isinstance(clone.bodyA_index(), BodyIndex)
        assert clone.point_pair().depth == pair.depth


# ---- actuation -----------------------------------------------------------------------
def test_actuation_matrix_pseudoinverse_is_sparse_and_inverts_b():
    plant = make_acrobot_plant(AcrobotParameters(), True)
    B = plant.make_actuation_matrix()
    np.testing.assert_array_equal(B, [[0.0], [1.0]])
    B_pinv = plant.make_actuation_matrix_pseudoinverse()
    np.testing.assert_array_equal(B_pinv.todense(), [[0.0, 1.0]])
    np.testing.assert_array_equal(B_pinv @ B, [[1.0]])


def test_effort_limits_can_be_set_and_removed():
    plant, _, _, actuator = _pendulum()
    actuator.set_effort_limit(effort_limit=22.0)
    assert actuator.effort_limit() == 22.0
    with pytest.raises(ValueError, match="effort_limit must be > 0"):
        actuator.set_effort_limit(0.0)
    plant.remove_all_joint_actuator_effort_limits()
    assert actuator.effort_limit() == np.inf
    plant.finalize()
    np.testing.assert_array_equal(plant.get_effort_upper_limits(), [np.inf])
    with pytest.raises(TreeLifecycleError):
        plant.remove_all_joint_actuator_effort_limits()


def test_pd_controller_gains_are_stored_and_refused_where_drake_refuses():
    # (the simulated behaviour: tests/multibody/test_pd_controlled_actuators.py)
    plant, _, _, actuator = _pendulum(time_step=0.01)
    assert not actuator.has_controller()
    with pytest.raises(RuntimeError, match="has no PD controller"):
        actuator.get_controller_gains()
    actuator.set_controller_gains(PdControllerGains(p=2000.0, d=100.0))
    assert actuator.has_controller()
    assert actuator.get_controller_gains() == PdControllerGains(p=2000.0, d=100.0)
    with pytest.raises(ValueError, match="d must be finite and >= 0"):
        PdControllerGains(p=1.0, d=-1.0)
    plant.finalize()
    # the desired-state input of the actuator's instance: [q_d; v_d]
    port = plant.get_desired_state_input_port(actuator.model_instance())
    assert port.size() == 2
    with pytest.raises(Exception, match="get_desired_state_input_port"):
        plant.get_desired_state_input_port(99)

    continuous, _, _, act = _pendulum(time_step=0.0)
    act.set_controller_gains(PdControllerGains(p=1.0, d=1.0))
    with pytest.raises(RuntimeError, match="only supported by discrete plants"):
        continuous.finalize()


# ---- state ---------------------------------------------------------------------------
def _free_body_on_a_table():
    plant = MultibodyPlant(0.0)
    table = plant.add_rigid_body("table", SpatialInertia.solid_box_with_mass(5, 1, 1, 0.1))
    plant.add_joint(WeldJoint("table_weld", plant.world_frame(), table.body_frame(),
                              RigidTransform([0.0, 0.0, 0.7])))
    top = plant.add_frame(FixedOffsetFrame("top", table.body_frame(),
                                           RigidTransform([0.1, 0.0, 0.05])))
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1, .1, .1, .1))
    pendulum_link = plant.add_rigid_body("swing", SpatialInertia.point_mass(1, [0, 0, -1]))
    plant.add_joint(RevoluteJoint("pin", plant.world_frame(), pendulum_link.body_frame(),
                                  [0, 1, 0]))
    plant.finalize()
    return plant, box, top, pendulum_link


def test_floating_base_body_pose_in_world_and_in_an_anchored_frame():
    plant, box, top, swing = _free_body_on_a_table()
    ctx = plant.create_default_context()
    X_WB = RigidTransform(RollPitchYaw([0.4, 0.5, 0.6]), [0.7, 0.8, 0.9])
    plant.set_floating_base_body_pose_in_world_frame(context=ctx, body=box, X_WB=X_WB)
    np.testing.assert_allclose(plant.get_free_body_pose(ctx, box).get_as_matrix4(),
                               X_WB.get_as_matrix4(), atol=1e-14)
    X_FB = RigidTransform(RollPitchYaw([0.1, 0.2, 0.3]), [0.0, 0.0, 0.05])
    plant.set_floating_base_body_pose_in_anchored_frame(context=ctx, frame_F=top,
                                                        body=box, X_FB=X_FB)
    X_WF = RigidTransform([0.1, 0.0, 0.75])          # weld at 0.7, top at +0.05 on it
    np.testing.assert_allclose(plant.get_free_body_pose(ctx, box).get_as_matrix4(),
                               (X_WF @ X_FB).get_as_matrix4(), atol=1e-14)
    with pytest.raises(RuntimeError, match="not anchored"):
        plant.set_floating_base_body_pose_in_anchored_frame(ctx, swing.body_frame(), box,
                                                            X_FB)
    assert box.floating_velocities_start_in_v() == box.floating_velocities_start()


def test_q_dot_spellings_are_the_qdot_methods():
    plant, box, _, _ = _free_body_on_a_table()
    ctx = plant.create_default_context()
    plant.set_free_body_pose(ctx, box, RigidTransform(RollPitchYaw(0.3, -0.2, 0.1),
                                                      [0, 0, 1]))
    v = np.linspace(-1.0, -7.0, plant.num_velocities())
    qdot = plant.map_velocity_to_q_dot(ctx, v)
    np.testing.assert_array_equal(qdot, plant.map_velocity_to_qdot(ctx, v))
    np.testing.assert_allclose(plant.map_q_dot_to_velocity(ctx, qdot), v, atol=1e-12)
    np.testing.assert_allclose((plant.make_q_dot_to_velocity_map(ctx)
                                @ plant.make_velocity_to_q_dot_map(ctx)).toarray(),
                               np.eye(plant.num_velocities()), atol=1e-12)
    assert plant.is_velocity_equal_to_q_dot() is False


# ---- lookups, forces, gravity --------------------------------------------------------
def test_get_rigid_body_by_name_and_standalone_multibody_forces():
    plant, link, _, _ = _pendulum()
    plant.finalize()
    assert plant.get_rigid_body_by_name("link") is link
    assert plant.get_rigid_body_by_name(name="link", model_instance=1) is link
    forces = MultibodyForces(nb=3, nv=2)
    assert forces.num_bodies() == 3 and forces.num_velocities() == 2
    assert forces.body_forces().shape == (3, 6)
    with pytest.raises(TypeError, match="expected plant, or both nb= and nv="):
        MultibodyForces(nb=3)


def test_gravity_field_generalized_forces_match_the_plant_and_the_pendulum():
    mass, length = 2.0, 0.5
    plant, _, _, _ = _pendulum(mass=mass, length=length)
    plant.finalize()
    ctx = plant.create_default_context()
    theta = 0.3
    plant.set_positions(ctx, [theta])
    tau = plant.gravity_field().calc_gravity_generalized_forces(context=ctx)
    # rotating about +y by θ moves the mass to x = -L sin θ: gravity's torque is -m g L sin θ
    np.testing.assert_allclose(tau, [-mass * 9.81 * length * np.sin(theta)], rtol=1e-12)
    np.testing.assert_array_equal(tau, plant.calc_gravity_generalized_forces(ctx))


# ---- acrobot benchmark ---------------------------------------------------------------
def test_acrobot_benchmark_has_drakes_elements_and_analytic_mass_matrix():
    p = AcrobotParameters()
    assert (p.m1(), p.l2(), p.Ic2(), p.g()) == (1.0, 2.0, 0.33, 9.81)
    assert p.Gc1() == pytest.approx(0.083)
    plant = make_acrobot_plant(default_parameters=p, finalize=True)
    assert plant.num_positions() == 2 and plant.num_actuators() == 1
    assert plant.get_joint_by_name("ShoulderJoint").num_positions() == 1
    assert plant.get_joint_actuator_by_name("ElbowJoint").joint().name() == "ElbowJoint"
    ctx = plant.create_default_context()
    q2 = 0.7
    plant.set_positions(ctx, [0.2, q2])
    c = np.cos(q2)
    m1, m2, l1, lc1, lc2, I1, I2 = p.m1(), p.m2(), p.l1(), p.lc1(), p.lc2(), p.Ic1(), p.Ic2()
    M_expected = np.array([
        [I1 + I2 + m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * c),
         I2 + m2 * (lc2**2 + l1 * lc2 * c)],
        [I2 + m2 * (lc2**2 + l1 * lc2 * c), I2 + m2 * lc2**2]])
    np.testing.assert_allclose(plant.calc_mass_matrix(ctx), M_expected, rtol=1e-12)
    with pytest.raises(TypeError, match="AcrobotParameters"):
        make_acrobot_plant({}, True)


# ---- door hinge, spring names, lookup keywords ---------------------------------------
def _hinged_door(config):
    plant = MultibodyPlant(0.0)
    door = plant.add_rigid_body("door", SpatialInertia.solid_box_with_mass(1, .5, .02, 1))
    hinge = plant.add_joint(RevoluteJoint("hinge", plant.world_frame(), door.body_frame(),
                                          [0.0, 0.0, 1.0]))
    element = plant.add_force_element(DoorHinge(joint=hinge, config=config))
    spring = plant.add_force_element(RevoluteSpring(joint=hinge, nominal_angle=0.1,
                                                    stiffness=100.0))
    plant.finalize()
    return plant, hinge, element, spring


def test_revolute_spring_parameters_live_in_the_context():
    plant = MultibodyPlant(0.0)
    arm = plant.add_rigid_body("arm", SpatialInertia.solid_box_with_mass(1, .5, .02, 1))
    hinge = plant.add_joint(RevoluteJoint("hinge", plant.world_frame(), arm.body_frame(),
                                          [0.0, 0.0, 1.0]))
    spring = plant.add_force_element(RevoluteSpring(joint=hinge, nominal_angle=0.1,
                                                    stiffness=100.0))
    plant.finalize()
    ctx, other = plant.create_default_context(), plant.create_default_context()
    assert (spring.get_nominal_angle(ctx), spring.get_stiffness(ctx)) == (0.1, 100.0)
    spring.set_nominal_angle(ctx, 0.5)
    spring.set_stiffness(ctx, 40.0)
    assert (spring.get_nominal_angle(ctx), spring.get_stiffness(ctx)) == (0.5, 40.0)
    assert (spring.default_nominal_angle(), spring.default_stiffness()) == (0.1, 100.0)
    assert spring.get_stiffness(other) == 100.0                    # other contexts keep theirs
    q, qdot = 0.2, 0.3
    for c in (ctx, other):
        plant.set_positions(c, [q])
        plant.set_velocities(c, [qdot])
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(ctx, forces)
    np.testing.assert_allclose(forces.generalized_forces(), [-40.0 * (q - 0.5)], rtol=1e-15)
    assert plant.calc_potential_energy(ctx) == pytest.approx(0.5 * 40.0 * (q - 0.5) ** 2)
    assert plant.calc_conservative_power(ctx) == pytest.approx(-40.0 * (q - 0.5) * qdot)
    assert plant.calc_potential_energy(other) == pytest.approx(0.5 * 100.0 * (q - 0.1) ** 2)
    # the dynamics use the context's spring: M v̇ = τ_spring (no gravity about z)
    M = plant.calc_mass_matrix(ctx)
    np.testing.assert_allclose(M @ plant.calc_forward_dynamics(ctx), [-40.0 * (q - 0.5)],
                               rtol=1e-12)
    with pytest.raises(ValueError, match="set_stiffness: stiffness must be finite and >= 0"):
        spring.set_stiffness(ctx, -1.0)
    assert spring.get_stiffness(ctx) == 40.0


def test_door_hinge_torque_energy_and_power_follow_drakes_model():
    config = DoorHingeConfig()
    assert (config.spring_zero_angle_rad, config.catch_width) == (-1.5, 0.02)
    assert "spring_zero_angle_rad" in repr(config)
    plant, hinge, element, spring = _hinged_door(config)
    assert element.joint() is hinge and element.config() == config
    # half the catch width: the catch curve's doublet is 0, only the spring acts
    assert element.calc_hinge_frictional_torque(angular_rate=0.0) == 0.0
    assert element.calc_hinge_spring_torque(angle=0.01) == pytest.approx(-1.5 * 1.51)
    assert element.calc_hinge_torque(angle=0.01, angular_rate=0.0) == \
        pytest.approx(-2.265)
    # energy is zero at the closed position and its derivative is minus the torque
    assert element.calc_hinge_stored_energy(0.0) == 0.0
    q, h = 0.3, 1e-6
    dV = (element.calc_hinge_stored_energy(q + h) - element.calc_hinge_stored_energy(q - h))
    assert dV / (2 * h) == pytest.approx(-element.calc_hinge_spring_torque(q), rel=1e-6)
    assert element.calc_hinge_non_conservative_power(0.4) < 0.0
    # the plant applies it: generalized force = hinge + spring torques
    ctx = plant.create_default_context()
    plant.set_positions(ctx, [q])
    plant.set_velocities(ctx, [0.2])
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(ctx, forces)
    expected = element.calc_hinge_torque(q, 0.2) - 100.0 * (q - 0.1)
    np.testing.assert_allclose(forces.generalized_forces(), [expected], rtol=1e-12)
    assert spring.default_nominal_angle() == 0.1 and spring.default_stiffness() == 100.0
    with pytest.raises(ValueError, match="config.catch_torque must be >= 0"):
        DoorHinge(hinge, DoorHingeConfig(catch_torque=-1.0))


def test_element_getters_take_pydrakes_index_keywords():
    plant, hinge, element, spring = _hinged_door(DoorHingeConfig(motion_threshold=0.0))
    door = plant.get_body_by_name("door")
    assert plant.get_body(body_index=door.index()) is door
    assert plant.get_joint(joint_index=hinge.index()) is hinge
    assert plant.get_frame(frame_index=door.body_frame().index()) is door.body_frame()
    assert plant.get_force_element(force_element_index=element.index()) is element
    # with no motion threshold only viscous friction remains
    assert element.calc_hinge_frictional_torque(2.0) == pytest.approx(-2.0)


# ---- introspection and per-instance ports --------------------------------------------
ACROBOT_SDF = "tests/data/models/drake/acrobot/Acrobot.sdf"


def test_introspection_names_drake_scripts_use():
    plant = make_acrobot_plant(AcrobotParameters(), True)
    world, link1 = plant.world_body(), plant.get_body_by_name("Link1")
    assert plant.is_anchored(world) and not plant.is_anchored(link1)
    assert plant.num_bodies_with_name("Link1") == 1
    assert plant.num_bodies_with_name("nothing") == 0
    shoulder = plant.get_joint_by_name("ShoulderJoint")
    assert plant.get_mutable_joint(joint_index=shoulder.index()) is shoulder
    elbow = plant.get_joint_by_name("ElbowJoint")
    assert plant.get_actuated_joint_indices(model_instance=1) == [elbow.index()]
    dot = plant.get_topology_graphviz_string()
    assert dot.startswith("digraph") and "ElbowJoint" in dot and "Link2" in dot


def test_per_instance_net_actuation_port_is_the_instances_part():
    plant = MultibodyPlant(0.0)
    robots = [plant.add_model_instance(name) for name in ("left", "right")]
    for mi in robots:
        link = plant.add_rigid_body("link", mi, SpatialInertia.point_mass(1.0, [0, 0, -1]))
        joint = plant.add_joint(RevoluteJoint("pin", plant.world_frame(), link.body_frame(),
                                              [0, 1, 0]))
        plant.add_joint_actuator("motor", joint)
    plant.finalize()
    ctx = plant.create_default_context()
    plant.get_actuation_input_port().fix_value(ctx, [1.5, -2.0])
    plant.get_actuation_input_port(robots[1]).fix_value(ctx, [0.25])
    np.testing.assert_array_equal(plant.get_net_actuation_output_port().eval(ctx),
                                  [1.5, -1.75])
    port = plant.get_net_actuation_output_port(model_instance=robots[1])
    assert port.get_name() == "right_net_actuation"
    np.testing.assert_array_equal(port.eval(ctx), [-1.75])
    np.testing.assert_array_equal(
        plant.get_net_actuation_output_port(robots[0]).eval(ctx), [1.5])


def test_sdformat_joints_always_get_a_child_frame_as_in_drake():
    from merganser.multibody import Parser
    plant = MultibodyPlant(0.0)
    (mi,) = Parser(plant).add_models(ACROBOT_SDF)
    for joint_name in ("shoulder", "elbow"):
        joint = plant.get_joint_by_name(joint_name)
        assert joint.frame_on_child().name() == f"{joint_name}_child"


def test_actuator_reads_and_writes_its_entry_of_u():
    plant = make_acrobot_plant(AcrobotParameters(), True)
    actuator = plant.get_joint_actuator_by_name("ElbowJoint")
    u = np.array([0.1])
    np.testing.assert_array_equal(actuator.get_actuation_vector(u=u), [0.1])
    actuator.set_actuation_vector(u_actuator=np.array([0.2]), u=u)
    np.testing.assert_array_equal(u, [0.2])
    with pytest.raises(ValueError, match="u must be an ndarray of shape"):
        actuator.get_actuation_vector(np.zeros(3))
    ctx = plant.create_default_context()
    assert actuator.rotor_inertia(ctx) == actuator.default_rotor_inertia() == 0.0
    assert actuator.gear_ratio(ctx) == 1.0


def test_plant_config_has_drakes_other_fields_and_prints_as_pydrake():
    from merganser.geometry import HydroelasticContactRepresentation
    from merganser.multibody import MultibodyPlantConfig, add_multibody_plant
    from merganser.framework import DiagramBuilder
    config = MultibodyPlantConfig(time_step=0.0, contact_surface_representation="triangle",
                                  adjacent_bodies_collision_filters=False)
    assert str(config).startswith("MultibodyPlantConfig(time_step=0.0, ")
    plant, _ = add_multibody_plant(config, DiagramBuilder())
    assert plant.get_contact_surface_representation() == \
        HydroelasticContactRepresentation.kTriangle
    assert not plant.get_adjacent_bodies_collision_filters()
    with pytest.raises(ValueError, match="'polygon' or 'triangle'"):
        MultibodyPlantConfig(contact_surface_representation="quads")
    with pytest.raises(ValueError, match="use_sampled_output_ports=True is not supported"):
        add_multibody_plant(MultibodyPlantConfig(use_sampled_output_ports=True),
                            DiagramBuilder())
