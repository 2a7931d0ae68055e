"""Drake parity of MultibodyPlant (issue 18, groups 6, 7 and 10): Drake's enumerations,
kinematic and dynamic queries under snake_case names with pydrake's keywords, selector
matrices, body forces, and the errors Drake raises. Expected values are analytic or
identities between the plant's own algorithms."""

import numpy as np
import pytest
from pydantic import ValidationError

from merganser.controllers import InverseDynamics
from merganser.framework import DiagramBuilder
from merganser.geometry import CoulombFriction, RigidTransform, RotationMatrix, Sphere
from merganser.multibody import (
    BaseBodyJointType, ContactModel, DiscreteContactApproximation, JacobianWrtVariable,
    MultibodyForces, MultibodyPlant, MultibodyPlantConfig, PrismaticJoint, RevoluteJoint,
    RevoluteSpring,
    SpatialForce, SpatialInertia, UniformGravityFieldElement, WeldJoint,
    add_multibody_plant, add_multibody_plant_scene_graph,
)
from merganser.multibody.plant.plant_settings import DISCRETE_CONTACT_APPROXIMATIONS

G = 9.81


def _box(mass=2.0):
    return SpatialInertia.solid_box_with_mass(mass, 0.2, 0.3, 0.4)


def _arm(time_step=0.0, actuate=True):
    """world -j1 (revolute z)-> a -j2 (prismatic x)-> b =weld=> c; d is free."""
    plant = MultibodyPlant(time_step)
    a = plant.add_rigid_body("a", _box(1.0))
    b = plant.add_rigid_body("b", _box(2.0))
    c = plant.add_rigid_body("c", _box(0.5))
    d = plant.add_rigid_body("d", _box(3.0))
    j1 = plant.add_joint(RevoluteJoint("j1", plant.world_frame(), a.body_frame(), [0, 0, 1]))
    j2 = plant.add_joint(PrismaticJoint("j2", a.body_frame(), b.body_frame(), [1, 0, 0]))
    w = plant.add_joint(WeldJoint("w", b.body_frame(), c.body_frame(),
                                  RigidTransform([0.0, 0.0, 0.5])))
    if actuate:
        plant.add_joint_actuator("u2", j2)
        plant.add_joint_actuator("u1", j1)
    plant.finalize()
    return plant, (a, b, c, d), (j1, j2, w)


# ------------------------------------------------------------------ group 6: enumerations
def test_contact_settings_take_the_enum_or_its_string_and_return_the_enum():
    plant = MultibodyPlant(0.01)
    assert plant.get_contact_model() is ContactModel.kHydroelasticWithFallback
    assert plant.get_discrete_contact_approximation() is DiscreteContactApproximation.kSap
    plant.set_contact_model(ContactModel.kPoint)
    assert plant.get_contact_model() is ContactModel.kPoint
    assert plant.get_contact_model() == "point"          # the string still compares equal
    plant.set_discrete_contact_approximation("lagged")
    assert plant.get_discrete_contact_approximation() is DiscreteContactApproximation.kLagged
    plant.set_discrete_contact_approximation(DiscreteContactApproximation.kTamsi)
    assert plant.get_discrete_contact_approximation() == "tamsi"
    with pytest.raises(ValueError, match="set_contact_model: model must be one of 'point'.*"
                                         "ContactModel.kPoint.*got 'soft'"):
        plant.set_contact_model("soft")


def test_approximation_names_derive_from_the_enum():
    assert DiscreteContactApproximation.names() == DISCRETE_CONTACT_APPROXIMATIONS == (
        "tamsi", "sap", "similar", "lagged", "lcp")
    assert [m.name for m in DiscreteContactApproximation] == [
        "kTamsi", "kSap", "kSimilar", "kLagged", "kLcp"]
    assert str(ContactModel.kHydroelastic) == "ContactModel.kHydroelastic"
    assert f"{DiscreteContactApproximation.kSap}" == "sap"


def test_config_accepts_the_enum_and_stores_its_string():
    config = MultibodyPlantConfig(contact_model=ContactModel.kPoint,
                                  discrete_contact_approximation=DiscreteContactApproximation.kSimilar)
    assert config.contact_model == "point" and type(config.contact_model) is str
    assert config.discrete_contact_approximation == "similar"
    plant, _ = add_multibody_plant(config, DiagramBuilder())
    assert plant.get_contact_model() is ContactModel.kPoint
    assert plant.get_discrete_contact_approximation() is DiscreteContactApproximation.kSimilar


