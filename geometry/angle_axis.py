"""An Eigen-style angle-axis rotation value (pydrake's ``AngleAxis``)."""

import numpy as np

from .quaternion_type import Quaternion
from .rotation_matrix import RotationMatrix

__all__ = ["AngleAxis"]


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

    def __init__(self, angle=None, axis=None, *, quaternion=None, rotation=None, other=None):
        if other is not None:                   # pydrake's copy constructor
            if not isinstance(other, AngleAxis):
                raise TypeError(f"AngleAxis: other must be an AngleAxis, got "
                                f"{type(other).__name__}")
            angle, axis = other.angle(), other.axis()
        if quaternion is not None or rotation is not None:
            R = RotationMatrix(quaternion if quaternion is not None else rotation)
            angle, axis = R.to_angle_axis()
        elif angle is None and axis is None:
            angle, axis = 0.0, np.array([1.0, 0.0, 0.0])
        axis = np.array(axis, dtype=np.float64).reshape(-1)
        if axis.shape != (3,) or abs(np.linalg.norm(axis) - 1.0) > 1e-10:
            raise RuntimeError(f"AngleAxis: argument axis: expected a unit vector of shape "
                               f"(3,), got {axis.tolist()}")
        self._angle = float(angle)
        self._axis = axis

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
        return RotationMatrix.make_from_angle_axis(self._angle, self._axis).matrix()

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
