"""UniversalJoint: two successive rotations, about Fx then the intermediate y (2 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.joint import Joint

__all__ = ["UniversalJoint"]


class UniversalJoint(Joint):
    """A 2-dof universal (Cardan) joint: R_FM = Rx(q₀) Ry(q₁); Fo = Mo.

    v = [q̇₀, q̇₁]; coordinate names ``_qx _qy`` / ``_wx _wy`` as in Drake.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body).
    damping : float
        Viscous damping (N·m·s/rad) applied to both angle rates, >= 0.
    """

    _type_name = "universal"
    _type_code_name = "UNIVERSAL"
    _position_suffixes = ("qx", "qy")
    _velocity_suffixes = ("wx", "wy")
    _default_q = (0.0, 0.0)

    def __init__(self, name, frame_on_parent, frame_on_child, damping=0.0):
        if np.ndim(damping) != 0:
            raise ValueError(f"UniversalJoint {name!r}: damping must be a scalar, got {damping!r}")
        super().__init__(name, frame_on_parent, frame_on_child, damping)

    def damping(self) -> float:
        """Viscous damping coefficient (N·m·s/rad)."""
        return float(self._damping[0])

    default_damping = damping

    def can_rotate(self) -> bool:
        return True

    def get_default_angles(self) -> np.ndarray:
        """Default [q₀, q₁], shape (2,)."""
        return self.get_default_positions()

    def set_default_angles(self, angles) -> None:
        """Set the default [q₀, q₁]."""
        self.set_default_positions(angles)

    def get_angles(self, context) -> np.ndarray:
        """[q₀, q₁] in `context`, shape (2,)."""
        return self.get_positions(context)

    def set_angles(self, context, angles) -> None:
        """Set [q₀, q₁] in `context`."""
        self.set_positions(context, angles)

    def get_angular_rates(self, context) -> np.ndarray:
        """[q̇₀, q̇₁] in `context`, shape (2,)."""
        return self.get_velocities(context)

    def set_angular_rates(self, context, rates) -> None:
        """Set [q̇₀, q̇₁] in `context`."""
        self.set_velocities(context, rates)