def test_base_body_joint_type_enum():
    plant = MultibodyPlant(0.0)
    assert plant.get_base_body_joint_type() is BaseBodyJointType.kQuaternionFloatingJoint
    plant.add_rigid_body("free", _box())
    plant.set_base_body_joint_type(BaseBodyJointType.kRpyFloatingJoint)
    assert plant.get_base_body_joint_type() == "rpy_floating"
    plant.finalize()
    assert (plant.num_positions(), plant.num_velocities()) == (6, 6)
    with pytest.raises(ValueError, match="joint_type must be one of 'quaternion_floating'"):
        MultibodyPlant(0.0).set_base_body_joint_type("ball")


def test_inverse_dynamics_mode_enum():
    plant, _, _ = _arm()
    Mode = InverseDynamics.InverseDynamicsMode
    gravity = InverseDynamics(plant, mode=Mode.kGravityCompensation)
    assert gravity.is_pure_gravity_compensation()
    assert InverseDynamics.kGravityCompensation is Mode.kGravityCompensation
    assert not InverseDynamics(plant, mode="inverse_dynamics").is_pure_gravity_compensation()
    with pytest.raises(ValueError, match="InverseDynamics: mode must be one of"):
        InverseDynamics(plant, mode="torque")


# ------------------------------------------------------------------ group 10: keywords
def test_config_names_the_field_that_holds_the_solver_choice():
    with pytest.raises(ValidationError, match="unknown keyword 'discrete_contact_solver'; use "
                                              "'discrete_contact_approximation'"):
        MultibodyPlantConfig(discrete_contact_solver="sap")
    with pytest.raises(ValidationError, match=r"unknown keyword 'stiction'.*valid keywords: "
                                              r"time_step, penetration_allowance"):
        MultibodyPlantConfig(stiction=1e-3)


# ------------------------------------------------------------------ group 7: gravity
def test_mutable_gravity_field_changes_the_free_fall():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("ball", _box())
    field = plant.mutable_gravity_field()
    assert field is plant.gravity_field()
    np.testing.assert_array_equal(field.gravity_vector(), [0.0, 0.0, -G])
    field.set_gravity_vector([0.0, -1.62, 0.0])
    plant.finalize()
    context = plant.create_default_context()
    vdot = plant.calc_forward_dynamics(context)
    np.testing.assert_allclose(vdot[3:], [0.0, -1.62, 0.0], atol=1e-12)
    a_cm = plant.calc_center_of_mass_translational_acceleration_in_world(context)
    np.testing.assert_allclose(a_cm, [0.0, -1.62, 0.0], atol=1e-12)
    assert body.name() == "ball"


def test_a_second_gravity_field_is_a_runtime_error():
    plant = MultibodyPlant(0.0)
    with pytest.raises(RuntimeError, match="already has a gravity field"):
        plant.add_force_element(UniformGravityFieldElement())


def test_force_element_by_pydrakes_keyword_and_joint_scalar_accessors():
    plant = MultibodyPlant(0.0)
    a = plant.add_rigid_body("a", _box(1.0))
    b = plant.add_rigid_body("b", _box(2.0))
    j1 = plant.add_joint(RevoluteJoint("j1", plant.world_frame(), a.body_frame(), [0, 0, 1]))
    plant.add_joint(WeldJoint("w", a.body_frame(), b.body_frame(), RigidTransform()))
    spring = plant.add_force_element(force_element=RevoluteSpring(j1, 0.5, 4.0))
    assert spring.stiffness() == 4.0
    with pytest.raises(TypeError, match="add_force_element: give the force element once"):
        plant.add_force_element()
    assert plant.get_mutable_joint_by_name("j1") is j1
    free = plant.add_rigid_body("free", _box(3.0))
    plant.finalize()
    context = plant.create_default_context()
    j1.set_angle(context, 0.25)
    v = np.zeros(plant.num_velocities())
    v[j1.velocity_start()] = -0.75
    plant.set_velocities(context, v)
    assert j1.get_one_position(context) == 0.25
    assert j1.get_one_velocity(context) == -0.75
    # the spring pulls towards its nominal angle: τ = -k (q - q0) = 1.0 on j1
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(context, forces)
    assert forces.generalized_forces()[j1.velocity_start()] == pytest.approx(1.0)
    floating = plant.get_joint(plant.get_joint_indices()[-1])
    with pytest.raises(RuntimeError, match="get_one_position: joint .* has 7 coordinates"):
        floating.get_one_position(context)
    instance = free.model_instance()
    assert plant.has_unique_free_base_body(instance)
    assert plant.get_unique_free_base_body_or_throw(instance) is free


