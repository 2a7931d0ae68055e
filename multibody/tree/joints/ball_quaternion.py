"""BallQuaternionJoint: a ball (spherical) joint whose orientation is a unit quaternion.

Drake has no such joint (its ball joint is `BallRpyJoint`); this one is the rotational
half of `QuaternionFloatingJoint` and has no gimbal lock. MuJoCo's ``ball`` joint is one.
"""

from __future__ import annotations

import numpy as np

from merganser.geometry import RotationMatrix
from merganser.multibody.tree.joints.joint import as_vector
from merganser.multibody.tree.joints.multi_dof import RotationJoint
from merganser.multibody.tree.joints.quaternion_floating import _unit_quaternion

__all__ = ["BallQuaternionJoint"]


class BallQuaternionJoint(RotationJoint):
    """A 3-dof ball joint: R_FM from q = [qw, qx, qy, qz]; Fo = Mo (nq 4, nv 3).

    v = w_FM_F, the angular velocity of M in F expressed in F, as for the angular part of
    `QuaternionFloatingJoint`; the kinematics use the normalized quaternion and the
    integrators renormalize it. Coordinate names ``_qw _qx _qy _qz`` / ``_wx _wy _wz``.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); Mo stays at Fo and q sets R_FM.
    damping : float
        Viscous damping (N·m·s/rad), >= 0: torque -damping·w_FM.
    """

    _type_name = "ball_quaternion"
    _type_code_name = "BALL_QUATERNION"
    _position_suffixes = ("qw", "qx", "qy", "qz")
    _velocity_suffixes = ("wx", "wy", "wz")
    _default_q = (1.0, 0.0, 0.0, 0.0)

    def get_default_quaternion(self) -> np.ndarray:
        """Default quaternion [w, x, y, z] of R_FM, shape (4,)."""
        return self.get_default_positions()

    def set_default_quaternion(self, q_FM) -> None:
        """Set the default quaternion of R_FM (normalized here)."""
        self.set_default_positions(_unit_quaternion(q_FM, "BallQuaternionJoint.set_default_quaternion"))

    def get_quaternion(self, context) -> np.ndarray:
        """Quaternion [w, x, y, z] of R_FM in `context`, shape (4,)."""
        return self.get_positions(context)

    def set_quaternion(self, context, q_FM) -> None:
        """Set the quaternion of R_FM in `context` (normalized here)."""
        self.set_positions(context, _unit_quaternion(q_FM, "BallQuaternionJoint.set_quaternion"))

    def get_rotation(self, context) -> RotationMatrix:
        """R_FM in `context` (the quaternion is normalized)."""
        q = self.get_positions(context)
        return RotationMatrix(q / np.linalg.norm(q))

    def get_angular_velocity(self, context) -> np.ndarray:
        """w_FM_F in `context`, shape (3,)."""
        return self.get_velocities(context)

    def set_angular_velocity(self, context, w_FM) -> None:
        """Set w_FM_F in `context`."""
        self.set_velocities(
            context, as_vector(w_FM, 3, "BallQuaternionJoint.set_angular_velocity", "w_FM"))
