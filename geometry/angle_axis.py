"""An Eigen-style angle-axis rotation value (pydrake's ``AngleAxis``).

It is also the pair (angle, axis): ``angle, axis = R.to_angle_axis()`` and
``R.to_angle_axis()[0]`` work beside pydrake's ``R.ToAngleAxis().angle()``. The module
needs only the quaternion helpers, so `RotationMatrix` can return an AngleAxis.
"""

import numpy as np

from merganser.framework.templates import ScalarCast

from .quaternion import (check_rotation_matrix, quaternion_to_rotation_matrix,
                         rotation_matrix_to_quaternion)
from .quaternion_type import Quaternion

__all__ = ["AngleAxis", "angle_axis_of_quaternion"]


def angle_axis_of_quaternion(q):
    """(angle in [0, π], unit axis (3,)) of the unit quaternion q = [w, x, y, z]; the axis
    of the identity is [0, 0, 1] (any would do)."""
    q = np.asarray(q, dtype=np.float64)
    if q[0] < 0.0:
        q = -q
    sin_half = float(np.linalg.norm(q[1:]))
    if sin_half == 0.0:
        return 0.0, np.array([0.0, 0.0, 1.0])
    return float(2.0 * np.arctan2(sin_half, q[0])), q[1:] / sin_half


def _unit_axis(caller, axis):
    """`axis` as a float64 (3,) unit vector (to 1e-10), else RuntimeError naming `caller`."""
    axis = np.array(axis, dtype=np.float64).reshape(-1)
    if axis.shape != (3,) or abs(np.linalg.norm(axis) - 1.0) > 1e-10:
        raise RuntimeError(f"{caller}: argument axis: expected a unit vector of shape "
                           f"(3,), got {axis.tolist()}")
    return axis


class AngleAxis:
    """The rotation by ``angle`` (radians) about the unit vector ``axis``.

    Parameters
    ----------
    angle : float, optional
        With ``axis`` (shape (3,), unit norm to 1e-10); the identity when both are omitted.
    axis : array_like, shape (3,), optional
    quaternion : Quaternion, optional
        Instead of angle and axis; the angle is then in [0, π].
    rotation : array_like (3, 3) or RotationMatrix, optional
        Instead of angle and axis; the angle is then in [0, π].
    """

    __slots__ = ("_angle", "_axis")
    #: ``X.cast[float]()``: a copy (Drake's cast<U>(); float64 only).
    cast = ScalarCast()

    def __init__(self, angle=None, axis=None, *, quaternion=None, rotation=None, other=None):
        if isinstance(angle, AngleAxis) and axis is None:
            other, angle = angle, None          # pydrake's AngleAxis(other) positionally
        if other is not None:                   # pydrake's copy constructor
            if not isinstance(other, AngleAxis):
                raise TypeError(f"AngleAxis: other must be an AngleAxis, got "
                                f"{type(other).__name__}")
            angle, axis = other.angle(), other.axis()
        if quaternion is not None or rotation is not None:
            if quaternion is not None:
                q = np.asarray(quaternion, dtype=np.float64)
                q = q / np.linalg.norm(q)
            else:
                q = rotation_matrix_to_quaternion(check_rotation_matrix(rotation, "AngleAxis"))
            angle, axis = angle_axis_of_quaternion(q)
        elif angle is None and axis is None:
            angle, axis = 0.0, np.array([1.0, 0.0, 0.0])
        self._angle = float(angle)
        self._axis = _unit_axis("AngleAxis", axis)

    @staticmethod
    def identity():
        """The zero rotation (pydrake's Identity())."""
        return AngleAxis()

    def angle(self):
        return self._angle

    def axis(self):
        """The unit axis, shape (3,) (a copy)."""
        return self._axis.copy()

    def rotation(self):
        """The rotation matrix, shape (3, 3)."""
        return quaternion_to_rotation_matrix(np.asarray(self.quaternion(), dtype=np.float64))

    # the pair (angle, axis)
    def __iter__(self):
        return iter((self._angle, self._axis.copy()))

    def __len__(self):
        return 2

    def __getitem__(self, index):
        return (self._angle, self._axis.copy())[index]

    def set_angle(self, angle):
        """Replace the angle (radians); the axis is kept (Eigen's angle() setter)."""
        self._angle = float(angle)

    def set_axis(self, axis):
        """Replace the axis (a unit vector, shape (3,)); the angle is kept.

        Raises
        ------
        RuntimeError
            If `axis` is not a unit vector of shape (3,) (to 1e-10), as pydrake does.
        """
        self._axis = _unit_axis("AngleAxis.set_axis", axis)

    def set_rotation(self, rotation):
        """Replace angle and axis by those of a rotation (a (3, 3) rotation matrix or a
        RotationMatrix); the angle is then in [0, π]."""
        other = AngleAxis(rotation=rotation)
        self._angle, self._axis = other._angle, other._axis

    def set_quaternion(self, quaternion):
        """Replace angle and axis by those of a quaternion [w, x, y, z] (normalized first);
        the angle is then in [0, π]."""
        other = AngleAxis(quaternion=quaternion)
        self._angle, self._axis = other._angle, other._axis

    def quaternion(self):
        """The Quaternion [cos(θ/2), sin(θ/2) axis]."""
        half = 0.5 * self._angle
        return Quaternion(np.r_[np.cos(half), np.sin(half) * self._axis])

    def inverse(self):
        return AngleAxis(-self._angle, self._axis)

    def multiply(self, other):
        """The composed rotation self · other as an AngleAxis, or the rotated vector
        (shape (3,)) when ``other`` is a vector."""
        if isinstance(other, AngleAxis):
            return AngleAxis(rotation=self.rotation() @ other.rotation())
        return self.rotation() @ np.asarray(other, dtype=np.float64)

    __matmul__ = multiply

    def __reduce__(self):
        return (AngleAxis, (self._angle, self._axis.copy()))

    def __repr__(self):
        return f"AngleAxis(angle={self._angle!r}, axis={self._axis.tolist()!r})"