# ------------------------------------------------------------------ group 7: kinematics
def test_points_velocities_of_a_rotating_link():
    plant, (a, b, c, d), _ = _arm(actuate=False)
    context = plant.create_default_context()
    w, slide_rate, theta, x = 2.0, 0.3, 0.4, 0.7
    q = plant.get_positions(context).copy()
    v = np.zeros(plant.num_velocities())
    j1, j2 = plant.get_joint_by_name("j1"), plant.get_joint_by_name("j2")
    q[j1.position_start()], q[j2.position_start()] = theta, x
    v[j1.velocity_start()], v[j2.velocity_start()] = w, slide_rate
    plant.set_positions(context, q)
    plant.set_velocities(context, v)
    p_BQ = np.array([[0.0, 0.1], [0.0, 0.2], [0.0, 0.0]])
    v_WQ_W = plant.calc_points_velocities(context, b.body_frame(), p_BQ, plant.world_frame(),
                                          plant.world_frame())
    R = RotationMatrix.make_z_rotation(theta).matrix()
    p_WQ = R @ (p_BQ + np.array([[x], [0.0], [0.0]]))
    expected = np.cross([0.0, 0.0, w], p_WQ.T).T + R @ np.array([[slide_rate], [0], [0]])
    np.testing.assert_allclose(v_WQ_W, expected, atol=1e-12)
    # measured in A (the link that carries the slider): only the slide rate, along A's x
    v_AQ_A = plant.calc_points_velocities(context, b.body_frame(), p_BQ, a.body_frame(),
                                          a.body_frame())
    np.testing.assert_allclose(v_AQ_A, [[slide_rate] * 2, [0, 0], [0, 0]], atol=1e-12)
    # a point fixed on B has zero velocity in B
    np.testing.assert_allclose(plant.calc_points_velocities(
        context, b.body_frame(), p_BQ, b.body_frame(), plant.world_frame()), 0.0, atol=1e-12)


def test_center_of_mass_acceleration_is_the_derivative_of_its_velocity():
    plant, _, _ = _arm(actuate=False)
    context = plant.create_default_context()
    rng = np.random.default_rng(3)
    q = plant.get_positions(context).copy()
    q[:2] = rng.normal(size=2)
    plant.set_positions(context, q)
    v = rng.normal(size=plant.num_velocities())
    plant.set_velocities(context, v)
    a_cm = plant.calc_center_of_mass_translational_acceleration_in_world(context)
    vdot = plant.calc_forward_dynamics(context)
    h = 1e-6
    shifted = plant.create_default_context()
    qdot = plant.map_velocity_to_qdot(context, v)
    plant.set_positions(shifted, q + h * qdot)
    plant.set_velocities(shifted, v + h * vdot)
    fd = (plant.calc_center_of_mass_translational_velocity_in_world(shifted)
          - plant.calc_center_of_mass_translational_velocity_in_world(context)) / h
    np.testing.assert_allclose(a_cm, fd, atol=1e-4)


def test_center_of_mass_jacobian_by_keyword():
    plant, (a, b, c, d), _ = _arm(actuate=False)
    context = plant.create_default_context()
    v = np.arange(1.0, plant.num_velocities() + 1.0)
    plant.set_velocities(context, v)
    J = plant.calc_jacobian_center_of_mass_translational_velocity(
        context, with_respect_to=JacobianWrtVariable.kV, frame_A=plant.world_frame(),
        frame_E=plant.world_frame())
    np.testing.assert_allclose(
        J @ v, plant.calc_center_of_mass_translational_velocity_in_world(context), atol=1e-12)
    instance = plant.default_model_instance()
    J_instance = plant.calc_jacobian_center_of_mass_translational_velocity(
        context, [instance], JacobianWrtVariable.kV, plant.world_frame(), plant.world_frame())
    np.testing.assert_allclose(J_instance, J, atol=1e-14)


