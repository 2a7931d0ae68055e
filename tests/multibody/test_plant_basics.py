"""MultibodyPlant basics: construction and introspection through the facade, lifecycle
errors, ports, state accessors, free bodies (quaternion q, world-frame angular velocity),
body parameters in the Context, caching, forces and the configuration helpers."""

import numpy as np
import pytest
import scipy.sparse
from pydantic import ValidationError

from merganser.framework import DiagramBuilder
from merganser.framework.primitives import ConstantVectorSource
from merganser.geometry import SceneGraph, RigidTransform, RollPitchYaw, RotationMatrix, quaternion_multiply
from merganser.multibody.math import SpatialForce, SpatialInertia, SpatialVelocity
from merganser.multibody.plant import (
    ContactResults,
    ExternallyAppliedSpatialForce,
    JacobianWrtVariable,
    MultibodyForces,
    MultibodyPlant,
    MultibodyPlantConfig,
    add_multibody_plant,
    add_multibody_plant_scene_graph,
)
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.tree import (
    ElementLookupError,
    FixedOffsetFrame,
    LinearSpringDamper,
    PrismaticJoint,
    RevoluteJoint,
    RevoluteSpring,
    TreeLifecycleError,
)

G_Y = 0.02          # central unit inertia of the pendulum bob about its center of mass (m²)
LENGTH = 0.7


def pendulum(time_step=0.0, mass=1.5, damping=0.0):
    """A body swinging about world y at Wo, center of mass LENGTH below the pivot."""
    plant = MultibodyPlant(time_step)
    M = SpatialInertia(mass, [0.0, 0.0, -LENGTH],
                       np.diag([G_Y, G_Y, 0.01]) + np.diag([LENGTH**2, LENGTH**2, 0.0]))
    bob = plant.add_rigid_body("bob", M)
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0, 1, 0], damping=damping))
    plant.add_joint_actuator("pivot", joint)
    plant.finalize()
    return plant


def trunk_inertia():
    I_cm = np.array([[0.03, 0.002, -0.001], [0.002, 0.08, 0.003], [-0.001, 0.003, 0.1]])
    return SpatialInertia.make_from_central_inertia(2.5, [0.01, -0.02, 0.03], I_cm)


def free_body(time_step=0.0):
    plant = MultibodyPlant(time_step)
    plant.add_rigid_body("trunk", trunk_inertia())
    plant.finalize()
    return plant


def two_robots():
    """Two model instances with a cart-on-rail robot each (same element names)."""
    plant = MultibodyPlant(0.0)
    for name in ("left", "right"):
        mi = plant.add_model_instance(name)
        cart = plant.add_rigid_body("cart", mi, SpatialInertia.solid_box_with_mass(2.0, .2, .2, .2))
        arm = plant.add_rigid_body("arm", mi, SpatialInertia.solid_box_with_mass(1.0, .1, .1, .5))
        rail = plant.add_joint(PrismaticJoint("rail", plant.world_frame(), cart.body_frame(),
                                              [1, 0, 0]))
        hinge_F = plant.add_frame(FixedOffsetFrame("hinge_F", cart.body_frame(),
                                                   RigidTransform([0, 0, 0.1])))
        hinge = plant.add_joint(RevoluteJoint("hinge", hinge_F, arm.body_frame(), [0, 1, 0]))
        plant.add_joint_actuator("rail_motor", rail)
        plant.add_joint_actuator("hinge_motor", hinge)
    plant.finalize()
    return plant


# ------------------------------------------------------------------ construction, lifecycle
def test_plant_forwards_construction_and_introspection_to_its_tree():
    plant = two_robots()
    left = plant.get_model_instance_by_name("left")
    assert (plant.world_model_instance(), plant.default_model_instance(), left) == (0, 1, 2)
    assert plant.num_model_instances() == 4
    assert plant.num_bodies() == 5 and plant.num_joints() == 4
    assert plant.num_positions() == plant.num_velocities() == plant.num_actuators() == 4
    assert plant.num_positions(left) == 2
    assert plant.get_body_by_name("arm", left).model_instance() == left
    assert plant.has_body_named("cart") and not plant.has_body_named("wheel")
    assert plant.get_body_indices(left) == [1, 2]
    assert plant.get_position_names() == ["left_rail_x", "left_hinge_q", "right_rail_x",
                                          "right_hinge_q"]
    assert plant.get_actuator_names(left) == ["rail_motor", "hinge_motor"]
    B = plant.make_actuation_matrix()
    np.testing.assert_array_equal(B, np.eye(4))
    assert plant.num_multibody_states() == 8
    assert plant.time_step() == 0.0 and not plant.is_discrete()
    assert plant.get_floating_base_bodies() == set()


