"""RpyFloatingJoint: a free 6-dof joint with roll-pitch-yaw angles for orientation."""

from __future__ import annotations

import numpy as np

from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody.tree.frames import pose_matrix
from merganser.multibody.tree.joints.joint import as_vector
from merganser.multibody.tree.joints.multi_dof import FloatingJoint

__all__ = ["RpyFloatingJoint"]


class RpyFloatingJoint(FloatingJoint):
    """A 6-dof joint: R_FM = Rz(y) Ry(p) Rx(r) and translation p_FoMo_F.

    q = [r, p, y, x, y, z], v = [w_FM_F; v_FMo_F]; coordinate names
    ``_qx _qy _qz _x _y _z`` / ``_wx _wy _wz _vx _vy _vz`` as in Drake.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body, usually the world) and M (on the free body).
    angular_damping : float
        Viscous damping on w_FM (N·m·s/rad), >= 0.
    translational_damping : float
        Viscous damping on v_FMo (N·s/m), >= 0.
    """

    _type_name = "rpy_floating"
    _type_code_name = "RPY_FLOATING"
    _position_suffixes = ("qx", "qy", "qz", "x", "y", "z")
    _velocity_suffixes = ("wx", "wy", "wz", "vx", "vy", "vz")
    _default_q = (0.0,) * 6

    # -- defaults -----------------------------------------------------------------------
    def set_default_angles(self, angles) -> None:
        """Set the default [roll, pitch, yaw]."""
        q = self.get_default_positions()
        q[:3] = as_vector(angles, 3, "RpyFloatingJoint.set_default_angles", "angles")
        self.set_default_positions(q)

    def get_default_angles(self) -> np.ndarray:
        """Default [roll, pitch, yaw], shape (3,)."""
        return self._default_positions[:3].copy()

    def get_default_pose(self) -> RigidTransform:
        """Default X_FM."""
        q = self._default_positions
        return RigidTransform(RollPitchYaw(q[:3]), q[3:])

    def set_default_pose(self, X_FM) -> None:
        """Set the default X_FM."""
        self.set_default_positions(self._pose_to_q(X_FM, "set_default_pose"))

    # -- context ------------------------------------------------------------------------
    def get_angles(self, context) -> np.ndarray:
        """[roll, pitch, yaw] of R_FM in `context`, shape (3,)."""
        return self.get_positions(context)[:3]

    def set_angles(self, context, angles) -> None:
        """Set [roll, pitch, yaw] in `context`, keeping the translation."""
        q = self.get_positions(context)
        q[:3] = as_vector(angles, 3, "RpyFloatingJoint.set_angles", "angles")
        self.set_positions(context, q)

    def get_pose(self, context) -> RigidTransform:
        """X_FM in `context`."""
        q = self.get_positions(context)
        return RigidTransform(RollPitchYaw(q[:3]), q[3:])

    def set_pose(self, context, X_FM) -> None:
        """Set X_FM in `context`."""
        self.set_positions(context, self._pose_to_q(X_FM, "set_pose"))

    @staticmethod
    def _pose_to_q(X_FM, func: str) -> np.ndarray:
        X = RigidTransform(pose_matrix(X_FM, f"RpyFloatingJoint.{func}", "X_FM"))
        return np.concatenate([RollPitchYaw(X.rotation()).vector(), X.translation()])
