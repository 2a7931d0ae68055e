"""BallRpyJoint: a ball (spherical) joint parameterized by roll-pitch-yaw angles (3 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.joint import as_vector
from merganser.multibody.tree.joints.multi_dof import AngleJoint

__all__ = ["BallRpyJoint"]


class BallRpyJoint(AngleJoint):
    """A 3-dof ball joint: R_FM = Rz(y) Ry(p) Rx(r) with q = [r, p, y]; Fo = Mo.

    v = w_FM_F, the angular velocity of M in F expressed in F (not the angle rates).
    Coordinate names ``_qx _qy _qz`` / ``_wx _wy _wz`` as in Drake.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); Mo stays at Fo and the angles set R_FM.
    damping : float
        Viscous damping (N·m·s/rad), >= 0: torque -damping·w_FM.
    """

    _type_name = "ball_rpy"
    _type_code_name = "BALL_RPY"
    _position_suffixes = ("qx", "qy", "qz")
    _velocity_suffixes = ("wx", "wy", "wz")
    _default_q = (0.0, 0.0, 0.0)

    def get_angular_velocity(self, context) -> np.ndarray:
        """w_FM_F in `context`, shape (3,)."""
        return self.get_velocities(context)

    def set_angular_velocity(self, context, w_FM) -> None:
        """Set w_FM_F in `context`."""
        self.set_velocities(
            context, as_vector(w_FM, 3, "BallRpyJoint.set_angular_velocity", "w_FM")
        )