def test_relative_transform_and_rotation_matrix():
    plant, (a, b, c, d), _ = _arm(actuate=False)
    context = plant.create_default_context()
    X_AC = plant.calc_relative_transform(context, frame_A=a.body_frame(),
                                         frame_B=c.body_frame())
    np.testing.assert_allclose(X_AC.translation(), [0.0, 0.0, 0.5], atol=1e-14)
    R = plant.calc_relative_rotation_matrix(context, frame_A=a.body_frame(),
                                            frame_B=c.body_frame())
    np.testing.assert_allclose(R.matrix(), np.eye(3), atol=1e-14)


# ------------------------------------------------------------------ group 7: selectors
def test_bodies_kinematically_affected_by_joints():
    plant, (a, b, c, d), (j1, j2, w) = _arm()
    assert plant.get_bodies_kinematically_affected_by([j1.index()]) == sorted(
        [a.index(), b.index(), c.index()])
    assert plant.get_bodies_kinematically_affected_by([j2.index()]) == sorted(
        [b.index(), c.index()])
    assert plant.get_bodies_kinematically_affected_by([w.index()]) == []
    with pytest.raises(RuntimeError, match="get_bodies_kinematically_affected_by: "
                                           "joint_indexes holds 99"):
        plant.get_bodies_kinematically_affected_by([99])


def test_state_selector_matrix_orders_positions_then_velocities():
    plant, _, (j1, j2, w) = _arm()
    S = plant.make_state_selector_matrix([j2.index(), j1.index()])
    nq = plant.num_positions()
    x = np.arange(nq + plant.num_velocities(), dtype=float)
    np.testing.assert_array_equal(
        S @ x, x[[j2.position_start(), j1.position_start(), nq + j2.velocity_start(),
                  nq + j1.velocity_start()]])
    with pytest.raises(RuntimeError, match="joint 'j1' is repeated"):
        plant.make_state_selector_matrix([j1.index(), j1.index()])


def test_actuator_selector_matrix_maps_selected_inputs_to_u():
    plant, _, (j1, j2, w) = _arm()
    u1 = plant.get_joint_actuator_by_name("u1")
    u2 = plant.get_joint_actuator_by_name("u2")
    S = plant.make_actuator_selector_matrix([u1.index()])
    u = S @ np.array([5.0])
    assert u[u1.input_start()] == 5.0 and u[u2.input_start()] == 0.0
    S_joints = plant.make_actuator_selector_matrix(
        user_to_joint_index_map=[j1.index(), j2.index()])
    np.testing.assert_array_equal(S_joints @ [1.0, 2.0],
                                  [2.0, 1.0] if u2.input_start() == 0 else [1.0, 2.0])
    np.testing.assert_array_equal(plant.make_actuator_selection_matrix([u2.index()]), S_joints[:, 1:])
    with pytest.raises(RuntimeError, match="joint 'w' does not have an actuator"):
        plant.make_actuator_selector_matrix(user_to_joint_index_map=[w.index()])


# ------------------------------------------------------------------ group 7: body forces
def test_body_forces_in_multibody_forces():
    plant, (a, b, c, d), _ = _arm(actuate=False)
    context = plant.create_default_context()
    forces = MultibodyForces(plant)
    f_W = np.array([0.0, 4.0, 0.0])
    # a force at the point of a at (1, 0, 0) in world: about j1's axis it is a torque of 4
    a.add_in_force(context, [1.0, 0.0, 0.0], SpatialForce([0, 0, 0], f_W), plant.world_frame(),
                   forces)
    np.testing.assert_allclose(a.get_force_in_world(context, forces).get_coeffs(),
                               [0, 0, 4.0, 0, 4.0, 0], atol=1e-14)
    b.add_in_force_in_world(context, SpatialForce([0, 0, 0], [3.0, 0, 0]), forces)
    tau = plant.calc_generalized_forces(context, forces)
    j1, j2 = plant.get_joint_by_name("j1"), plant.get_joint_by_name("j2")
    assert tau[j1.velocity_start()] == pytest.approx(4.0)
    assert tau[j2.velocity_start()] == pytest.approx(3.0)
    # expressed in a frame E = a's frame turned 90° about z by j1: E's x is the world's y
    q = plant.get_positions(context).copy()
    q[j1.position_start()] = np.pi / 2
    plant.set_positions(context, q)
    forces.set_zero()
    b.add_in_force(context, [0.0, 0.0, 0.0], SpatialForce([0, 0, 0], [1.0, 0, 0]),
                   a.body_frame(), forces)
    np.testing.assert_allclose(b.get_force_in_world(context, forces).translational(),
                               [0.0, 1.0, 0.0], atol=1e-12)