def test_calls_in_the_wrong_phase_raise_with_drake_style_messages():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    with pytest.raises(TreeLifecycleError, match=r"num_positions\(\) requires finalize\(\)"):
        plant.num_positions()
    with pytest.raises(TreeLifecycleError,
                       match=r"create_default_context\(\) requires finalize\(\)"):
        plant.create_default_context()
    with pytest.raises(TreeLifecycleError,
                       match=r"get_state_output_port\(\) requires finalize\(\)"):
        plant.get_state_output_port()
    with pytest.raises(RuntimeError, match="MultibodyForces: the plant must be finalized"):
        MultibodyForces(plant)
    plant.finalize()
    with pytest.raises(TreeLifecycleError, match=r"add_rigid_body\(\) after finalize\(\) is not"):
        plant.add_rigid_body("c", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    with pytest.raises(TreeLifecycleError, match=r"set_contact_model\(\) after finalize\(\)"):
        plant.set_contact_model("point")
    with pytest.raises(TreeLifecycleError, match="already called"):
        plant.finalize()
    assert body.is_floating_base_body()


def test_time_step_must_be_finite_and_nonnegative():
    with pytest.raises(ValueError, match=r"MultibodyPlant: time_step must be finite and >= 0, "
                                         r"got -0.1"):
        MultibodyPlant(-0.1)
    with pytest.raises(ValueError, match="time_step must be finite"):
        MultibodyPlant(float("nan"))


def test_ambiguous_and_unknown_names_raise():
    plant = two_robots()
    with pytest.raises(ElementLookupError, match=r"'cart'.*'left', 'right'.*pass model_instance"):
        plant.get_body_by_name("cart")
    with pytest.raises(ElementLookupError, match="there is no frame named 'nope'"):
        plant.get_frame_by_name("nope")
    other = pendulum()
    context = plant.create_default_context()
    with pytest.raises(ValueError, match=r"calc_relative_transform: frame_A 'bob' does not "
                                         r"belong to this plant"):
        plant.calc_relative_transform(context, other.get_frame_by_name("bob"),
                                      plant.world_frame())


def test_state_setters_check_sizes_and_name_the_function():
    plant = two_robots()
    right = plant.get_model_instance_by_name("right")
    context = plant.create_default_context()
    with pytest.raises(ValueError, match=r"set_positions: q has size 3, expected nq = 4"):
        plant.set_positions(context, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"set_velocities: v has size 1, expected "
                                         r"num_velocities\(model_instance 3 'right'\) = 2"):
        plant.set_velocities(context, right, [1.0])
    with pytest.raises(ValueError, match=r"calc_inverse_dynamics: known_vdot has size 2, "
                                         r"expected nv = 4"):
        plant.calc_inverse_dynamics(context, np.zeros(2), MultibodyForces(plant))
    with pytest.raises(TypeError, match="get_positions: expected a Context, got list"):
        plant.get_positions([0.0])
    with pytest.raises(ValueError, match="get_positions: the context was created for system"):
        plant.get_positions(pendulum().create_default_context())


def test_positions_and_velocities_by_model_instance():
    plant = two_robots()
    left, right = (plant.get_model_instance_by_name(n) for n in ("left", "right"))
    context = plant.create_default_context()
    plant.set_positions(context, right, [0.5, -0.25])
    plant.set_velocities(context, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(plant.get_positions(context), [0, 0, 0.5, -0.25])
    np.testing.assert_array_equal(plant.get_velocities(context, left), [1.0, 2.0])
    np.testing.assert_array_equal(plant.get_positions_and_velocities(context, right),
                                  [0.5, -0.25, 3.0, 4.0])
    plant.set_positions_and_velocities(context, left, [7.0, 8.0, 9.0, 10.0])
    np.testing.assert_array_equal(plant.get_positions_and_velocities(context),
                                  [7, 8, 0.5, -0.25, 9, 10, 3, 4])
    np.testing.assert_array_equal(plant.get_state_output_port(right).eval(context),
                                  [0.5, -0.25, 3.0, 4.0])
    np.testing.assert_array_equal(plant.get_state_output_port().eval(context),
                                  plant.get_positions_and_velocities(context))
    joint = plant.get_joint_by_name("rail", right)
    joint.set_translation(context, 1.25)
    assert joint.get_translation(context) == 1.25
    hinge = plant.get_joint_by_name("hinge", left)
    hinge.set_angle(context, -0.5)
    assert hinge.get_angle(context) == -0.5 == plant.get_positions(context)[1]


def test_default_positions_feed_new_contexts():
    plant = pendulum()
    plant.set_default_positions([0.3])
    np.testing.assert_array_equal(plant.get_default_positions(), [0.3])
    context = plant.create_default_context()
    np.testing.assert_array_equal(plant.get_positions_and_velocities(context), [0.3, 0.0])


# ------------------------------------------------------------------ free bodies
def test_free_body_pose_and_velocity_round_trip_with_drake_coordinates():
    plant = free_body()
    trunk = plant.get_body_by_name("trunk")
    context = plant.create_default_context()
    assert plant.get_position_names(add_model_instance_prefix=False) == [
        "trunk_qw", "trunk_qx", "trunk_qy", "trunk_qz", "trunk_x", "trunk_y", "trunk_z"]
    np.testing.assert_array_equal(plant.get_positions(context), [1, 0, 0, 0, 0, 0, 0])
    X_WB = RigidTransform(RollPitchYaw(0.3, -0.2, 0.9), [1.0, 2.0, 3.0])
    plant.set_free_body_pose(context, trunk, X_WB)
    q = plant.get_positions(context)
    np.testing.assert_allclose(RotationMatrix(q[:4]).matrix(), X_WB.rotation().matrix(),
                               atol=1e-15)
    np.testing.assert_array_equal(q[4:], [1.0, 2.0, 3.0])
    assert plant.get_free_body_pose(context, trunk).is_nearly_equal_to(X_WB, 1e-14)
    assert plant.eval_body_pose_in_world(context, trunk).is_nearly_equal_to(X_WB, 1e-14)
    V = SpatialVelocity([0.4, -1.1, 2.0], [0.3, 0.2, -0.5])
    plant.set_free_body_spatial_velocity(context, trunk, V)
    np.testing.assert_array_equal(plant.get_velocities(context), V.get_coeffs())
    np.testing.assert_allclose(plant.get_free_body_spatial_velocity(context, trunk).get_coeffs(),
                               V.get_coeffs())
    np.testing.assert_allclose(
        plant.eval_body_spatial_velocity_in_world(context, trunk).get_coeffs(), V.get_coeffs(),
        atol=1e-14)
    # pydrake's deprecated order (body, V_WB, context) still works there, warned; here too
    V2 = SpatialVelocity([0.0, 0.0, 1.0], [1.0, 0.0, 0.0])
    with pytest.warns(DeprecationWarning, match="deprecated"):
        plant.set_free_body_spatial_velocity(trunk, V2, context)
    np.testing.assert_array_equal(plant.get_velocities(context), V2.get_coeffs())


def test_free_body_qdot_is_the_quaternion_rate_of_the_world_angular_velocity():
    plant = free_body()
    trunk = plant.get_body_by_name("trunk")
    context = plant.create_default_context()
    plant.set_free_body_pose(context, trunk, RigidTransform(RollPitchYaw(1.0, 0.4, -2.0),
                                                            [0.1, 0.2, 0.3]))
    w_WB, v_WBo = np.array([0.7, -0.3, 1.9]), np.array([-1.0, 0.5, 0.25])
    plant.set_velocities(context, np.concatenate([w_WB, v_WBo]))
    q = plant.get_positions(context)
    qdot = plant.eval_time_derivatives(context)[:7]
    # q̇ = ½ [0; w_WB_W] ⊗ q: the angular velocity is expressed in the world frame.
    np.testing.assert_allclose(qdot[:4], 0.5 * quaternion_multiply(np.r_[0.0, w_WB], q[:4]),
                               atol=1e-15)
    np.testing.assert_allclose(qdot[4:], v_WBo, atol=1e-15)
    np.testing.assert_allclose(plant.map_velocity_to_qdot(context, np.r_[w_WB, v_WBo]), qdot,
                               atol=1e-15)
    np.testing.assert_allclose(plant.map_qdot_to_velocity(context, qdot), np.r_[w_WB, v_WBo],
                               atol=1e-14)
    N = plant.make_velocity_to_qdot_map(context)
    Nplus = plant.make_qdot_to_velocity_map(context)
    assert scipy.sparse.issparse(N) and scipy.sparse.issparse(Nplus)
    assert N.shape == (7, 6) and Nplus.shape == (6, 7)
    np.testing.assert_allclose(N @ np.r_[w_WB, v_WBo], qdot, atol=1e-15)
    np.testing.assert_allclose((Nplus @ N).toarray(), np.eye(6), atol=1e-14)
    assert not plant.is_velocity_equal_to_qdot()
    W = plant.world_frame()
    J_v = plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kV,
                                               trunk.body_frame(), [0.1, 0, 0], W, W)
    J_qdot = plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kQDot,
                                                  trunk.body_frame(), [0.1, 0, 0], W, W)
    assert J_qdot.shape == (6, 7)
    np.testing.assert_allclose(J_qdot @ qdot, J_v @ np.r_[w_WB, v_WBo], atol=1e-14)


