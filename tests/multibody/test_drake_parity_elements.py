"""Drake parity of the tree's elements and spatial vectors: pydrake's keyword names,
typed indices, Drake's repr, defaults (written from Drake's documented behaviour)."""

import copy

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RotationMatrix
from merganser.multibody import (
    BodyIndex, FixedOffsetFrame, FrameIndex, JointActuatorIndex, JointIndex,
    ModelInstanceIndex, MultibodyPlant, RevoluteJoint, RigidBody, ScrewJoint,
    SpatialAcceleration, SpatialForce, SpatialInertia, SpatialMomentum, SpatialVelocity,
    UnitInertia, WeldJoint, default_model_instance, world_frame_index, world_index,
    world_model_instance,
)


# ---------------------------------------------------------------- spatial vectors
@pytest.mark.parametrize("cls, coeffs, rot, trans", [
    (SpatialVelocity, "V", "w", "v"), (SpatialAcceleration, "A", "alpha", "a"),
    (SpatialForce, "F", "tau", "f"), (SpatialMomentum, "L", "h", "l")])
def test_spatial_vector_construction_repr_and_in_place_ops(cls, coeffs, rot, trans):
    assert np.isnan(cls().get_coeffs()).all()            # Drake's default is NaN
    x = np.array([0.1, 0.3, 0.5, 0.0, 1.0, 2.0])
    vec = cls(**{coeffs: x})
    np.testing.assert_array_equal(cls(**{rot: x[:3], trans: x[3:]}).get_coeffs(), x)
    assert repr(cls.zero()) == (f"{cls.__name__}(\n  {rot}=[0.0, 0.0, 0.0],\n"
                                f"  {trans}=[0.0, 0.0, 0.0],\n)")
    back = eval(repr(vec), {cls.__name__: cls})
    np.testing.assert_array_equal(back.get_coeffs(), x)
    shared = vec.get_coeffs()
    alias = copy.copy(vec)
    same = alias
    alias += vec
    assert alias is same
    np.testing.assert_array_equal(alias.get_coeffs(), 2 * x)
    alias -= vec
    alias *= 3.0
    assert alias is same
    np.testing.assert_array_equal(alias.get_coeffs(), 3 * x)
    np.testing.assert_array_equal(vec.get_coeffs(), shared)   # the original is untouched
    assert alias.set_zero() is alias and not alias.get_coeffs().any()
    with pytest.raises(TypeError, match="not both"):
        cls(**{rot: x[:3], coeffs: x})


def test_spatial_vector_pydrake_keywords_give_the_shift_and_composition_rules():
    w, v = np.array([0.0, 0.0, 2.0]), np.array([1.0, 0.0, 0.0])
    p = np.array([1.0, 0.0, 0.0])
    V = SpatialVelocity(w=w, v=v)
    # v_Q = v + w x p = (1, 2, 0)
    np.testing.assert_allclose(V.shift(offset=p).translational(), [1.0, 2.0, 0.0])
    V_rel = SpatialVelocity(w=[0.0, 1.0, 0.0], v=[0.0, 0.0, 3.0])
    composed = V.compose_with_moving_frame_velocity(position_of_moving_frame=p,
                                                    velocity_of_moving_frame=V_rel)
    np.testing.assert_allclose(composed.get_coeffs(), [0, 1, 2, 1, 2, 3])
    F = SpatialForce(tau=[0.0, 0.0, 1.0], f=[0.0, 4.0, 0.0])
    # moment about Q: tau - p x f = (0, 0, 1 - 4)
    np.testing.assert_allclose(F.shift(offset=p).rotational(), [0.0, 0.0, -3.0])
    power = 2.0 * 1.0 + 0.0
    assert V.dot(force=F) == pytest.approx(power) == F.dot(velocity=V) == V @ F == F @ V
    L = SpatialMomentum(h=[0.0, 0.0, 1.0], l=[2.0, 0.0, 0.0])
    assert V.dot(momentum=L) == pytest.approx(4.0) == L @ V == L.dot(velocity=V)
    A = SpatialAcceleration(alpha=[0.0, 0.0, 1.0], a=[0.0, 0.0, 0.0])
    # a_Q = alpha x p + w x (w x p) = (0, 1, 0) + (-4, 0, 0)
    np.testing.assert_allclose(
        A.shift(offset=p, angular_velocity_of_this_frame=w).translational(), [-4.0, 1.0, 0.0])
    np.testing.assert_allclose(A.shift_with_zero_angular_velocity(offset=p).translational(),
                               [0.0, 1.0, 0.0])
    Z = SpatialAcceleration.zero()
    # Coriolis: 2 w x v_rel with w = (0, 0, 2), v_rel = (1, 0, 0) -> (0, 4, 0)
    composed = Z.compose_with_moving_frame_acceleration(
        position_of_moving_frame=np.zeros(3), angular_velocity_of_this_frame=w,
        velocity_of_moving_frame=SpatialVelocity(w=np.zeros(3), v=[1.0, 0.0, 0.0]),
        acceleration_of_moving_frame=Z)
    np.testing.assert_allclose(composed.translational(), [0.0, 4.0, 0.0])
    np.testing.assert_allclose(V.rotate(R_FE=RotationMatrix.make_z_rotation(np.pi / 2))
                               .translational(), [0.0, 1.0, 0.0], atol=1e-15)


