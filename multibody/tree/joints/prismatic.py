"""PrismaticJoint: translation of M relative to F along a fixed unit axis (1 dof)."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.one_dof import OneDofJoint

__all__ = ["PrismaticJoint"]


class PrismaticJoint(OneDofJoint):
    """A 1-dof joint: Mo translates from Fo by distance x along `axis` (in F); R_FM = I.

    q = [x] (m), v = [ẋ] (m/s); coordinate names ``<joint>_x`` / ``<joint>_v``.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent, frame_on_child : Frame
        Frames F (on the parent body) and M (on the child body); R_FM stays the identity.
    axis : array_like, shape (3,)
        Translation axis expressed in F; normalized here (a zero axis raises ValueError).
    pos_lower_limit, pos_upper_limit : float
        Translation limits (m); ±inf by default (Drake's argument order).
    damping : float
        Viscous damping (N·s/m), >= 0: force -damping·ẋ.
    """

    _type_name = "prismatic"
    _type_code_name = "PRISMATIC"
    _position_suffixes = ("x",)
    _velocity_suffixes = ("v",)

    def __init__(
        self,
        name,
        frame_on_parent,
        frame_on_child,
        axis,
        pos_lower_limit=-np.inf,
        pos_upper_limit=np.inf,
        damping=0.0,
    ):
        super().__init__(name, frame_on_parent, frame_on_child, axis, damping,
                         pos_lower_limit, pos_upper_limit)

    def translation_axis(self) -> np.ndarray:
        """Unit translation axis, expressed in F, shape (3,)."""
        return self._axis.copy()

    def can_translate(self) -> bool:
        return True

    def get_default_translation(self) -> float:
        """Default translation x₀ (m)."""
        return self._default_coordinate()

    def set_default_translation(self, translation: float) -> None:
        """Set the default translation x₀ (m)."""
        self._set_default_coordinate(translation)

    def get_translation(self, context) -> float:
        """Translation x in `context` (m)."""
        return self._coordinate(context)

    def set_translation(self, context, translation: float) -> None:
        """Set the translation x in `context` (m)."""
        self._set_coordinate(context, translation)

    def get_translation_rate(self, context) -> float:
        """Translation rate ẋ in `context` (m/s)."""
        return self._rate(context)

    def set_translation_rate(self, context, rate: float) -> None:
        """Set the translation rate ẋ in `context` (m/s)."""
        self._set_rate(context, rate)