def test_free_body_kinetic_energy_has_the_closed_form():
    plant = free_body()
    trunk = plant.get_body_by_name("trunk")
    context = plant.create_default_context()
    X_WB = RigidTransform(RollPitchYaw(-0.6, 0.2, 1.3), [0.0, 1.0, 0.5])
    plant.set_free_body_pose(context, trunk, X_WB)
    w, v_o = np.array([1.5, -0.4, 0.8]), np.array([0.2, -0.7, 1.1])
    plant.set_velocities(context, np.r_[w, v_o])
    M = trunk_inertia()
    R = X_WB.rotation().matrix()
    c_W = R @ M.get_com()
    I_cm_B = M.shift(M.get_com()).calc_rotational_inertia().copy_to_full_matrix3()
    v_cm = v_o + np.cross(w, c_W)
    ke = 0.5 * M.get_mass() * v_cm @ v_cm + 0.5 * w @ (R @ I_cm_B @ R.T) @ w
    assert abs(plant.calc_kinetic_energy(context) - ke) < 1e-13
    L = plant.calc_spatial_momentum_in_world_about_point(context, X_WB.translation() + c_W)
    np.testing.assert_allclose(L.translational(), M.get_mass() * v_cm, atol=1e-14)
    np.testing.assert_allclose(L.rotational(), R @ I_cm_B @ R.T @ w, atol=1e-14)
    np.testing.assert_allclose(plant.calc_center_of_mass_translational_velocity_in_world(context),
                               v_cm, atol=1e-14)


def test_set_free_body_pose_rejects_a_body_with_a_joint():
    plant = pendulum()
    context = plant.create_default_context()
    with pytest.raises(ValueError, match=r"set_free_body_pose: body 'bob' is not a free"):
        plant.set_free_body_pose(context, plant.get_body_by_name("bob"), RigidTransform())