# ------------------------------------------------------------------ group 7: keywords
def test_pydrake_keywords_of_state_and_momentum_methods():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("free", _box(2.0))
    X = RigidTransform(RotationMatrix.make_x_rotation(0.3), [1.0, 2.0, 3.0])
    plant.set_default_free_body_pose(body, X_PB=X)
    np.testing.assert_allclose(plant.get_default_free_body_pose(body).translation(), [1, 2, 3])
    plant.finalize()
    context = plant.create_default_context()
    X2 = RigidTransform([0.0, 0.0, 1.0])
    plant.set_free_body_pose(context, body, X_JpJc=X2)
    np.testing.assert_allclose(plant.get_free_body_pose(context, body).translation(), [0, 0, 1])
    plant.set_velocities(context, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
    L = plant.calc_spatial_momentum_in_world_about_point(context, p_WoP_W=[0.0, 0.0, 0.0])
    # h about Wo = I ω + p × m v, with p = (0, 0, 1), m v = (2, 0, 0)
    I_zz = 2.0 * (0.2 ** 2 + 0.3 ** 2) / 12.0
    np.testing.assert_allclose(L.rotational(), [0.0, 2.0, I_zz], atol=1e-12)
    np.testing.assert_allclose(L.translational(), [2.0, 0.0, 0.0], atol=1e-12)
    q0 = plant.get_positions(context).copy()
    plant.set_default_positions(q=q0)
    np.testing.assert_allclose(plant.get_default_positions(), q0)


def test_state_setters_take_pydrakes_keywords():
    plant, _, (j1, _, _) = _arm()
    context = plant.create_default_context()
    nq, nv = plant.num_positions(), plant.num_velocities()
    instance = j1.model_instance()
    q_i = np.arange(1.0, 1.0 + plant.num_positions(instance))
    v_i = -np.arange(1.0, 1.0 + plant.num_velocities(instance))
    plant.set_positions(context, model_instance=instance, q=q_i)
    plant.set_velocities(context=context, model_instance=instance, v=v_i)
    np.testing.assert_array_equal(plant.get_positions(context, instance), q_i)
    np.testing.assert_array_equal(plant.get_velocities(context, instance), v_i)
    q = np.linspace(0.1, 0.9, nq)
    plant.set_positions(context, q=q)
    plant.set_velocities(context, instance, v=2.0 * v_i)
    np.testing.assert_array_equal(plant.get_positions(context), q)
    np.testing.assert_array_equal(plant.get_velocities(context, instance), 2.0 * v_i)
    x = np.linspace(-1.0, 1.0, nq + nv)
    plant.set_positions_and_velocities(context, q_v=x)
    np.testing.assert_array_equal(plant.get_positions_and_velocities(context), x)
    plant.set_positions_and_velocities(context, model_instance=instance,
                                       q_v=np.r_[q_i, v_i])
    np.testing.assert_array_equal(plant.get_positions_and_velocities(context, instance),
                                  np.r_[q_i, v_i])
    with pytest.raises(TypeError, match="set_positions: unexpected keyword argument 'v'; "
                                        "the valid ones are 'context', 'model_instance' and 'q'"):
        plant.set_positions(context, v=q)
    with pytest.raises(TypeError, match="set_velocities: model_instance= given without v="):
        plant.set_velocities(context, model_instance=instance)
    with pytest.raises(TypeError, match="set_positions: expected \\(context, q\\) or "
                                        "\\(context, model_instance, q\\), got 4 arguments"):
        plant.set_positions(context, instance, q, q)
    # the refused calls wrote nothing
    np.testing.assert_array_equal(plant.get_positions_and_velocities(context, instance),
                                  np.r_[q_i, v_i])


def test_wrong_context_names_both_systems():
    plant, _, _ = _arm()
    plant.set_name("arm")
    other = MultibodyPlant(0.0)
    other.set_name("other")
    other.add_rigid_body("x", _box())
    other.finalize()
    other_context = other.create_default_context()
    for call in (lambda: plant.calc_mass_matrix(other_context),
                 lambda: plant.get_positions(other_context),
                 lambda: plant.set_default_state_and_parameters(other_context)):
        with pytest.raises(RuntimeError, match="context was created for system 'other'.*"
                                               "does not contain system 'arm'"):
            call()


def test_misc_state_and_geometry_ports():
    plant = MultibodyPlant(0.0)
    # Drake's geometry_pose output exists before geometry registration
    assert plant.get_geometry_pose_output_port().get_name() == "geometry_pose"
    plant.add_rigid_body("x", _box())
    plant.finalize()
    assert plant.num_misc_continuous_states() == 0
    with pytest.raises(RuntimeError, match="eval_scene_graph_inspector: the geometry_query "
                                           "input port .* is not connected"):
        plant.eval_scene_graph_inspector(plant.create_default_context())


def test_eval_scene_graph_inspector_sees_registered_geometry():
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    body = plant.add_rigid_body("ball", _box())
    plant.register_collision_geometry(body, RigidTransform(), Sphere(0.1), "ball",
                                      CoulombFriction(0.5, 0.5))
    plant.finalize()
    diagram = builder.build()
    context = diagram.create_default_context()
    plant_context = plant.get_my_context_from_root(context)
    inspector = plant.eval_scene_graph_inspector(plant_context)
    assert inspector.num_geometries() == 1


def test_add_multibody_plant_scene_graph_takes_a_plant_as_drakes_overload():
    from merganser.geometry import SceneGraph
    builder = DiagramBuilder()
    mine = MultibodyPlant(0.01)
    mine.set_name("mine")
    plant, scene_graph = add_multibody_plant_scene_graph(builder, mine)
    assert plant is mine and plant.get_name() == "plant"          # renamed, as Drake does
    assert isinstance(scene_graph, SceneGraph) and plant.time_step() == 0.01
    body = plant.add_rigid_body("ball", _box())
    plant.register_collision_geometry(body, RigidTransform(), Sphere(0.1), "ball",
                                      CoulombFriction(0.5, 0.5))
    plant.finalize()
    diagram = builder.build()
    plant_context = plant.get_my_context_from_root(diagram.create_default_context())
    assert plant.eval_scene_graph_inspector(plant_context).num_geometries() == 1
    # the keyword form, with a given SceneGraph
    builder2, given = DiagramBuilder(), SceneGraph()
    plant2, sg2 = add_multibody_plant_scene_graph(builder2, plant=MultibodyPlant(0.0),
                                                  scene_graph=given)
    assert sg2 is given and plant2.time_step() == 0.0
    with pytest.raises(TypeError, match="exactly one of time_step .* or plant .*got both"):
        add_multibody_plant_scene_graph(DiagramBuilder(), 0.0, plant=MultibodyPlant(0.0))
    with pytest.raises(TypeError, match="exactly one of .*got neither"):
        add_multibody_plant_scene_graph(DiagramBuilder())
    with pytest.raises(TypeError, match="plant must be a MultibodyPlant, got str"):
        add_multibody_plant_scene_graph(DiagramBuilder(), plant="plant")
    builder3 = DiagramBuilder()
    with pytest.raises(RuntimeError, match="already finalized"):
        add_multibody_plant_scene_graph(builder3, plant)
    with pytest.raises(RuntimeError, match="already registered with a SceneGraph"):
        add_multibody_plant_scene_graph(builder3, plant2)
    assert builder3.get_systems() == []                 # nothing added on a refusal


def test_constructors_list_their_valid_keywords():
    with pytest.raises(TypeError, match="MultibodyPlant: unknown keyword argument 'timestep'.*; "
                                        "valid keywords: time_step, strict_inertia"):
        MultibodyPlant(timestep=0.01)
    plant, _, _ = _arm()
    with pytest.raises(TypeError, match="InverseDynamics: unknown keyword argument 'model'.*; "
                                        "valid keywords: plant, mode, plant_context"):
        InverseDynamics(plant, model="inverse_dynamics")


@pytest.mark.parametrize("bad", ["0.1", True, None, [0.1]])
def test_time_step_of_the_wrong_type_is_refused_naming_it(bad):
    with pytest.raises(TypeError, match=r"MultibodyPlant: time_step must be a real number.*got"):
        MultibodyPlant(bad)


def test_time_step_accepts_numpy_and_int_seconds():
    assert MultibodyPlant(np.float64(0.001)).time_step() == 0.001
    assert MultibodyPlant(0).time_step() == 0.0
