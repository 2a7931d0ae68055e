"""RollPitchYaw: orientation as three angles, Drake's extrinsic X-Y-Z convention.

The rotation is R_AD = Rz(yaw) @ Ry(pitch) @ Rx(roll): roll about Ax, then pitch about
Ay, then yaw about Az (fixed axes), equivalently yaw-pitch-roll about the moving z, y', x''
axes. The conversion from a rotation matrix returns roll, yaw in [-π, π] and pitch in
[-π/2, π/2]; near gimbal lock (|pitch| = π/2) only roll ∓ yaw is determined and the
conversion still reproduces the matrix.
"""

import numpy as np

from .quaternion import rotation_matrix_to_quaternion
from .rotation_matrix import RotationMatrix

__all__ = ["RollPitchYaw"]


def _matrix_from_rpy(roll, pitch, yaw):
    """Return Rz(yaw) Ry(pitch) Rx(roll), ndarray of shape (3, 3)."""
    cr, sr = np.cos(roll), np.sin(roll)
    cp, sp = np.cos(pitch), np.sin(pitch)
    cy, sy = np.cos(yaw), np.sin(yaw)
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def _rpy_from_matrix(R):
    """Return [roll, pitch, yaw] of a rotation matrix, robust at gimbal lock.

    Yaw comes from the first column (R10, R00) = cos(pitch) (sin yaw, cos yaw). Roll and
    pitch then come from M = Rz(yaw)ᵀ R = Ry(pitch) Rx(roll), whose entries
    M11 = cos roll, M12 = -sin roll, M00 = cos pitch, M20 = -sin pitch all have unit
    magnitude. Near gimbal lock yaw is ill-conditioned, but roll absorbs its error, so
    the angles still reproduce R to machine precision.
    """
    if R[0, 0] == 0.0 and R[1, 0] == 0.0:
        yaw = 0.0  # exact gimbal lock: choose yaw = 0 (avoids atan2's signed-zero branches)
    else:
        yaw = np.arctan2(R[1, 0], R[0, 0])
    cy, sy = np.cos(yaw), np.sin(yaw)
    # Rows 0, 1 of Rz(yaw)ᵀ R; row 2 is R's row 2.
    m00 = cy * R[0, 0] + sy * R[1, 0]
    m11 = -sy * R[0, 1] + cy * R[1, 1]
    m12 = -sy * R[0, 2] + cy * R[1, 2]
    pitch = np.arctan2(-R[2, 0], m00)
    roll = np.arctan2(-m12, m11)
    return np.array([roll, pitch, yaw])


class RollPitchYaw:
    """Immutable roll-pitch-yaw angles [r, p, y] (radians), R = Rz(y) Ry(p) Rx(r).

    Parameters
    ----------
    roll : float, array_like (3,), array_like (4,), RotationMatrix or RollPitchYaw
        The roll angle (with `pitch` and `yaw` given), or the vector [r, p, y], or a
        quaternion [w, x, y, z], or a rotation to convert.
    pitch, yaw : float, optional
        Given only with a scalar `roll`.

    Raises
    ------
    ValueError
        If the angles are not finite or the arguments have the wrong shape.
    """

    __slots__ = ("_rpy",)

    def __init__(self, roll, pitch=None, yaw=None):
        if pitch is not None or yaw is not None:
            if pitch is None or yaw is None:
                raise ValueError(
                    "RollPitchYaw: give all three angles (roll, pitch, yaw) or one vector, "
                    f"got roll={roll!r}, pitch={pitch!r}, yaw={yaw!r}"
                )
            rpy = np.array([roll, pitch, yaw], dtype=np.float64)
        elif isinstance(roll, RollPitchYaw):
            rpy = roll._rpy
        elif isinstance(roll, RotationMatrix):
            rpy = _rpy_from_matrix(roll._R)
        else:
            a = np.array(roll, dtype=np.float64)
            if a.shape == (4,):
                rpy = _rpy_from_matrix(RotationMatrix(a)._R)
            elif a.shape == (3,):
                rpy = a
            else:
                raise ValueError(
                    "RollPitchYaw: expected (roll, pitch, yaw), a vector of shape (3,), a "
                    f"quaternion of shape (4,) or a RotationMatrix, got shape {a.shape}"
                )
        if not np.all(np.isfinite(rpy)):
            raise ValueError(f"RollPitchYaw: angles must be finite, got {rpy.tolist()}")
        self._rpy = rpy
        self._rpy.flags.writeable = False

    def __reduce__(self):
        return (RollPitchYaw, (self._rpy.copy(),))

    def roll_angle(self):
        """Return the roll angle (radians), rotation about the x axis."""
        return float(self._rpy[0])

    def pitch_angle(self):
        """Return the pitch angle (radians), rotation about the y axis."""
        return float(self._rpy[1])

    def yaw_angle(self):
        """Return the yaw angle (radians), rotation about the z axis."""
        return float(self._rpy[2])

    def vector(self):
        """Return [roll, pitch, yaw], ndarray of shape (3,) (a copy)."""
        return self._rpy.copy()

    def to_rotation_matrix(self):
        """Return R = Rz(yaw) Ry(pitch) Rx(roll)."""
        return RotationMatrix._unchecked(_matrix_from_rpy(*self._rpy))

    def to_quaternion(self):
        """Return the canonical unit quaternion [w, x, y, z] (w >= 0), shape (4,)."""
        return rotation_matrix_to_quaternion(_matrix_from_rpy(*self._rpy))

    def calc_angular_velocity_in_parent_from_rpy_dt(self, rpyDt):
        """Return w_AD_A, shape (3,), the angular velocity for angle rates `rpyDt` (3,).

        w = ẏ Az + ṗ (Rz(y) Ay) + ṙ (Rz(y) Ry(p) Ax), all expressed in A.
        """
        rd, pd, yd = np.asarray(rpyDt, dtype=np.float64)
        _, p, y = self._rpy
        cp, sp, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
        return np.array([cy * cp * rd - sy * pd, sy * cp * rd + cy * pd, yd - sp * rd])

    def calc_rpy_dt_from_angular_velocity_in_parent(self, w_AD_A):
        """Return [ṙ, ṗ, ẏ], shape (3,), for the angular velocity `w_AD_A` (3,).

        Raises
        ------
        ValueError
            Near gimbal lock (cos(pitch) ≈ 0), where the angle rates are undefined.
        """
        wx, wy, wz = np.asarray(w_AD_A, dtype=np.float64)
        _, p, y = self._rpy
        cp, sp, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
        if abs(cp) < 1e-8:
            raise ValueError(
                "RollPitchYaw.calc_rpy_dt_from_angular_velocity_in_parent: pitch = "
                f"{p:.17g} is at gimbal lock (cos(pitch) = {cp:.3g}); angle rates are undefined"
            )
        rd = (cy * wx + sy * wy) / cp
        pd = -sy * wx + cy * wy
        yd = wz + sp * rd
        return np.array([rd, pd, yd])

    def is_nearly_equal_to(self, other, tolerance):
        """Return True if the angle vectors differ by at most `tolerance` elementwise."""
        return bool(np.max(np.abs(self._rpy - RollPitchYaw(other)._rpy)) <= tolerance)

    def is_nearly_same_orientation(self, other, tolerance):
        """Return True if the two rotation matrices differ by at most `tolerance` elementwise."""
        return self.to_rotation_matrix().is_nearly_equal_to(
            RollPitchYaw(other).to_rotation_matrix(), tolerance
        )

    def __repr__(self):
        r, p, y = self._rpy.tolist()
        return f"RollPitchYaw(roll={r!r}, pitch={p!r}, yaw={y!r})"