# ------------------------------------------------------------------ body parameters
def test_set_mass_scales_the_mass_matrix_in_that_context_only():
    plant = pendulum(mass=1.5)
    bob = plant.get_body_by_name("bob")
    context, other = plant.create_default_context(), plant.create_default_context()
    G_yy = G_Y + LENGTH**2                       # unit inertia about the pivot, axis y
    np.testing.assert_allclose(plant.calc_mass_matrix(context), [[1.5 * G_yy]], rtol=1e-15)
    bob.set_mass(context, 4.0)
    assert bob.get_mass(context) == 4.0 and bob.get_mass(other) == 1.5
    M4 = plant.calc_mass_matrix(context)[0, 0]
    np.testing.assert_allclose(M4, 4.0 * G_yy, rtol=1e-15)
    np.testing.assert_allclose(plant.calc_mass_matrix(other), [[1.5 * G_yy]], rtol=1e-15)
    # M is linear in m at fixed unit inertia: dM/dm = G_yy.
    bob.set_mass(context, 5.0)
    np.testing.assert_allclose(plant.calc_mass_matrix(context)[0, 0] - M4, G_yy, rtol=1e-13)
    M_BBo_B = bob.calc_spatial_inertia_in_body_frame(context)
    assert M_BBo_B.get_mass() == 5.0
    np.testing.assert_allclose(M_BBo_B.get_com(), [0, 0, -LENGTH])
    np.testing.assert_allclose(M_BBo_B.get_unit_inertia().copy_to_full_matrix3(),
                               bob.default_spatial_inertia().get_unit_inertia()
                               .copy_to_full_matrix3())
    # Gravity torque scales with the mass as well.
    plant.set_positions(context, [0.4])
    np.testing.assert_allclose(plant.calc_gravity_generalized_forces(context),
                               [-5.0 * 9.81 * LENGTH * np.sin(0.4)], rtol=1e-14)


def test_set_spatial_inertia_changes_the_dynamics_of_that_context():
    plant = pendulum()
    bob = plant.get_body_by_name("bob")
    context = plant.create_default_context()
    new = SpatialInertia.point_mass(2.0, [0.0, 0.0, -1.0])
    bob.set_spatial_inertia_in_body_frame(context, new)
    np.testing.assert_allclose(plant.calc_mass_matrix(context), [[2.0]], rtol=1e-15)
    np.testing.assert_allclose(plant.calc_center_of_mass_position_in_world(context), [0, 0, -1])
    with pytest.raises(ValueError, match=r"RigidBody.set_mass: mass of body 'bob' must be "
                                         r"finite and >= 0, got -1"):
        bob.set_mass(context, -1.0)


# ------------------------------------------------------------------ caching
def test_changing_v_does_not_recompute_position_kinematics(monkeypatch):
    plant = pendulum()
    context = plant.create_default_context()
    calls = []
    dyn = get_plant_core(plant).dyn            # this thread's kernel facade
    original = dyn.forward_kinematics
    monkeypatch.setattr(dyn, "forward_kinematics",
                        lambda q: calls.append(1) or original(q))
    bob = plant.get_body_by_name("bob")
    world, B = plant.world_frame(), bob.body_frame()
    # calc_relative_transform reads the position kinematics cache entry
    # (eval_body_pose_in_world computes the body's path in one kernel call, no entry)
    plant.calc_relative_transform(context, world, B)
    plant.calc_relative_transform(context, world, B)
    assert len(calls) == 1
    plant.set_velocities(context, [2.0])
    plant.calc_relative_transform(context, world, B)
    assert len(calls) == 1
    plant.set_positions(context, [0.5])
    X = plant.calc_relative_transform(context, world, B)
    assert len(calls) == 2
    for pose in (X, plant.eval_body_pose_in_world(context, bob)):
        np.testing.assert_allclose(pose.rotation().matrix(),
                                   RotationMatrix.make_y_rotation(0.5).matrix(), atol=1e-15)


def test_cloned_context_is_independent_and_consistent():
    plant = pendulum()
    bob = plant.get_body_by_name("bob")
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, [0.3, 1.0])
    vdot = plant.calc_forward_dynamics(context)
    clone = context.clone()
    np.testing.assert_array_equal(plant.calc_forward_dynamics(clone), vdot)
    plant.set_positions(clone, [-0.3])
    bob.set_mass(clone, 3.0)
    np.testing.assert_allclose(plant.calc_forward_dynamics(clone), -vdot, rtol=1e-14)
    np.testing.assert_allclose(plant.eval_body_pose_in_world(clone, bob).rotation().matrix(),
                               RotationMatrix.make_y_rotation(-0.3).matrix(), atol=1e-15)
    np.testing.assert_array_equal(plant.calc_forward_dynamics(context), vdot)
    assert bob.get_mass(context) == 1.5


# ------------------------------------------------------------------ frames and Jacobians
def moving_frames():
    """two_robots with frames on the left arm (B), the right cart (A) and the right arm (E)."""
    plant = MultibodyPlant(0.0)
    for name in ("left", "right"):
        mi = plant.add_model_instance(name)
        cart = plant.add_rigid_body("cart", mi, SpatialInertia.solid_box_with_mass(2.0, .2, .2, .2))
        arm = plant.add_rigid_body("arm", mi, SpatialInertia.solid_box_with_mass(1.0, .1, .1, .5))
        plant.add_joint(PrismaticJoint("rail", plant.world_frame(), cart.body_frame(), [1, 0, 0]))
        hinge_F = plant.add_frame(FixedOffsetFrame("hinge_F", cart.body_frame(),
                                                   RigidTransform([0, 0, 0.1])))
        plant.add_joint(RevoluteJoint("hinge", hinge_F, arm.body_frame(), [0, 1, 1]))
    left, right = (plant.get_model_instance_by_name(n) for n in ("left", "right"))
    B = plant.add_frame(FixedOffsetFrame("B", plant.get_body_by_name("arm", left).body_frame(),
                                         RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [.1, 0, .3])))
    A = plant.add_frame(FixedOffsetFrame("A", plant.get_body_by_name("cart", right).body_frame(),
                                         RigidTransform(RollPitchYaw(-0.5, 0.0, 0.4), [0, .2, 0])))
    E = plant.add_frame(FixedOffsetFrame("E", plant.get_body_by_name("arm", right).body_frame(),
                                         RigidTransform(RollPitchYaw(0.0, 1.0, 0.0), [0, 0, 0])))
    plant.finalize()
    context = plant.create_default_context()
    plant.set_positions(context, [0.3, -0.7, 0.1, 1.2])
    plant.set_velocities(context, [0.5, 1.0, -0.2, 0.3])
    return plant, context, A, B, E


