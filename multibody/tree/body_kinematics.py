"""Context-dependent center-of-mass and acceleration queries of a RigidBody (Drake's
RigidBody::CalcCenterOfMassInBodyFrame, CalcCenterOfMassTranslationalVelocityInWorld,
CalcCenterOfMassTranslationalAccelerationInWorld, EvalSpatialAccelerationInWorld); a
mixin of RigidBody. They read the plant the body belongs to (``get_parent_plant``).
"""

import numpy as np

__all__ = ["RigidBodyKinematicsMixin"]


class RigidBodyKinematicsMixin:
    """Center-of-mass kinematics of one body (see the module docstring)."""

    def calc_center_of_mass_in_body_frame(self, context):
        """p_BoBcm_B, the position of the body's center of mass from Bo, expressed in B,
        with the mass properties stored in `context`; ndarray (3,)."""
        return np.asarray(self.calc_spatial_inertia_in_body_frame(context).get_com(),
                          dtype=float).copy()

    def eval_spatial_acceleration_in_world(self, context):
        """A_WB_W, the spatial acceleration of Bo in world, for the state and inputs in
        `context` (SpatialAcceleration)."""
        return self.get_parent_plant().eval_body_spatial_acceleration_in_world(context, self)

    def _p_BoBcm_W(self, context):
        R_WB = self.eval_pose_in_world(context).rotation().matrix()
        return R_WB @ self.calc_center_of_mass_in_body_frame(context)

    def calc_center_of_mass_translational_velocity_in_world(self, context):
        """v_WBcm_W, the velocity of the body's center of mass in world, expressed in
        world: v_WBo + w_WB × p_BoBcm_W; ndarray (3,)."""
        V = self.eval_spatial_velocity_in_world(context)
        return V.translational() + np.cross(V.rotational(), self._p_BoBcm_W(context))

    def calc_center_of_mass_translational_acceleration_in_world(self, context):
        """a_WBcm_W, the acceleration of the body's center of mass in world, expressed in
        world: a_WBo + alpha_WB × p + w_WB × (w_WB × p) with p = p_BoBcm_W; ndarray (3,)."""
        w = self.eval_spatial_velocity_in_world(context).rotational()
        return self.eval_spatial_acceleration_in_world(context).shift(
            self._p_BoBcm_W(context), w).translational()

    # ---- coordinate names of a floating base body ---------------------------------------
    def _floating_joint(self, func):
        tree = self._require_finalized(func)
        self._require_floating(func)
        for k in tree.get_joint_indices():
            joint = tree.get_joint(k)
            if joint.child_body() is self:
                return joint
        raise AssertionError(f"RigidBody.{func}(): floating body {self.name()!r} has no joint")

    def floating_position_suffix(self, position_index_in_body):
        """Suffix of the name of this floating base body's position coordinate
        `position_index_in_body` (0..6: ``qw qx qy qz x y z`` for a quaternion joint)."""
        return self._floating_joint("floating_position_suffix").position_suffix(
            position_index_in_body)

    def floating_velocity_suffix(self, velocity_index_in_body):
        """Suffix of the name of this floating base body's velocity coordinate
        `velocity_index_in_body` (0..5: ``wx wy wz vx vy vz``)."""
        return self._floating_joint("floating_velocity_suffix").velocity_suffix(
            velocity_index_in_body)
