"""OneDofJoint: the base of the joints with one coordinate about or along a unit axis
(revolute, prismatic, screw).

It stores the normalized axis (expressed in F and in M), the scalar damping and gives the
subclasses the scalar accessors of their one coordinate (``_coordinate``,
``_set_coordinate``, ``_rate``, ``_set_rate``, ``_default_coordinate``,
``_set_default_coordinate``), which they expose under Drake's names (``get_angle``,
``get_translation``, ``get_rotation``, ...). A new one-dof joint subclasses it and sets
the class attributes of `Joint` (``_type_name``, ``_type_code_name``, suffixes).
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.joint import Joint, unit_axis

__all__ = ["OneDofJoint"]


class OneDofJoint(Joint):
    """A 1-dof joint about or along `axis` (see the module docstring).

    Parameters
    ----------
    name : str
    frame_on_parent, frame_on_child : Frame
    axis : array_like, shape (3,)
        Expressed in F; normalized here (a zero axis raises ValueError).
    damping : float
        Viscous damping on the one velocity, >= 0.
    pos_lower_limit, pos_upper_limit : float or None
        Limits of the coordinate (None: unbounded).
    """

    _default_q = (0.0,)

    def __init__(self, name, frame_on_parent, frame_on_child, axis, damping=0.0,
                 pos_lower_limit=None, pos_upper_limit=None):
        self._axis = unit_axis(axis, f"{type(self).__name__} {name!r}")
        super().__init__(name, frame_on_parent, frame_on_child, damping, pos_lower_limit,
                         pos_upper_limit)

    def damping(self) -> float:
        """Viscous damping coefficient of the one velocity."""
        return float(self._damping[0])

    default_damping = damping

    def get_damping(self, context) -> float:
        """The damping coefficient held in `context` (Drake's GetDamping)."""
        return float(self.get_damping_vector(context)[0])

    def set_damping(self, context, damping: float) -> None:
        """Set the damping coefficient (>= 0) in `context` only (Drake's SetDamping)."""
        self.set_damping_vector(context, [damping])

    def default_armature(self) -> float:
        """Armature of the one velocity (see `Joint.set_default_armature_vector`)."""
        return float(self._armature[0])

    # ---- scalar limits (Drake's one-dof accessors) ---------------------------------------
    def _first_limit(name):
        def limit(self) -> float:
            return float(getattr(self, name + "s")()[0])
        limit.__name__, limit.__qualname__ = name, f"OneDofJoint.{name}"
        limit.__doc__ = f"The {name.replace('_', ' ')} of the one coordinate (``{name}s()[0]``)."
        return limit

    position_lower_limit = _first_limit("position_lower_limit")
    position_upper_limit = _first_limit("position_upper_limit")
    velocity_lower_limit = _first_limit("velocity_lower_limit")
    velocity_upper_limit = _first_limit("velocity_upper_limit")
    acceleration_lower_limit = _first_limit("acceleration_lower_limit")
    acceleration_upper_limit = _first_limit("acceleration_upper_limit")
    del _first_limit

    # ---- the one coordinate, for the subclasses' named accessors --------------------------
    def _coordinate(self, context) -> float:
        return float(self.get_positions(context)[0])

    def _set_coordinate(self, context, value) -> None:
        self.set_positions(context, [value])

    def _rate(self, context) -> float:
        return float(self.get_velocities(context)[0])

    def _set_rate(self, context, value) -> None:
        self.set_velocities(context, [value])

    def _default_coordinate(self) -> float:
        return float(self._default_positions[0])

    def _set_default_coordinate(self, value) -> None:
        self.set_default_positions([value])

    def _compiled_axis(self) -> np.ndarray:
        return self._axis.copy()