def test_jacobians_between_moving_frames_match_finite_differences():
    plant, context, A, B, E = moving_frames()
    p_BoBi_B = np.array([[0.1, -0.2], [0.0, 0.3], [0.2, 0.05]])      # two points
    q, v = plant.get_positions(context), plant.get_velocities(context)
    R_EA = plant.calc_relative_rotation_matrix(context, E, A).matrix()

    def positions_and_rotation(q_):
        plant.set_positions(context, q_)
        return (plant.calc_points_positions(context, B, p_BoBi_B, A),
                plant.calc_relative_transform(context, A, B).rotation().matrix())

    h = 1e-6
    (p_plus, R_plus), (p_minus, R_minus) = (positions_and_rotation(q + s * h * v)
                                            for s in (1.0, -1.0))
    plant.set_positions(context, q)
    v_ABi_E = R_EA @ (p_plus - p_minus) / (2 * h)                    # (3, 2)
    R_AB = plant.calc_relative_rotation_matrix(context, A, B).matrix()
    W = (R_plus - R_minus) / (2 * h) @ R_AB.T
    w_AB_E = R_EA @ np.array([W[2, 1], W[0, 2], W[1, 0]])
    kV = JacobianWrtVariable.kV
    Jt = plant.calc_jacobian_translational_velocity(context, kV, B, p_BoBi_B, A, E)
    assert Jt.shape == (6, 4)
    np.testing.assert_allclose(Jt @ v, v_ABi_E.T.reshape(6), atol=1e-8)
    Jw = plant.calc_jacobian_angular_velocity(context, kV, B, A, E)
    np.testing.assert_allclose(Jw @ v, w_AB_E, atol=1e-8)
    Js = plant.calc_jacobian_spatial_velocity(context, kV, B, p_BoBi_B[:, 1], A, E)
    np.testing.assert_allclose(Js[:3], Jw, atol=1e-15)
    np.testing.assert_allclose(Js[3:], Jt[3:], atol=1e-15)
    with pytest.raises(TypeError, match="with_respect_to must be JacobianWrtVariable"):
        plant.calc_jacobian_angular_velocity(context, "kV", B, A, E)


def test_bias_acceleration_completes_the_point_acceleration():
    plant, context, A, B, E = moving_frames()
    W = plant.world_frame()
    p_BoBp_B = np.array([0.1, -0.2, 0.3])
    vdot = plant.calc_forward_dynamics(context)
    v = plant.get_velocities(context)
    kV = JacobianWrtVariable.kV
    J = plant.calc_jacobian_spatial_velocity(context, kV, B, p_BoBp_B, W, E)
    bias = plant.calc_bias_spatial_acceleration(context, kV, B, p_BoBp_B, W, E).get_coeffs()
    arm = B.body()
    A_WB = plant.eval_body_spatial_acceleration_in_world(context, arm).get_coeffs()
    V_WB = plant.eval_body_spatial_velocity_in_world(context, arm).get_coeffs()
    alpha, a_Bo, w = A_WB[:3], A_WB[3:], V_WB[:3]
    r = plant.calc_points_positions(context, B, p_BoBp_B, W)[:, 0] - \
        plant.eval_body_pose_in_world(context, arm).translation()
    a_Bp = a_Bo + np.cross(alpha, r) + np.cross(w, np.cross(w, r))
    R_EW = plant.calc_relative_rotation_matrix(context, E, W).matrix()
    np.testing.assert_allclose(J @ vdot + bias, np.r_[R_EW @ alpha, R_EW @ a_Bp], atol=1e-12)
    biases = plant.calc_bias_translational_acceleration(
        context, kV, B, np.c_[p_BoBp_B, np.zeros(3)], W, E)
    np.testing.assert_allclose(biases[:, 0], bias[3:], atol=1e-15)
    assert np.abs(v).max() > 0
    with pytest.raises(ValueError, match="frame_A must be the world frame"):
        plant.calc_bias_spatial_acceleration(context, kV, B, p_BoBp_B, A, E)


def test_center_of_mass_jacobian_and_per_instance_mass_properties():
    plant, context, A, B, E = moving_frames()
    left = plant.get_model_instance_by_name("left")
    W = plant.world_frame()
    v = plant.get_velocities(context)
    Jcm = plant.calc_jacobian_center_of_mass_translational_velocity(
        context, JacobianWrtVariable.kV, W, W)
    np.testing.assert_allclose(Jcm @ v,
                               plant.calc_center_of_mass_translational_velocity_in_world(context),
                               atol=1e-14)
    np.testing.assert_allclose(
        plant.calc_jacobian_center_of_mass_translational_velocity(
            context, [left], JacobianWrtVariable.kV, W, W) @ v,
        plant.calc_center_of_mass_translational_velocity_in_world(context, [left]), atol=1e-14)
    assert plant.calc_total_mass(context) == 6.0
    assert plant.calc_total_mass(context, [left]) == 3.0
    cart, arm = (plant.get_body_by_name(n, left) for n in ("cart", "arm"))
    p_cm = (2.0 * plant.eval_body_pose_in_world(context, cart).translation()
            + 1.0 * plant.eval_body_pose_in_world(context, arm).translation()) / 3.0
    np.testing.assert_allclose(plant.calc_center_of_mass_position_in_world(context, [left]), p_cm,
                               atol=1e-15)
    L_all = plant.calc_spatial_momentum_in_world_about_point(context, [0.1, 0.2, 0.3])
    L_parts = [plant.calc_spatial_momentum_in_world_about_point(context, [mi], [0.1, 0.2, 0.3])
               for mi in (left, plant.get_model_instance_by_name("right"))]
    np.testing.assert_allclose(L_parts[0].get_coeffs() + L_parts[1].get_coeffs(),
                               L_all.get_coeffs(), atol=1e-14)
    with pytest.raises(ValueError, match="the total mass of the selected bodies is 0.0"):
        plant.calc_center_of_mass_position_in_world(context, [plant.default_model_instance()])