# ---------------------------------------------------------------- indices and elements
def _plant():
    plant = MultibodyPlant(0.0)
    instance = plant.add_model_instance("robot")
    M = SpatialInertia(mass=2.0, p_PScm_E=[0.0, 0.0, 0.5], G_SP_E=UnitInertia(1.0, 1.0, 1.0))
    link = plant.add_rigid_body("link", instance, M)
    joint = plant.add_joint(RevoluteJoint("pin", plant.world_frame(), link.body_frame(),
                                          [0.0, 1.0, 0.0]))
    actuator = plant.add_joint_actuator("motor", joint)
    return plant, instance, link, joint, actuator


def test_typed_indices_are_ints_with_drakes_repr():
    assert repr(world_index()) == "BodyIndex(0)" and world_index() == 0
    assert repr(world_frame_index()) == "FrameIndex(0)"
    assert repr(world_model_instance()) == "ModelInstanceIndex(0)"
    assert default_model_instance() == ModelInstanceIndex(1)
    plant, instance, link, joint, actuator = _plant()
    assert isinstance(instance, ModelInstanceIndex) and instance == 2
    assert isinstance(link.index(), BodyIndex) and link.index() == 1
    assert isinstance(link.body_frame().index(), FrameIndex)
    assert isinstance(joint.index(), JointIndex) and joint.index() == 0
    assert isinstance(actuator.index(), JointActuatorIndex)
    assert isinstance(link.model_instance(), ModelInstanceIndex)
    assert [0, 1, 2][link.index()] == 1 and type(link.index() + 1) is int
    assert plant.has_joint(joint_index=joint.index())
    assert not plant.has_joint(joint_index=JointIndex(5))
    assert plant.has_joint_actuator(actuator_index=actuator.index())
    assert not plant.has_joint_actuator(actuator_index=-1)
    assert plant.get_mutable_joint_actuator(actuator.index()) is actuator


def test_elements_print_as_in_drake_and_know_their_plant():
    plant, instance, link, joint, actuator = _plant()
    assert repr(link) == "<RigidBody name='link' index=1 model_instance=2>"
    assert repr(link.body_frame()) == "<RigidBodyFrame name='link' index=1 model_instance=2>"
    assert repr(joint) == "<RevoluteJoint name='pin' index=0 model_instance=2>"
    assert repr(actuator) == "<JointActuator name='motor' index=0 model_instance=2>"
    assert link.get_parent_plant() is plant and joint.get_parent_plant() is plant
    assert not link.is_ephemeral() and not joint.is_ephemeral()
    assert RevoluteJoint.kTypeName == "revolute" == joint.kTypeName == joint.type_name()
    assert WeldJoint.kTypeName == "weld"


