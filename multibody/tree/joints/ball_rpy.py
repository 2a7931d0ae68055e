"""BallRpyJoint: a ball (spherical) joint parameterized by roll-pitch-yaw angles (3 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.joint import Joint, as_vector

__all__ = ["BallRpyJoint"]


class BallRpyJoint(Joint):
    """A 3-dof ball joint: R_FM = Rz(y) Ry(p) Rx(r) with q = [r, p, y]; Fo = Mo.

    v = w_FM_F, the angular velocity of M in F expressed in F (not the angle rates).
    Coordinate names ``_qx _qy _qz`` / ``_wx _wy _wz`` as in Drake.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body).
    damping : float
        Viscous damping (N·m·s/rad), >= 0: torque -damping·w_FM.
    """

    _type_name = "ball_rpy"
    _type_code_name = "BALL_RPY"
    _position_suffixes = ("qx", "qy", "qz")
    _velocity_suffixes = ("wx", "wy", "wz")
    _default_q = (0.0, 0.0, 0.0)

    def __init__(self, name, frame_on_parent, frame_on_child, damping=0.0):
        if np.ndim(damping) != 0:
            raise ValueError(f"BallRpyJoint {name!r}: damping must be a scalar, got {damping!r}")
        super().__init__(name, frame_on_parent, frame_on_child, damping)

    def damping(self) -> float:
        """Viscous damping coefficient (N·m·s/rad)."""
        return float(self._damping[0])

    default_damping = damping

    def can_rotate(self) -> bool:
        return True

    def get_default_angles(self) -> np.ndarray:
        """Default [roll, pitch, yaw], shape (3,)."""
        return self.get_default_positions()

    def set_default_angles(self, angles) -> None:
        """Set the default [roll, pitch, yaw], shape (3,)."""
        self.set_default_positions(angles)

    def get_angles(self, context) -> np.ndarray:
        """[roll, pitch, yaw] of R_FM in `context`, shape (3,)."""
        return self.get_positions(context)

    def set_angles(self, context, angles) -> None:
        """Set [roll, pitch, yaw] of R_FM in `context`."""
        self.set_positions(context, angles)

    def get_angular_velocity(self, context) -> np.ndarray:
        """w_FM_F in `context`, shape (3,)."""
        return self.get_velocities(context)

    def set_angular_velocity(self, context, w_FM) -> None:
        """Set w_FM_F in `context`."""
        self.set_velocities(
            context, as_vector(w_FM, 3, "BallRpyJoint.set_angular_velocity", "w_FM")
        )