# ------------------------------------------------------------------ ports and forces
def test_port_names_and_feedthrough_follow_drake():
    plant = two_robots()
    names_in = [plant.get_input_port(i).get_name() for i in range(plant.num_input_ports())]
    assert names_in == ["geometry_query", "actuation", "applied_generalized_force",
                        "applied_spatial_force"] + [
        f"{name}_{kind}" for name in ("WorldModelInstance", "DefaultModelInstance", "left",
                                      "right") for kind in ("actuation", "desired_state")]
    right = plant.get_model_instance_by_name("right")
    assert plant.get_actuation_input_port(right).get_name() == "right_actuation"
    assert plant.get_state_output_port(right).get_name() == "right_state"
    assert plant.get_generalized_acceleration_output_port(right).size() == 2
    u = plant.get_actuation_input_port().get_index()
    assert not plant.has_direct_feedthrough(u, plant.get_state_output_port().get_index())
    assert not plant.has_direct_feedthrough(u, plant.get_body_poses_output_port().get_index())
    assert plant.has_direct_feedthrough(
        u, plant.get_generalized_acceleration_output_port().get_index())
    assert plant.get_geometry_pose_output_port().get_name() == "geometry_pose"


def test_instance_actuation_adds_to_the_full_actuation_input():
    plant = two_robots()
    right = plant.get_model_instance_by_name("right")
    context = plant.create_default_context()
    plant.set_positions(context, [0.1, 0.2, 0.3, 0.4])
    plant.get_actuation_input_port().fix_value(context, [1.0, 2.0, 3.0, 4.0])
    plant.get_actuation_input_port(right).fix_value(context, [10.0, 20.0])
    np.testing.assert_array_equal(plant.get_net_actuation_output_port().eval(context),
                                  [1, 2, 13, 24])
    vdot = plant.calc_forward_dynamics(context)
    reference = plant.create_default_context()
    plant.set_positions(reference, [0.1, 0.2, 0.3, 0.4])
    plant.get_applied_generalized_force_input_port().fix_value(reference, [1, 2, 13, 24])
    np.testing.assert_allclose(vdot, plant.calc_forward_dynamics(reference), atol=1e-13)
    np.testing.assert_allclose(
        plant.get_generalized_acceleration_output_port(right).eval(context), vdot[2:])


def test_unconnected_inputs_apply_nothing_and_actuation_is_not_clamped():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("slider", SpatialInertia.solid_box_with_mass(2.0, 1, 1, 1))
    joint = plant.add_joint(PrismaticJoint("x", plant.world_frame(), body.body_frame(),
                                           [1, 0, 0]))
    plant.add_joint_actuator("motor", joint, effort_limit=1.0)
    plant.finalize()
    context = plant.create_default_context()
    np.testing.assert_array_equal(plant.calc_forward_dynamics(context), [0.0])
    plant.get_actuation_input_port().fix_value(context, [10.0])
    np.testing.assert_allclose(plant.calc_forward_dynamics(context), [5.0])   # 10 N / 2 kg
    np.testing.assert_array_equal(plant.get_effort_upper_limits(), [1.0])


def test_applied_spatial_force_equals_its_jacobian_transpose_generalized_force():
    plant = two_robots()
    context = plant.create_default_context()
    plant.set_positions(context, [0.3, -0.7, 0.1, 1.2])
    plant.set_velocities(context, [0.5, 1.0, -0.2, 0.3])
    arm = plant.get_body_by_name("arm", plant.get_model_instance_by_name("left"))
    p_BoBq_B = np.array([0.05, 0.0, 0.2])
    F_Bq_W = SpatialForce([0.1, -0.4, 0.3], [2.0, 1.0, -3.0])
    plant.get_applied_spatial_force_input_port().fix_value(
        context, [ExternallyAppliedSpatialForce(arm.index(), p_BoBq_B, F_Bq_W)])
    vdot = plant.calc_forward_dynamics(context)
    W = plant.world_frame()
    J = plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kV, arm.body_frame(),
                                             p_BoBq_B, W, W)
    reference = plant.create_default_context()
    plant.set_positions_and_velocities(reference, plant.get_positions_and_velocities(context))
    plant.get_applied_generalized_force_input_port().fix_value(reference,
                                                               J.T @ F_Bq_W.get_coeffs())
    np.testing.assert_allclose(vdot, plant.calc_forward_dynamics(reference), atol=1e-12)
    forces = MultibodyForces(plant)
    X_WB = plant.eval_body_pose_in_world(context, arm)
    p_BoBq_W = X_WB.rotation().matrix() @ p_BoBq_B
    forces.body_forces()[arm.index()] = F_Bq_W.shift(p_BoBq_W * -1.0).get_coeffs()
    np.testing.assert_allclose(plant.calc_generalized_forces(context, forces),
                               J.T @ F_Bq_W.get_coeffs(), atol=1e-12)