def test_constructors_take_pydrakes_keywords():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1)
                                if hasattr(SpatialInertia, "solid_sphere_with_mass") else
                                SpatialInertia(1.0, np.zeros(3), UnitInertia(0.004, 0.004,
                                                                             0.004)))
    X = RigidTransform(p=[0.0, 0.0, 1.0])
    weld = WeldJoint(name="w", frame_on_parent_F=plant.world_frame(),
                     frame_on_child_M=body.body_frame(), X_FM=X)
    np.testing.assert_allclose(weld.X_FM().translation(), [0.0, 0.0, 1.0])
    frame = FixedOffsetFrame(name="tool", P=body.body_frame(), X_PF=X, model_instance=None)
    assert frame.model_instance() == body.model_instance()
    np.testing.assert_allclose(frame.get_fixed_pose_in_body_frame().translation(), [0, 0, 1])
    frame_b = FixedOffsetFrame(name="tool_b", bodyB=body, X_BF=X)
    assert frame_b.body() is body
    free = RigidBody(body_name="free")
    assert free.model_instance() == default_model_instance() and free.default_mass() == 0.0
    screw = ScrewJoint(name="s", frame_on_parent=plant.world_frame(),
                       frame_on_child=body.body_frame(), screw_pitch=0.005, damping=0.1)
    np.testing.assert_array_equal(screw.screw_axis(), [0.0, 0.0, 1.0])     # Drake's default
    positional = ScrewJoint("s2", plant.world_frame(), body.body_frame(), 0.01, 0.2)
    assert positional.screw_pitch() == 0.01 and positional.damping() == 0.2
    with pytest.raises(TypeError, match="screw_pitch"):
        ScrewJoint("s3", plant.world_frame(), body.body_frame())


def test_body_center_of_mass_kinematics_match_the_rigid_body_formulas():
    plant, instance, link, joint, actuator = _plant()
    plant.finalize()
    ctx = plant.create_default_context()
    theta, thetadot = 0.3, 2.0
    joint.set_angle(ctx, theta)
    joint.set_angular_rate(ctx, thetadot)
    plant.get_actuation_input_port().fix_value(ctx, [0.0])
    np.testing.assert_allclose(link.calc_center_of_mass_in_body_frame(ctx), [0, 0, 0.5])
    # The COM moves on a circle of radius 0.5 about the world y axis.
    r, s, c = 0.5, np.sin(theta), np.cos(theta)
    p_WBcm = np.array([r * s, 0.0, r * c])
    v_expected = np.cross([0.0, thetadot, 0.0], p_WBcm)
    np.testing.assert_allclose(link.calc_center_of_mass_translational_velocity_in_world(ctx),
                               v_expected, atol=1e-12)
    A = link.eval_spatial_acceleration_in_world(ctx)
    alpha = A.rotational()[1]
    w = np.array([0.0, thetadot, 0.0])
    a_expected = (np.cross([0.0, alpha, 0.0], p_WBcm) + np.cross(w, np.cross(w, p_WBcm)))
    np.testing.assert_allclose(
        link.calc_center_of_mass_translational_acceleration_in_world(ctx), a_expected,
        atol=1e-12)
    # The COM is above the pivot (inverted pendulum): gravity's moment about the pivot is
    # p_WBcm x (0, 0, -m g) = (0, m g r sin(theta), 0); I_yy about Bo is m * 1.0 = 2.
    assert alpha == pytest.approx(2.0 * 9.81 * r * s / 2.0, rel=1e-9)


def test_floating_body_coordinate_suffixes():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("ball", SpatialInertia(1.0, np.zeros(3),
                                                       UnitInertia(0.1, 0.1, 0.1)))
    plant.finalize()
    assert [body.floating_position_suffix(i) for i in range(7)] == \
        ["qw", "qx", "qy", "qz", "x", "y", "z"]
    assert [body.floating_velocity_suffix(i) for i in range(6)] == \
        ["wx", "wy", "wz", "vx", "vy", "vz"]


