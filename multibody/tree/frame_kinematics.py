"""Context-dependent kinematics of a Frame F (Drake's Frame::CalcSpatialVelocity,
CalcSpatialAcceleration, CalcRelativeSpatialVelocity, ..., and the fixed-offset helpers
GetFixedOffsetPoseInBody, CalcRotationMatrixInBodyFrame); a mixin of Frame.

Notation: B is F's body, W the world, M a "measured in" frame, E an "expressed in" frame,
p = p_MoFo_W. From the body's V_WB and A_WB:

- V_WF: [w_WB; v_WBo + w_WB × p_BoFo_W], A_WF: A_WB shifted to Fo with w_WB;
- V_MF: w_MF = w_WF − w_WM, v_MFo = v_WFo − v_WMo − w_WM × p;
- A_MF (inverting Drake's composition rule A_WF = A_WM ∘ (p, w_WM, V_MF, A_MF)):
  alpha_MF = alpha_WF − alpha_WM − w_WM × w_MF,
  a_MFo = a_WFo − (a_WMo + alpha_WM × p + w_WM × (w_WM × p)) − 2 w_WM × v_MFo;
- "relative" quantities of a frame C = self with respect to other_frame O are differences
  measured in M: V_M_OC = V_MC − V_MO, A_M_OC = A_MC − A_MO.
"""

import numpy as np

from merganser.multibody.math import SpatialAcceleration, SpatialVelocity

__all__ = ["FrameKinematicsMixin"]


def _R(X):
    return X.rotation().matrix()