def test_inverse_dynamics_inverts_forward_dynamics_with_all_forces():
    plant = two_robots()
    context = plant.create_default_context()
    plant.set_positions(context, [0.3, -0.7, 0.1, 1.2])
    plant.set_velocities(context, [0.5, 1.0, -0.2, 0.3])
    plant.get_actuation_input_port().fix_value(context, [1.0, -2.0, 0.5, 0.25])
    vdot = plant.calc_forward_dynamics(context)
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(context, forces)
    tau = plant.calc_inverse_dynamics(context, vdot, forces)
    np.testing.assert_allclose(tau, [1.0, -2.0, 0.5, 0.25], atol=1e-12)
    more = MultibodyForces(plant)
    more.generalized_forces()[:] = 1.0
    more.add_in_force(forces)
    np.testing.assert_allclose(plant.calc_inverse_dynamics(context, vdot, more), tau - 1.0,
                               atol=1e-12)
    with pytest.raises(ValueError, match="add_in_forces: addend has nv = 1"):
        more.add_in_force(MultibodyForces(pendulum()))


def test_reaction_force_of_a_swinging_pendulum_is_newtons_second_law():
    mass, theta, theta_dot = 1.5, 0.6, -2.0
    plant = pendulum(mass=mass)
    context = plant.create_default_context()
    plant.set_positions(context, [theta])
    plant.set_velocities(context, [theta_dot])
    theta_ddot = plant.calc_forward_dynamics(context)[0]
    # The center of mass moves on a circle of radius LENGTH about the pivot (axis y).
    R = RotationMatrix.make_y_rotation(theta).matrix()
    c = R @ [0.0, 0.0, -LENGTH]
    w, alpha = np.array([0, theta_dot, 0]), np.array([0, theta_ddot, 0])
    a_cm = np.cross(alpha, c) + np.cross(w, np.cross(w, c))
    f_W = mass * a_cm - mass * np.array([0.0, 0.0, -9.81])
    F = plant.get_reaction_forces_output_port().eval(context)
    assert len(F) == plant.num_joints() == 1
    # Jc is the body frame (origin at the pivot): the joint force is expressed in B.
    np.testing.assert_allclose(F[0].translational(), R.T @ f_W, atol=1e-12)
    # No torque about the pin axis (the joint is unactuated and undamped).
    assert abs(F[0].rotational()[1]) < 1e-12


def test_force_elements_and_disabled_gravity_enter_the_dynamics():
    """A mass on a rail (x) held by a LinearSpringDamper to the world, and a pendulum with
    a RevoluteSpring whose model instance has gravity disabled."""
    plant = MultibodyPlant(0.0)
    mi = plant.add_model_instance("floating_in_space")
    cart = plant.add_rigid_body("cart", SpatialInertia.point_mass(2.0, [0, 0, 0]))
    plant.add_joint(PrismaticJoint("rail", plant.world_frame(), cart.body_frame(), [1, 0, 0]))
    bob = plant.add_rigid_body("bob", mi, SpatialInertia.point_mass(1.0, [0, 0, -0.5]))
    pivot = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0, 1, 0]))
    plant.add_force_element(LinearSpringDamper(plant.world_body(), [-1.0, 0, 0], cart,
                                               [0, 0, 0], 1.0, 40.0, 3.0))
    plant.add_force_element(RevoluteSpring(pivot, 0.0, 5.0))
    plant.set_gravity_enabled(mi, False)
    plant.finalize()
    context = plant.create_default_context()
    x, theta, xdot, theta_dot = 0.25, 0.4, -0.5, 1.5
    plant.set_positions_and_velocities(context, [x, theta, xdot, theta_dot])
    # Spring stretched by x (length 1 + x), damper opposes xdot; the pendulum only feels
    # its spring (I = m l² = 0.25).
    expected = [(-40.0 * x - 3.0 * xdot) / 2.0, -5.0 * theta / 0.25]
    np.testing.assert_allclose(plant.calc_forward_dynamics(context), expected, rtol=1e-12)
    np.testing.assert_allclose(plant.calc_gravity_generalized_forces(context), [0.0, 0.0],
                               atol=1e-15)
    pe = 0.5 * 40.0 * x**2 + 0.5 * 5.0 * theta**2
    assert abs(plant.calc_potential_energy(context) - pe) < 1e-12
    assert abs(plant.calc_non_conservative_power(context) + 3.0 * xdot**2) < 1e-12
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(context, forces)
    np.testing.assert_allclose(plant.calc_generalized_forces(context, forces),
                               [-40.0 * x - 3.0 * xdot, -5.0 * theta], rtol=1e-12)


def test_reflected_inertia_adds_to_the_mass_matrix_and_the_dynamics():
    plant = MultibodyPlant(0.0)
    bob = plant.add_rigid_body("bob", SpatialInertia.point_mass(1.0, [0, 0, -0.5]))
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0, 1, 0]))
    motor = plant.add_joint_actuator("motor", joint)
    motor.set_default_rotor_inertia(0.01)
    motor.set_default_gear_ratio(5.0)               # reflected: 25 * 0.01 = 0.25
    plant.finalize()
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, [0.3, 2.0])
    plant.get_actuation_input_port().fix_value(context, [1.0])
    np.testing.assert_allclose(plant.calc_mass_matrix(context), [[0.5]], rtol=1e-15)
    expected = (1.0 - 9.81 * 0.5 * np.sin(0.3)) / 0.5
    np.testing.assert_allclose(plant.calc_forward_dynamics(context), [expected], rtol=1e-13)
    assert abs(plant.calc_kinetic_energy(context) - 0.5 * 0.5 * 4.0) < 1e-14