def _swinging_link_with_tool():
    """The pendulum of `_plant` at 0.7 rad, -1.5 rad/s, 0.3 N·m, with a frame "tool" fixed
    at [0.2, 0, 0.4] on the link."""
    plant, instance, link, joint, actuator = _plant()
    X_BF = RigidTransform(p=[0.2, 0.0, 0.4])
    tool = plant.add_frame(FixedOffsetFrame(name="tool", P=link.body_frame(), X_PF=X_BF))
    plant.finalize()
    ctx = plant.create_default_context()
    joint.set_angle(ctx, 0.7)
    joint.set_angular_rate(ctx, -1.5)
    plant.get_actuation_input_port().fix_value(ctx, [0.3])
    return plant, ctx, link, tool, X_BF


def test_frame_kinematics_relative_to_moving_frames():
    plant, ctx, link, tool, X_BF = _swinging_link_with_tool()
    W, B = plant.world_frame(), link.body_frame()
    # A frame fixed on the link has zero velocity and acceleration measured in the link,
    # however the link moves (the Coriolis and centripetal terms cancel).
    for frame_E in (W, B, tool):
        np.testing.assert_allclose(tool.calc_spatial_velocity(ctx, B, frame_E).get_coeffs(),
                                   np.zeros(6), atol=1e-12)
        np.testing.assert_allclose(
            tool.calc_spatial_acceleration(ctx, B, frame_E).get_coeffs(), np.zeros(6),
            atol=1e-12)
    # In world: v_WFo = w x p_WoFo (the pivot is at Wo), a = alpha x p + w x (w x p).
    p = tool.calc_pose_in_world(ctx).translation()
    w = np.array([0.0, -1.5, 0.0])
    np.testing.assert_allclose(tool.calc_spatial_velocity_in_world(ctx).translational(),
                               np.cross(w, p), atol=1e-12)
    alpha = link.eval_spatial_acceleration_in_world(ctx).rotational()
    np.testing.assert_allclose(
        tool.calc_spatial_acceleration_in_world(ctx).translational(),
        np.cross(alpha, p) + np.cross(w, np.cross(w, p)), atol=1e-12)
    np.testing.assert_allclose(tool.calc_spatial_acceleration(ctx, W, W).get_coeffs(),
                               tool.calc_spatial_acceleration_in_world(ctx).get_coeffs())
    # Measured in the link, the world spins at -w; expressed in the link frame.
    R_WB = link.eval_pose_in_world(ctx).rotation().matrix()
    np.testing.assert_allclose(W.calc_angular_velocity(ctx, B, B), R_WB.T @ -w, atol=1e-12)
    rel = tool.calc_relative_spatial_velocity_in_world(ctx, other_frame=B)
    np.testing.assert_allclose(rel.get_coeffs(), (tool.calc_spatial_velocity_in_world(ctx)
                                                  - B.calc_spatial_velocity_in_world(ctx))
                               .get_coeffs())
    np.testing.assert_allclose(tool.calc_rotation_matrix_in_body_frame(ctx).matrix(),
                               np.eye(3))
    np.testing.assert_allclose(tool.get_fixed_offset_pose_in_body(X_BF).translation(),
                               [0.4, 0.0, 0.8])



