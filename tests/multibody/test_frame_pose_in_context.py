"""Drake's FixedOffsetFrame.SetPoseInParentFrame(context, X_PF) /
GetPoseInParentFrame(context): the frame's pose in its parent kept in the plant's
Context, used by that Context's frame queries only."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform
from merganser.multibody import (
    FixedOffsetFrame, JacobianWrtVariable, LinearBushingRollPitchYaw, MultibodyPlant,
    RevoluteJoint, SpatialInertia,
)


def _arm():
    plant = MultibodyPlant(0.0)
    B = plant.add_rigid_body("B", M_BBo_B=SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    joint = plant.add_joint(RevoluteJoint("j", plant.world_frame(), B.body_frame(),
                                          [0.0, 0.0, 1.0]))
    P = plant.add_frame(FixedOffsetFrame("P", B.body_frame(), RigidTransform([1.0, 0, 0])))
    F = plant.add_frame(FixedOffsetFrame("F", P, RigidTransform([0.0, 1.0, 0])))
    plant.finalize()
    return plant, joint, B, P, F


def test_pose_in_parent_set_in_a_context_moves_the_frame_there_only():
    plant, joint, B, P, F = _arm()
    ctx, other = plant.create_default_context(), plant.create_default_context()
    for c in (ctx, other):
        joint.set_angle(c, np.pi / 2)
    P.set_pose_in_parent_frame(ctx, X_PF=RigidTransform([2.0, 0, 0]))
    np.testing.assert_array_equal(P.get_pose_in_parent_frame(context=ctx).translation(),
                                  [2.0, 0, 0])
    np.testing.assert_array_equal(P.get_pose_in_parent_frame(other).translation(), [1.0, 0, 0])
    np.testing.assert_array_equal(P.get_fixed_pose_in_parent_frame().translation(), [1.0, 0, 0])
    # F (fixed to P) follows: X_BF = X_BP X_PF, then rotated by the joint's 90 degrees
    np.testing.assert_allclose(F.calc_pose_in_body_frame(ctx).translation(), [2.0, 1.0, 0])
    np.testing.assert_allclose(F.calc_pose_in_world(ctx).translation(), [-1.0, 2.0, 0],
                               atol=1e-15)
    np.testing.assert_allclose(F.calc_pose_in_world(other).translation(), [-1.0, 1.0, 0],
                               atol=1e-15)
    np.testing.assert_allclose(
        plant.calc_relative_transform(ctx, plant.world_frame(), F).translation(),
        [-1.0, 2.0, 0], atol=1e-15)
    np.testing.assert_allclose(
        plant.calc_points_positions(ctx, F, np.zeros((3, 1)), plant.world_frame()).ravel(),
        [-1.0, 2.0, 0], atol=1e-15)
    # velocities and Jacobians: v_WFo = w × p_WFo
    joint.set_angular_rate(ctx, 1.0)
    np.testing.assert_allclose(F.calc_spatial_velocity_in_world(ctx).translational(),
                               [-2.0, -1.0, 0], atol=1e-15)
    J = plant.calc_jacobian_spatial_velocity(ctx, JacobianWrtVariable.kV, F, np.zeros(3),
                                             plant.world_frame(), plant.world_frame())
    np.testing.assert_allclose(J.ravel(), [0, 0, 1.0, -2.0, -1.0, 0], atol=1e-15)
    J_other = plant.calc_jacobian_spatial_velocity(other, JacobianWrtVariable.kV, F,
                                                   np.zeros(3), plant.world_frame(),
                                                   plant.world_frame())
    np.testing.assert_allclose(J_other.ravel(), [0, 0, 1.0, -1.0, -1.0, 0], atol=1e-15)
    # the context's pose survives cloning
    np.testing.assert_array_equal(P.get_pose_in_parent_frame(ctx.clone()).translation(),
                                  [2.0, 0, 0])


def test_frames_compiled_into_the_model_are_refused():
    plant = MultibodyPlant(0.0)
    inertia = SpatialInertia.solid_sphere_with_mass(1.0, 0.1)
    A = plant.add_rigid_body("A", M_BBo_B=inertia)
    C = plant.add_rigid_body("C", M_BBo_B=inertia)
    base = plant.add_frame(FixedOffsetFrame("base", A.body_frame(), RigidTransform([0, 0, 1.0])))
    hinge = plant.add_frame(FixedOffsetFrame("hinge", base, RigidTransform([1.0, 0, 0])))
    plant.add_joint(RevoluteJoint("j", plant.world_frame(), A.body_frame(), [0, 0, 1.0]))
    plant.add_joint(RevoluteJoint("k", hinge, C.body_frame(), [0, 0, 1.0]))
    mount = plant.add_frame(FixedOffsetFrame("mount", C.body_frame(), RigidTransform()))
    plant.add_force_element(LinearBushingRollPitchYaw(mount, A.body_frame(), [1.0] * 3,
                                                      [0.0] * 3, [1.0] * 3, [0.0] * 3))
    plant.finalize()
    ctx = plant.create_default_context()
    for frame, user in ((hinge, "joint 'k'"), (base, "joint 'k'"),
                        (mount, "the LinearBushingRollPitchYaw")):
        with pytest.raises(RuntimeError, match=f"set_pose_in_parent_frame: frame "
                                               f"'{frame.name()}' carries {user}"):
            frame.set_pose_in_parent_frame(ctx, RigidTransform())
    with pytest.raises(ValueError, match="X_PF"):
        base.set_pose_in_parent_frame(ctx, np.zeros(5))
