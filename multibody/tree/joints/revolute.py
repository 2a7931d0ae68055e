"""RevoluteJoint: rotation of M relative to F about a fixed unit axis (1 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.one_dof import OneDofJoint

__all__ = ["RevoluteJoint"]


class RevoluteJoint(OneDofJoint):
    """A 1-dof joint: M rotates relative to F by angle θ about `axis` (in F, and in M).

    q = [θ] (rad), v = [θ̇] (rad/s); coordinate names ``<joint>_q`` / ``<joint>_w``.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); Fo and Mo coincide.
    axis : array_like, shape (3,)
        Rotation axis expressed in F; normalized here (a zero axis raises ValueError).
    damping : float
        Viscous damping (N·m·s/rad), >= 0: torque -damping·θ̇.
    pos_lower_limit, pos_upper_limit : float, keyword-only
        Angle limits (rad); ±inf by default.
    """

    _type_name = "revolute"
    _type_code_name = "REVOLUTE"
    _position_suffixes = ("q",)
    _velocity_suffixes = ("w",)

    def __init__(
        self,
        name,
        frame_on_parent,
        frame_on_child,
        axis,
        damping=0.0,
        *,
        pos_lower_limit=-np.inf,
        pos_upper_limit=np.inf,
    ):
        super().__init__(name, frame_on_parent, frame_on_child, axis, damping,
                         pos_lower_limit, pos_upper_limit)

    def revolute_axis(self) -> np.ndarray:
        """Unit rotation axis, expressed in F, shape (3,)."""
        return self._axis.copy()

    def can_rotate(self) -> bool:
        return True

    def get_default_angle(self) -> float:
        """Default angle θ₀ (rad)."""
        return self._default_coordinate()

    def set_default_angle(self, angle: float) -> None:
        """Set the default angle θ₀ (rad)."""
        self._set_default_coordinate(angle)

    def get_angle(self, context) -> float:
        """Angle θ in `context` (rad)."""
        return self._coordinate(context)

    def set_angle(self, context, angle: float) -> None:
        """Set the angle θ in `context` (rad)."""
        self._set_coordinate(context, angle)

    def get_angular_rate(self, context) -> float:
        """Angular rate θ̇ in `context` (rad/s)."""
        return self._rate(context)

    def set_angular_rate(self, context, rate: float) -> None:
        """Set the angular rate θ̇ in `context` (rad/s)."""
        self._set_rate(context, rate)