def test_frame_kinematics_of_a_world_fixed_frame_seen_from_the_moving_link():
    """Reference values computed with pydrake 1.51 on the same model and state."""
    plant, instance, link, joint, actuator = _plant()
    tool = plant.add_frame(FixedOffsetFrame(name="tool", P=link.body_frame(),
                                            X_PF=RigidTransform(p=[0.2, 0.0, 0.4])))
    q = plant.add_frame(FixedOffsetFrame(name="q", P=plant.world_frame(),
                                         X_PF=RigidTransform(p=[1.0, 0.3, -0.2])))
    plant.finalize()
    ctx = plant.create_default_context()
    joint.set_angle(ctx, 0.7)
    joint.set_angular_rate(ctx, -1.5)
    plant.get_actuation_input_port().fix_value(ctx, [0.3])
    np.testing.assert_allclose(
        q.calc_spatial_acceleration(ctx, tool, link.body_frame()).get_coeffs(),
        [0.0, -3.30988776, 0.0, -3.63677276, 0.0, 1.85268863], atol=1e-8)
    np.testing.assert_allclose(q.calc_spatial_velocity(ctx, tool, tool).get_coeffs(),
                               [0.0, 1.5, 0.0, 0.73687387, 0.0, -1.34052859], atol=1e-8)


def test_floating_base_bodies_by_model_instance():
    plant = MultibodyPlant(0.01)
    robot = plant.add_model_instance("robot")
    other = plant.add_model_instance("other")
    M = SpatialInertia(1.0, np.zeros(3), UnitInertia(0.1, 0.1, 0.1))
    body = plant.add_rigid_body("body", robot, M)
    plant.add_rigid_body("a", other, M)
    plant.add_rigid_body("b", other, M)
    X = RigidTransform(p=[1.0, 2.0, 3.0])
    plant.set_default_floating_base_body_pose(body=body, X_WB=X)
    plant.finalize()
    assert plant.has_unique_floating_base_body(model_instance=robot)
    assert not plant.has_unique_floating_base_body(model_instance=other)
    assert plant.get_unique_floating_base_body_or_throw(model_instance=robot) is body
    with pytest.raises(RuntimeError, match="2 floating base bodies"):
        plant.get_unique_floating_base_body_or_throw(model_instance=other)
    np.testing.assert_allclose(
        plant.get_default_floating_base_body_pose(body=body).translation(), [1, 2, 3])
    ctx = plant.create_default_context()
    np.testing.assert_allclose(body.eval_pose_in_world(ctx).translation(), [1, 2, 3])


def test_relative_frame_quantities_are_differences_measured_in_a_frame():
    plant, ctx, link, tool, _ = _swinging_link_with_tool()
    W, B = plant.world_frame(), link.body_frame()
    rel_A = tool.calc_relative_spatial_acceleration(ctx, other_frame=B, measured_in_frame=W,
                                                    expressed_in_frame=B)
    expected = (tool.calc_spatial_acceleration(ctx, W, B)
                - B.calc_spatial_acceleration(ctx, W, B))
    np.testing.assert_allclose(rel_A.get_coeffs(), expected.get_coeffs())
    # Both frames on the same body turn together: no relative angular acceleration.
    np.testing.assert_allclose(rel_A.rotational(), np.zeros(3), atol=1e-12)
    rel_V = tool.calc_relative_spatial_velocity(ctx, other_frame=B, measured_in_frame=W,
                                                expressed_in_frame=W)
    np.testing.assert_allclose(
        rel_V.translational(),
        np.cross([0.0, -1.5, 0.0], tool.calc_pose_in_world(ctx).translation()
                 - B.calc_pose_in_world(ctx).translation()), atol=1e-12)
    np.testing.assert_allclose(
        tool.calc_relative_spatial_acceleration_in_world(ctx, other_frame=B).get_coeffs(),
        (tool.calc_spatial_acceleration_in_world(ctx)
         - B.calc_spatial_acceleration_in_world(ctx)).get_coeffs())


def test_api_md_keyword_spellings_of_weld_and_fixed_offset_frame_keep_working():
    from merganser.geometry import RigidTransform
    from merganser.multibody import FixedOffsetFrame, MultibodyPlant, SpatialInertia, WeldJoint
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    X = RigidTransform([0.0, 0.0, 0.5])
    frame = plant.add_frame(FixedOffsetFrame("F", parent_frame=plant.world_frame(), X_PF=X))
    plant.add_joint(WeldJoint("w", frame_on_parent=frame, frame_on_child=body.body_frame(),
                              X_FM=RigidTransform()))
    plant.finalize()
    context = plant.create_default_context()
    assert plant.eval_body_pose_in_world(context, body).translation()[2] == 0.5
    with pytest.raises(TypeError, match="not both"):
        WeldJoint("x", plant.world_frame(), body.body_frame(), frame_on_parent=frame)


