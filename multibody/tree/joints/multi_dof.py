"""Bases of the multi-dof joints, one place for what they share.

- `RotationJoint`: joints that only rotate about Fo = Mo (ball rpy, ball quaternion,
  universal), with one scalar viscous damping on every angular velocity;
- `AngleJoint`: a `RotationJoint` whose positions are angles (ball rpy, universal), with
  Drake's ``get_angles`` / ``set_angles`` and their defaults;
- `FloatingJoint`: the 6-dof joints (quaternion floating, rpy floating), with angular and
  translational damping, v = [w_FM_F; v_FMo_F].

One-dof joints share `OneDofJoint` (``one_dof.py``).
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.joints.joint import Joint, as_vector

__all__ = ["AngleJoint", "FloatingJoint", "RotationJoint"]


def _scalar(joint_cls, name, arg, value):
    if np.ndim(value) != 0:
        raise ValueError(f"{joint_cls.__name__} {name!r}: {arg} must be a scalar, got {value!r}")
    return value


class RotationJoint(Joint):
    """A joint that only rotates; `damping` (N·m·s/rad, >= 0) acts on every velocity."""

    def __init__(self, name, frame_on_parent, frame_on_child, damping=0.0):
        _scalar(type(self), name, "damping", damping)
        super().__init__(name, frame_on_parent, frame_on_child, damping)

    def damping(self) -> float:
        """Viscous damping coefficient (N·m·s/rad)."""
        return float(self._damping[0])

    default_damping = damping

    def can_rotate(self) -> bool:
        return True


class AngleJoint(RotationJoint):
    """A `RotationJoint` whose positions are its angles, shape (nq,)."""

    def get_default_angles(self) -> np.ndarray:
        """Default angles, shape (nq,)."""
        return self.get_default_positions()

    def set_default_angles(self, angles) -> None:
        """Set the default angles, shape (nq,)."""
        self.set_default_positions(angles)

    def get_angles(self, context) -> np.ndarray:
        """The angles in `context`, shape (nq,)."""
        return self.get_positions(context)

    def set_angles(self, context, angles) -> None:
        """Set the angles in `context`."""
        self.set_positions(context, angles)


class FloatingJoint(Joint):
    """A 6-dof joint with v = [w_FM_F; v_FMo_F]; `angular_damping` (N·m·s/rad) acts on
    w_FM, `translational_damping` (N·s/m) on v_FMo, both scalars >= 0."""

    def __init__(self, name, frame_on_parent, frame_on_child, angular_damping=0.0,
                 translational_damping=0.0):
        _scalar(type(self), name, "angular_damping", angular_damping)
        _scalar(type(self), name, "translational_damping", translational_damping)
        damping = [angular_damping] * 3 + [translational_damping] * 3
        super().__init__(name, frame_on_parent, frame_on_child, damping)

    def default_angular_damping(self) -> float:
        """Viscous damping on the angular velocity (N·m·s/rad)."""
        return float(self._damping[0])

    def default_translational_damping(self) -> float:
        """Viscous damping on the translational velocity (N·s/m)."""
        return float(self._damping[3])

    def can_rotate(self) -> bool:
        return True

    def can_translate(self) -> bool:
        return True

    # q ends with p_FoMo_F (3,); v = [w_FM_F; v_FMo_F].
    def get_default_translation(self) -> np.ndarray:
        """Default p_FoMo_F, shape (3,)."""
        return self._default_positions[-3:].copy()

    def set_default_translation(self, p_FM) -> None:
        """Set the default p_FoMo_F, shape (3,), keeping the default orientation."""
        q = self.get_default_positions()
        q[-3:] = as_vector(p_FM, 3, f"{type(self).__name__}.set_default_translation", "p_FM")
        self.set_default_positions(q)

    def get_translation(self, context) -> np.ndarray:
        """p_FoMo_F in `context`, shape (3,)."""
        return self.get_positions(context)[-3:]

    def set_translation(self, context, p_FM) -> None:
        """Set p_FoMo_F in `context`, keeping the orientation."""
        q = self.get_positions(context)
        q[-3:] = as_vector(p_FM, 3, f"{type(self).__name__}.set_translation", "p_FM")
        self.set_positions(context, q)

    def get_angular_velocity(self, context) -> np.ndarray:
        """w_FM_F in `context`, shape (3,)."""
        return self.get_velocities(context)[:3]

    def set_angular_velocity(self, context, w_FM) -> None:
        """Set w_FM_F in `context`, keeping v_FMo_F."""
        v = self.get_velocities(context)
        v[:3] = as_vector(w_FM, 3, f"{type(self).__name__}.set_angular_velocity", "w_FM")
        self.set_velocities(context, v)

    def get_translational_velocity(self, context) -> np.ndarray:
        """v_FMo_F in `context`, shape (3,)."""
        return self.get_velocities(context)[3:]

    def set_translational_velocity(self, context, v_FM) -> None:
        """Set v_FMo_F in `context`, keeping w_FM_F."""
        v = self.get_velocities(context)
        v[3:] = as_vector(v_FM, 3, f"{type(self).__name__}.set_translational_velocity", "v_FM")
        self.set_velocities(context, v)