def test_contact_results_are_empty_until_contact_exists():
    plant = pendulum()
    context = plant.create_default_context()
    results = plant.get_contact_results_output_port().eval(context)
    assert isinstance(results, ContactResults)
    assert results.num_point_pair_contacts() == 0 == results.num_hydroelastic_contacts()
    with pytest.raises(IndexError, match="index 0 out of range; there are 0 point contacts"):
        results.point_pair_contact_info(0)


def test_plant_methods_refuse_a_diagram_context_as_drake():
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    assert isinstance(scene_graph, SceneGraph) and plant.get_name() == "plant"
    bob = plant.add_rigid_body("bob", SpatialInertia.point_mass(1.0, [0, 0, -1.0]))
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0, 1, 0]))
    plant.add_joint_actuator("pivot", joint)
    plant.finalize()
    source = builder.add_system(ConstantVectorSource([2.0]))
    builder.connect(source.get_output_port(), plant.get_actuation_input_port())
    diagram = builder.build()
    root = diagram.create_default_context()
    for call in (lambda: joint.set_angle(root, 0.25), lambda: plant.get_positions(root),
                 lambda: plant.calc_forward_dynamics(root),
                 lambda: plant.eval_body_pose_in_world(root, bob)):
        with pytest.raises(RuntimeError, match="expected the context of MultibodyPlant "
                                               "'plant'.*get_my_context_from_root"):
            call()
    ctx = plant.get_my_context_from_root(root)
    joint.set_angle(ctx, 0.25)
    np.testing.assert_array_equal(plant.get_positions(ctx), [0.25])
    expected = 2.0 - 9.81 * np.sin(0.25)            # I = m l² = 1
    np.testing.assert_allclose(plant.calc_forward_dynamics(ctx), [expected], rtol=1e-14)
    np.testing.assert_allclose(diagram.eval_time_derivatives(root), [0.0, expected], rtol=1e-14)


def test_energy_rate_equals_non_conservative_power():
    plant = pendulum(damping=0.3)
    context = plant.create_default_context()
    plant.set_positions(context, [0.8])
    plant.set_velocities(context, [1.3])
    plant.get_actuation_input_port().fix_value(context, [0.7])
    bob = plant.get_body_by_name("bob")
    plant.get_applied_spatial_force_input_port().fix_value(context, [
        ExternallyAppliedSpatialForce(bob.index(), [0.0, 0.0, -LENGTH],
                                      SpatialForce([0, 0, 0], [0.5, 0.0, 0.2]))])
    x = plant.get_positions_and_velocities(context)
    xdot = plant.eval_time_derivatives(context)
    pnc = plant.calc_non_conservative_power(context)
    pc = plant.calc_conservative_power(context)

    def energy(x_):
        plant.set_positions_and_velocities(context, x_)
        return plant.calc_kinetic_energy(context) + plant.calc_potential_energy(context)

    def potential(x_):
        plant.set_positions_and_velocities(context, x_)
        return plant.calc_potential_energy(context)

    h = 1e-6
    dE = (energy(x + h * xdot) - energy(x - h * xdot)) / (2 * h)
    dV = (potential(x + h * xdot) - potential(x - h * xdot)) / (2 * h)
    assert abs(dE - pnc) < 1e-7 * max(1.0, abs(pnc))
    assert abs(-dV - pc) < 1e-7


# ------------------------------------------------------------------ configuration
def test_multibody_plant_config_validates_its_choices():
    config = MultibodyPlantConfig()
    assert (config.time_step, config.penetration_allowance, config.stiction_tolerance,
            config.contact_model, config.discrete_contact_approximation) == (
        0.001, 0.001, 1e-4, "hydroelastic_with_fallback", "sap")
    with pytest.raises(ValidationError, match="contact_model must be one of 'point'.*got 'soft'"):
        MultibodyPlantConfig(contact_model="soft")
    with pytest.raises(ValidationError, match="discrete_contact_approximation"):
        MultibodyPlantConfig(discrete_contact_approximation="pgs")
    with pytest.raises(ValidationError, match="unknown keyword 'timestep'; did you mean 'time_step'"):
        MultibodyPlantConfig(timestep=0.1)
    with pytest.raises(ValidationError, match="time_step"):
        MultibodyPlantConfig(time_step=-1.0)


def test_add_multibody_plant_applies_the_config():
    builder = DiagramBuilder()
    config = MultibodyPlantConfig(time_step=0.01, contact_model="point",
                                  discrete_contact_approximation="tamsi",
                                  penetration_allowance=0.002, stiction_tolerance=1e-3)
    plant, scene_graph = add_multibody_plant(config, builder)
    assert isinstance(scene_graph, SceneGraph)
    assert plant.time_step() == 0.01 and plant.is_discrete()
    assert plant.get_contact_model() == "point"
    assert plant.get_discrete_contact_approximation() == "tamsi"
    assert plant.get_penetration_allowance() == 0.002
    assert plant.get_stiction_tolerance() == 1e-3
    assert builder.get_subsystem_by_name("plant") is plant
    with pytest.raises(ValueError, match="set_contact_model: model must be one of"):
        plant.set_contact_model("soft")
