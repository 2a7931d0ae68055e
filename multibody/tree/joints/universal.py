"""UniversalJoint: two successive rotations, about Fx then the intermediate y (2 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.multi_dof import AngleJoint

__all__ = ["UniversalJoint"]


class UniversalJoint(AngleJoint):
    """A 2-dof universal (Cardan) joint: R_FM = Rx(q₀) Ry(q₁); Fo = Mo.

    v = [q̇₀, q̇₁]; coordinate names ``_qx _qy`` / ``_wx _wy`` as in Drake.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); Mo stays at Fo.
    damping : float
        Viscous damping (N·m·s/rad) applied to both angle rates, >= 0.
    """

    _type_name = "universal"
    _type_code_name = "UNIVERSAL"
    _position_suffixes = ("qx", "qy")
    _velocity_suffixes = ("wx", "wy")
    _default_q = (0.0, 0.0)

    def get_angular_rates(self, context) -> np.ndarray:
        """[q̇₀, q̇₁] in `context`, shape (2,)."""
        return self.get_velocities(context)

    def set_angular_rates(self, context, rates) -> None:
        """Set [q̇₀, q̇₁] in `context`."""
        self.set_velocities(context, rates)