class FrameKinematicsMixin:
    """Frame kinematics (see the module docstring)."""

    # ---- fixed offsets in the body frame ------------------------------------------------
    def calc_rotation_matrix_in_body_frame(self, context):
        """R_BF (RotationMatrix) in `context` (a FixedOffsetFrame's pose may be set per
        Context)."""
        return self.calc_pose_in_body_frame(context).rotation()

    def get_fixed_rotation_matrix_in_body_frame(self):
        """R_BF (RotationMatrix) of this fixed frame."""
        return self.get_fixed_pose_in_body_frame().rotation()

    def get_fixed_offset_pose_in_body(self, X_FQ):
        """X_BQ = X_BF X_FQ for a frame Q fixed at X_FQ in this frame (RigidTransform)."""
        return self.get_fixed_pose_in_body_frame() @ X_FQ

    def calc_offset_pose_in_body(self, context, X_FQ):
        """X_BQ = X_BF X_FQ with X_BF in `context`."""
        return self.calc_pose_in_body_frame(context) @ X_FQ

    def get_fixed_rotation_matrix_in_body(self, R_FQ):
        """R_BQ = R_BF R_FQ (RotationMatrix)."""
        return self.get_fixed_pose_in_body_frame().rotation() @ R_FQ

    def calc_offset_rotation_matrix_in_body(self, context, R_FQ):
        """R_BQ = R_BF R_FQ (RotationMatrix), R_BF in `context`."""
        return self.calc_rotation_matrix_in_body_frame(context) @ R_FQ

    # ---- orientation --------------------------------------------------------------------
    def calc_rotation_matrix_in_world(self, context):
        """R_WF (RotationMatrix) for the configuration in `context`."""
        return self.calc_pose_in_world(context).rotation()

    def calc_rotation_matrix(self, context, frame_M):
        """R_MF (RotationMatrix), this frame's orientation in `frame_M`."""
        return self.calc_pose(context, frame_M).rotation()

    # ---- velocities ---------------------------------------------------------------------
    def calc_spatial_velocity_in_world(self, context):
        """V_WF_W, the spatial velocity of this frame (its origin Fo) in world."""
        body = self.body()
        V_WB = self._state("calc_spatial_velocity_in_world").eval_body_spatial_velocity_in_world(
            context, body)
        R_WB = _R(body.eval_pose_in_world(context))
        return V_WB.shift(R_WB @ self.calc_pose_in_body_frame(context).translation())

    def eval_angular_velocity_in_world(self, context):
        """w_WF_W, ndarray (3,)."""
        return self.calc_spatial_velocity_in_world(context).rotational()

    def calc_angular_velocity(self, context, measured_in_frame, expressed_in_frame):
        """w_MF_E = R_EW (w_WF − w_WM), ndarray (3,)."""
        w = (self.eval_angular_velocity_in_world(context)
             - measured_in_frame.eval_angular_velocity_in_world(context))
        return _R(expressed_in_frame.calc_pose_in_world(context)).T @ w

    def _V_MF_W(self, context, frame_M):
        V_WF = self.calc_spatial_velocity_in_world(context).get_coeffs()
        V_WM = frame_M.calc_spatial_velocity_in_world(context).get_coeffs()
        p = (self.calc_pose_in_world(context).translation()
             - frame_M.calc_pose_in_world(context).translation())
        w_MF = V_WF[:3] - V_WM[:3]
        v_MFo = V_WF[3:] - V_WM[3:] - np.cross(V_WM[:3], p)
        return w_MF, v_MFo, p, V_WM

    def calc_spatial_velocity(self, context, frame_M, frame_E):
        """V_MF_E, this frame's spatial velocity measured in `frame_M`, expressed in
        `frame_E` (SpatialVelocity)."""
        w_MF, v_MFo, _, _ = self._V_MF_W(context, frame_M)
        R_EW = _R(frame_E.calc_pose_in_world(context)).T
        return SpatialVelocity(w=R_EW @ w_MF, v=R_EW @ v_MFo)

    def _relative(self, other_frame, method, *args):
        """This frame's quantity `method(*args)` minus `other_frame`'s."""
        return getattr(self, method)(*args) - getattr(other_frame, method)(*args)

    def calc_relative_spatial_velocity_in_world(self, context, other_frame):
        """V_W_OC_W = V_WC_W − V_WO_W with C this frame and O `other_frame`."""
        return self._relative(other_frame, "calc_spatial_velocity_in_world", context)

    def calc_relative_spatial_velocity(self, context, other_frame, measured_in_frame,
                                       expressed_in_frame):
        """V_M_OC_E = V_MC_E − V_MO_E (see the module docstring)."""
        return self._relative(other_frame, "calc_spatial_velocity", context, measured_in_frame,
                              expressed_in_frame)

    # ---- accelerations ------------------------------------------------------------------
    def calc_spatial_acceleration_in_world(self, context):
        """A_WF_W, the spatial acceleration of this frame (its origin Fo) in world."""
        body = self.body()
        A_WB = self.get_parent_plant().eval_body_spatial_acceleration_in_world(context, body)
        w_WB = body.eval_spatial_velocity_in_world(context).rotational()
        R_WB = _R(body.eval_pose_in_world(context))
        return A_WB.shift(R_WB @ self.calc_pose_in_body_frame(context).translation(), w_WB)

    def calc_spatial_acceleration(self, context, measured_in_frame, expressed_in_frame):
        """A_MF_E, this frame's spatial acceleration measured in `measured_in_frame` M,
        expressed in `expressed_in_frame` E (see the module docstring)."""
        frame_M = measured_in_frame
        w_MF, v_MFo, p, V_WM = self._V_MF_W(context, frame_M)
        w_WM = V_WM[:3]
        A_WF = self.calc_spatial_acceleration_in_world(context).get_coeffs()
        A_WM = frame_M.calc_spatial_acceleration_in_world(context)
        A_WM_at_Fo = A_WM.shift(p, w_WM).get_coeffs()
        alpha = A_WF[:3] - A_WM_at_Fo[:3] - np.cross(w_WM, w_MF)
        a = A_WF[3:] - A_WM_at_Fo[3:] - 2.0 * np.cross(w_WM, v_MFo)
        R_EW = _R(expressed_in_frame.calc_pose_in_world(context)).T
        return SpatialAcceleration(alpha=R_EW @ alpha, a=R_EW @ a)

    def calc_relative_spatial_acceleration_in_world(self, context, other_frame):
        """A_W_OC_W = A_WC_W − A_WO_W with C this frame and O `other_frame`."""
        return self._relative(other_frame, "calc_spatial_acceleration_in_world", context)

    def calc_relative_spatial_acceleration(self, context, other_frame, measured_in_frame,
                                           expressed_in_frame):
        """A_M_OC_E = A_MC_E − A_MO_E (see the module docstring)."""
        return self._relative(other_frame, "calc_spatial_acceleration", context,
                              measured_in_frame, expressed_in_frame)
