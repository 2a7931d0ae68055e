"""PlanarJoint: translation in F's x-y plane and rotation about Fz (3 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.joint import Joint, as_vector

__all__ = ["PlanarJoint"]


class PlanarJoint(Joint):
    """A 3-dof planar joint: p_FoMo_F = [x, y, 0] and R_FM = Rz(θ).

    q = [x, y, θ], v = [ẋ, ẏ, θ̇]; coordinate names ``_x _y _qz`` / ``_vx _vy _wz``.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); M moves in F's x-y plane.
    damping : array_like, shape (3,)
        Viscous damping [translational x (N·s/m), translational y (N·s/m),
        rotational (N·m·s/rad)], each >= 0 (a scalar applies to all three).
    """

    _type_name = "planar"
    _type_code_name = "PLANAR"
    _position_suffixes = ("x", "y", "qz")
    _velocity_suffixes = ("vx", "vy", "wz")
    _default_q = (0.0, 0.0, 0.0)

    def __init__(self, name, frame_on_parent, frame_on_child, damping=(0.0, 0.0, 0.0)):
        super().__init__(name, frame_on_parent, frame_on_child, damping)

    def can_rotate(self) -> bool:
        return True

    def can_translate(self) -> bool:
        return True

    def set_default_pose(self, p_FoMo_F, theta: float) -> None:
        """Set the default translation [x, y] and angle θ."""
        p = as_vector(p_FoMo_F, 2, "PlanarJoint.set_default_pose", "p_FoMo_F")
        self.set_default_positions([p[0], p[1], theta])

    def get_translation(self, context) -> np.ndarray:
        """[x, y] in `context`, shape (2,)."""
        return self.get_positions(context)[:2]

    def set_translation(self, context, p_FoMo_F) -> None:
        """Set [x, y] in `context`, keeping θ."""
        q = self.get_positions(context)
        q[:2] = as_vector(p_FoMo_F, 2, "PlanarJoint.set_translation", "p_FoMo_F")
        self.set_positions(context, q)

    def get_rotation(self, context) -> float:
        """Angle θ about Fz in `context` (rad)."""
        return float(self.get_positions(context)[2])

    def set_rotation(self, context, theta: float) -> None:
        """Set θ in `context`, keeping [x, y]."""
        q = self.get_positions(context)
        q[2] = theta
        self.set_positions(context, q)

    def set_pose(self, context, p_FoMo_F, theta: float) -> None:
        """Set [x, y] and θ in `context`."""
        p = as_vector(p_FoMo_F, 2, "PlanarJoint.set_pose", "p_FoMo_F")
        self.set_positions(context, [p[0], p[1], theta])

    def get_translational_velocity(self, context) -> np.ndarray:
        """[ẋ, ẏ] in `context`, shape (2,)."""
        return self.get_velocities(context)[:2]

    def set_translational_velocity(self, context, v_FoMo_F) -> None:
        """Set [ẋ, ẏ] in `context`, keeping θ̇."""
        v = self.get_velocities(context)
        v[:2] = as_vector(v_FoMo_F, 2, "PlanarJoint.set_translational_velocity", "v_FoMo_F")
        self.set_velocities(context, v)

    def get_angular_velocity(self, context) -> float:
        """θ̇ in `context` (rad/s)."""
        return float(self.get_velocities(context)[2])

    def set_angular_velocity(self, context, theta_dot: float) -> None:
        """Set θ̇ in `context`, keeping [ẋ, ẏ]."""
        v = self.get_velocities(context)
        v[2] = theta_dot
        self.set_velocities(context, v)
