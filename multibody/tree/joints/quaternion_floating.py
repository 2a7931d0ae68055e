"""QuaternionFloatingJoint: a free 6-dof joint with a unit quaternion for orientation."""

from __future__ import annotations

import numpy as np

from merganser.geometry import Quaternion, RigidTransform, RotationMatrix
from merganser.multibody.tree.frames import pose_matrix
from merganser.multibody.tree.joints.joint import as_vector
from merganser.multibody.tree.joints.multi_dof import FloatingJoint

__all__ = ["QuaternionFloatingJoint"]


def _unit_quaternion(q_FM, func: str) -> np.ndarray:
    q = as_vector(q_FM, 4, func, "q_FM")
    norm = float(np.linalg.norm(q))
    if not np.isfinite(norm) or norm < 1e-12:
        raise ValueError(
            f"{func}: q_FM must be a non-zero quaternion [w, x, y, z], got {q.tolist()}"
        )
    return q / norm


class QuaternionFloatingJoint(FloatingJoint):
    """A 6-dof joint: X_FM given by a quaternion and a translation.

    q = [qw, qx, qy, qz, x, y, z] (the quaternion of R_FM, then p_FoMo_F) and
    v = [w_FM_F; v_FMo_F]; coordinate names ``_qw _qx _qy _qz _x _y _z`` /
    ``_wx _wy _wz _vx _vy _vz`` as in Drake. The default pose is the identity.

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

    _type_name = "quaternion_floating"
    _type_code_name = "QUATERNION_FLOATING"
    _position_suffixes = ("qw", "qx", "qy", "qz", "x", "y", "z")
    _velocity_suffixes = ("wx", "wy", "wz", "vx", "vy", "vz")
    _default_q = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    # -- defaults -----------------------------------------------------------------------
    def get_default_quaternion(self) -> np.ndarray:
        """Default quaternion [w, x, y, z] of R_FM, shape (4,)."""
        return self._default_positions[:4].copy()

    def set_default_quaternion(self, q_FM) -> None:
        """Set the default quaternion [w, x, y, z] of R_FM (normalized here)."""
        q = self.get_default_positions()
        q[:4] = _unit_quaternion(q_FM, "QuaternionFloatingJoint.set_default_quaternion")
        self.set_default_positions(q)

    def get_default_pose(self) -> RigidTransform:
        """Default X_FM."""
        q = self._default_positions
        return RigidTransform(RotationMatrix(q[:4] / np.linalg.norm(q[:4])), q[4:])

    def set_default_pose(self, X_FM) -> None:
        """Set the default X_FM (RigidTransform)."""
        X = RigidTransform(pose_matrix(X_FM, "QuaternionFloatingJoint.set_default_pose", "X_FM"))
        self.set_default_positions(np.concatenate([X.rotation().to_quaternion(), X.translation()]))

    def get_default_pose_pair(self):
        """The default (Quaternion q_FM, p_FoMo_F (3,)): the stored coordinates themselves
        (bit-identical to what `set_default_pose_pair` stored, as Drake)."""
        q = self._default_positions
        return Quaternion(q[:4]), q[4:].copy()

    def set_default_pose_pair(self, q_FM, p_FM) -> None:
        """Set the default quaternion (normalized here) and translation."""
        fn = "QuaternionFloatingJoint.set_default_pose_pair"
        self.set_default_positions(np.concatenate([_unit_quaternion(q_FM, fn),
                                                   as_vector(p_FM, 3, fn, "p_FM")]))

    # -- context ------------------------------------------------------------------------
    def get_quaternion(self, context) -> np.ndarray:
        """Quaternion [w, x, y, z] of R_FM in `context`, shape (4,)."""
        return self.get_positions(context)[:4]

    def set_quaternion(self, context, q_FM) -> None:
        """Set the quaternion of R_FM in `context` (normalized here), keeping p_FoMo_F."""
        q = self.get_positions(context)
        q[:4] = _unit_quaternion(q_FM, "QuaternionFloatingJoint.set_quaternion")
        self.set_positions(context, q)

    def set_orientation(self, context, R) -> None:
        """Set R_FM (a RotationMatrix) in `context`, keeping p_FoMo_F (Drake's
        SetOrientation)."""
        if not isinstance(R, RotationMatrix):
            raise TypeError(f"QuaternionFloatingJoint.set_orientation: R must be a "
                            f"RotationMatrix, got {type(R).__name__}")
        self.set_quaternion(context, np.asarray(R.to_quaternion(), dtype=float))

    def get_pose(self, context) -> RigidTransform:
        """X_FM in `context` (the quaternion is normalized)."""
        q = self.get_positions(context)
        return RigidTransform(RotationMatrix(q[:4] / np.linalg.norm(q[:4])), q[4:])

    def set_pose(self, context, X_FM) -> None:
        """Set X_FM in `context` (RigidTransform)."""
        X = RigidTransform(pose_matrix(X_FM, "QuaternionFloatingJoint.set_pose", "X_FM"))
        self.set_positions(context, np.concatenate([X.rotation().to_quaternion(), X.translation()]))
