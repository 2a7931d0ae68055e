"""ScrewJoint: rotation about an axis coupled to translation along it (1 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.one_dof import OneDofJoint

__all__ = ["ScrewJoint"]


class ScrewJoint(OneDofJoint):
    """A 1-dof screw (helical) joint about `axis` with pitch `screw_pitch`.

    q = [θ]: M rotates by θ about `axis` and translates by ``screw_pitch * θ / (2π)``
    along it; v = [θ̇]. Coordinate names ``<joint>_q`` / ``<joint>_w``.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); Mo moves along the axis as it turns.
    axis : array_like, shape (3,), optional
        Screw axis expressed in F; normalized here (a zero axis raises ValueError).
        Omitted, it is F's z axis (Drake's overload without an axis, which may also be
        called positionally as ``(name, F, M, screw_pitch, damping)``).
    screw_pitch : float
        Translation per revolution (m/rev); may be negative (left-handed thread).
    damping : float
        Viscous damping on θ̇ (N·m·s/rad), >= 0.
    """

    _type_name = "screw"
    _type_code_name = "SCREW"
    _position_suffixes = ("q",)
    _velocity_suffixes = ("w",)

    def __init__(self, name, frame_on_parent, frame_on_child, axis=None, screw_pitch=None,
                 damping=0.0):
        if axis is not None and np.ndim(axis) == 0:
            # Drake's no-axis overload, positionally: (name, F, M, screw_pitch, damping).
            axis, screw_pitch, damping = None, axis, (
                damping if screw_pitch is None else screw_pitch)
        if screw_pitch is None:
            raise TypeError(f"ScrewJoint {name!r}: screw_pitch is required")
        if axis is None:
            axis = (0.0, 0.0, 1.0)
        if not np.isfinite(screw_pitch):
            raise ValueError(
                f"ScrewJoint {name!r}: screw_pitch must be finite, got {screw_pitch!r}"
            )
        self._screw_pitch = float(screw_pitch)
        super().__init__(name, frame_on_parent, frame_on_child, axis, damping)

    def screw_axis(self) -> np.ndarray:
        """Unit screw axis, expressed in F, shape (3,)."""
        return self._axis.copy()

    def screw_pitch(self) -> float:
        """Translation per revolution (m)."""
        return self._screw_pitch

    def can_rotate(self) -> bool:
        return True

    def can_translate(self) -> bool:
        return self._screw_pitch != 0.0

    def get_default_rotation(self) -> float:
        """Default angle θ₀ (rad)."""
        return self._default_coordinate()

    def set_default_rotation(self, theta: float) -> None:
        """Set the default angle θ₀ (rad)."""
        self._set_default_coordinate(theta)

    def get_rotation(self, context) -> float:
        """Angle θ in `context` (rad)."""
        return self._coordinate(context)

    def set_rotation(self, context, theta: float) -> None:
        """Set θ in `context` (rad)."""
        self._set_coordinate(context, theta)

    def get_translation(self, context) -> float:
        """Translation along the axis, ``screw_pitch * θ / (2π)`` (m)."""
        return self._screw_pitch * self.get_rotation(context) / (2.0 * np.pi)

    def set_translation(self, context, translation: float) -> None:
        """Set θ so that the translation along the axis is `translation` (m)."""
        if self._screw_pitch == 0.0:
            raise ValueError(
                f"ScrewJoint.set_translation: joint {self._name!r} has zero screw_pitch, so "
                f"translation is always 0; got translation={translation!r}"
            )
        self.set_rotation(context, 2.0 * np.pi * translation / self._screw_pitch)

    def get_angular_velocity(self, context) -> float:
        """θ̇ in `context` (rad/s)."""
        return self._rate(context)

    def set_angular_velocity(self, context, theta_dot: float) -> None:
        """Set θ̇ in `context` (rad/s)."""
        self._set_rate(context, theta_dot)

    def _compiled_screw_pitch(self) -> float:
        return self._screw_pitch