def test_default_pose_of_floating_joints_and_drakes_refusal_elsewhere():
    from merganser.multibody import QuaternionFloatingJoint, RpyFloatingJoint
    plant = MultibodyPlant(0.0)
    bodies = [plant.add_rigid_body(name, SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
              for name in ("a", "b", "c")]
    quat = plant.add_joint(QuaternionFloatingJoint("quat", plant.world_frame(),
                                                   bodies[0].body_frame()))
    rpy = plant.add_joint(RpyFloatingJoint("rpy", plant.world_frame(), bodies[1].body_frame()))
    hinge = plant.add_joint(RevoluteJoint("hinge", plant.world_frame(), bodies[2].body_frame(),
                                          [0.0, 0.0, 1.0]))
    q_FM = np.array([0.5, 0.5, 0.5, 0.5])           # 120° about (1, 1, 1)/√3
    quat.set_default_pose_pair(q_FM, [1.0, 2.0, 3.0])
    q, p = quat.get_default_pose_pair()
    np.testing.assert_array_equal(q.wxyz(), q_FM)    # the stored coordinates, bit for bit
    np.testing.assert_array_equal(p, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(quat.get_default_positions(), [0.5, 0.5, 0.5, 0.5, 1, 2, 3])
    rpy.set_default_pose_pair(q_FM, [1.0, 2.0, 3.0])
    # the same rotation in roll-pitch-yaw: (π/2, 0, π/2)
    np.testing.assert_allclose(rpy.get_default_positions()[:3], [np.pi / 2, 0.0, np.pi / 2],
                               atol=1e-15)
    X = rpy.get_default_pose()
    np.testing.assert_allclose(X.rotation().matrix(),
                               RotationMatrix(quaternion=q).matrix(), atol=1e-15)
    for fn, args in (("get_default_pose", ()), ("set_default_pose", (RigidTransform(),)),
                     ("get_default_pose_pair", ()),
                     ("set_default_pose_pair", (q_FM, [0.0, 0.0, 0.0]))):
        with pytest.raises(RuntimeError, match="'hinge' is a revolute joint; only floating"):
            getattr(hinge, fn)(*args)


def test_quaternion_floating_joint_set_orientation_keeps_the_translation():
    from merganser.multibody import QuaternionFloatingJoint
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    joint = plant.add_joint(QuaternionFloatingJoint("f", plant.world_frame(), body.body_frame()))
    plant.finalize()
    ctx = plant.create_default_context()
    joint.set_pose(ctx, RigidTransform([1.0, 2.0, 3.0]))
    R = RotationMatrix.make_z_rotation(0.5)
    joint.set_orientation(ctx, R)
    X = joint.get_pose(ctx)
    np.testing.assert_allclose(X.rotation().matrix(), R.matrix(), atol=1e-15)
    np.testing.assert_array_equal(X.translation(), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(joint.get_quaternion(ctx), [np.cos(0.25), 0, 0, np.sin(0.25)],
                               atol=1e-15)
    with pytest.raises(TypeError, match="must be a RotationMatrix"):
        joint.set_orientation(ctx, np.eye(3))


def test_drakes_class_names_for_the_body_frame_and_fixed_input_values():
    from merganser.framework import FixedInputPortValue, Integrator
    from merganser.multibody import BodyFrame, RigidBodyFrame
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    assert isinstance(body.body_frame(), RigidBodyFrame) and BodyFrame is RigidBodyFrame
    integrator = Integrator(1)
    fixed = integrator.get_input_port().fix_value(integrator.create_default_context(), [2.0])
    assert isinstance(fixed, FixedInputPortValue)
    np.testing.assert_array_equal(fixed.get_value(), [2.0])
